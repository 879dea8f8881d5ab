"""The order form: which edits reach the JSON text, and which are refused with a message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.order.presets import PRESETS
from tests.app._editor import editor

APP = str(Path(__file__).parents[2] / "app.py")


def _apply(items: list, edits: dict) -> AppTest:
    """Run the items editor's change callback on `edits`, as Streamlit would after an edit."""

    def script() -> None:
        import streamlit as st

        from ui.validate.payload_form import _apply_items

        _apply_items("form_items", st.session_state["items_before"])

    at = AppTest.from_function(script)
    at.session_state["payload"] = json.dumps({"amount": 1, "items": items})
    at.session_state["items_before"] = items
    at.session_state["form_items"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [],
    } | edits
    return at.run()


def _items(at: AppTest) -> list:
    return json.loads(at.session_state["payload"])["items"]


def test_an_empty_new_row_is_not_written_so_the_typing_that_follows_is_kept():
    at = _apply([{"sku": "A-1", "qty": 1, "unit_price": 2}], {"added_rows": [{}]})
    assert (
        at.session_state["payload"]
        == '{"amount": 1, "items": [{"sku": "A-1", "qty": 1, "unit_price": 2}]}'
    )
    at = _apply([], {"added_rows": [{"sku": "ABC-1"}]})
    assert _items(at) == [{"sku": "ABC-1"}]  # missing fields are left for validation to name


def test_edits_to_objects_are_written_as_json_values():
    at = _apply(
        [{"sku": "A-1", "qty": 1, "unit_price": 2}, {"sku": "B-2", "qty": 1, "unit_price": 2}],
        {"edited_rows": {"0": {"qty": "3", "sku": "42"}}, "deleted_rows": [1]},
    )
    assert _items(at) == [{"sku": 42, "qty": 3, "unit_price": 2}]


@pytest.mark.parametrize("item", [5, "x", None, [1]])
def test_an_edit_to_an_item_that_is_not_an_object_is_refused_and_named(item):
    at = _apply([item], {"edited_rows": {"0": {"sku": "SKU-99"}}})
    assert _items(at) == [item]
    assert at.session_state["form_items__notice"] == f"items[0] = {json.dumps(item)}"
    assert at.session_state["form_items__source"] is None  # the editor drops the edit


@pytest.mark.parametrize(
    ("edits", "named"),
    [
        ({"edited_rows": {"0": {"unit_price": "1e999"}}}, "items[0].unit_price = 1e999"),
        ({"edited_rows": {"0": {"qty": "NaN"}}}, "items[0].qty = NaN"),
        (
            {"added_rows": [{"sku": "B-2", "unit_price": "-1e400"}]},
            "a new item holds a number JSON cannot write",
        ),
    ],
)
def test_a_number_json_cannot_write_is_refused_and_the_text_kept(edits, named):
    at = _apply([{"sku": "A-1", "qty": 1, "unit_price": 2}], edits)
    assert at.session_state["payload"] == json.dumps(
        {"amount": 1, "items": [{"sku": "A-1", "qty": 1, "unit_price": 2}]}
    )
    assert at.session_state["form__notice"] == named
    assert at.session_state["form_items__source"] is None  # the refused cell is not kept


def test_the_amount_field_refuses_infinity_with_a_message_and_keeps_the_json_text():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.button_group(key="editor_view").set_value("Form").run()
    before = editor(at, "payload").value
    at.text_input(key="form_amount").input("1e999").run()
    assert editor(at, "payload").value == before
    assert at.text_input(key="form_amount").value == "99"
    assert [w.value for w in at.warning] == [
        "That number is beyond what a float holds: JSON would get Infinity or NaN, which is not "
        "standard JSON. The edit was not applied; type a smaller number."
    ]
    assert [c.value for c in at.code if "1e999" in c.value] == ["amount = 1e999"]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        (
            '{"user_id": "x", "amount": 1e400}',
            "The form would rewrite a number too large for a float (like 1e400) as Infinity. "
            "Fix it in the JSON text first.",
        ),
        (
            '{"user_id": "x", "user_id": "y", "amount": 1}',
            "The text repeats a key within one object, and the form would keep only its last "
            "value. Remove the repeated key in the JSON text first; the repeated-key warning says "
            "where.",
        ),
    ],
)
def test_the_form_is_not_offered_for_text_an_edit_would_silently_change(text, why):
    # Every form edit rewrites the whole text from the parsed value: 1e400 came back as
    # Infinity and the first "user_id" vanished, with no message.
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["payload"] = text
    at.run()
    at.button_group(key="editor_view").set_value("Form").run()

    assert not at.exception
    assert why in [i.value for i in at.info]
    assert not [w.key for w in at.text_input if w.key and w.key.startswith("form_")]
    assert editor(at, "payload").value == text


def test_nan_and_infinity_written_as_such_keep_the_form_and_survive_an_edit():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["payload"] = PRESETS["nan_infinity"].text
    at.run()
    at.button_group(key="editor_view").set_value("Form").run()
    at.text_input(key="form_user_id").input("someone").run()

    written = editor(at, "payload").value
    assert not at.exception and not at.info
    assert json.loads(written)["user_id"] == "someone"
    assert written.count("NaN") == PRESETS["nan_infinity"].text.count("NaN")
    assert written.count("Infinity") == PRESETS["nan_infinity"].text.count("Infinity")
