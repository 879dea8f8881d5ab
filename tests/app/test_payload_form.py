"""The form on the seed order: which edits reach the JSON text, which are refused and named,
and each field's errors under it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pydantic import ValidationError
from streamlit.testing.v1 import AppTest

from core.jsontext.write import to_text
from core.order import AgentState
from core.order.presets import PRESETS
from core.validate.json_schema import field_kind, json_schema
from tests.app._editor import editor
from ui import keys
from ui.validate.form_edits import TableEdit, apply_table
from ui.validate.form_table import cell_key, columns_of

APP = str(Path(__file__).parents[2] / "app.py")


ITEM_COLUMNS = {"sku": "text", "qty": "json", "unit_price": "json"}
SEED_ITEM = {"sku": "A-1", "qty": 1, "unit_price": 2}


def _apply(items: list, edits: dict) -> AppTest:
    """Type `edits` (a data editor's edit state: the shape `apply_table` takes) into the items
    grid's cells and run its Apply callback, as Streamlit does when the button is pressed."""

    def script() -> None:
        import streamlit as st

        from ui.validate.form_table import _apply_table

        _apply_table(("items",), st.session_state["base"], st.session_state["cols"])

    at = AppTest.from_function(script)
    at.session_state[keys.PAYLOAD] = json.dumps({"amount": 1, "items": items})
    at.session_state["base"] = items
    at.session_state["cols"] = ITEM_COLUMNS
    for row, cells in edits.get("edited_rows", {}).items():
        for column, text in cells.items():
            at.session_state[cell_key(("items",), int(row), column)] = text or ""
    for column, text in (edits.get("added_rows") or [{}])[0].items():
        at.session_state[cell_key(("items",), len(items), column)] = text or ""
    for row in edits.get("deleted_rows", []):
        for column in ITEM_COLUMNS:
            at.session_state[cell_key(("items",), int(row), column)] = ""
    return at.run()


def _items(at: AppTest) -> list:
    return json.loads(at.session_state[keys.PAYLOAD])["items"]


def test_the_item_columns_are_typed_by_the_line_item_schema():
    root = json_schema(AgentState)
    item = field_kind(root["properties"]["items"], root)[1]
    assert columns_of(item, root, [SEED_ITEM | {"colour": "red"}]) == ITEM_COLUMNS | {
        "colour": "json"  # a key LineItem does not declare gets a column of its own
    }


def test_an_empty_new_row_is_not_written_so_the_typing_that_follows_is_kept():
    at = _apply([SEED_ITEM], {"added_rows": [{}]})
    assert at.session_state[keys.PAYLOAD] == json.dumps({"amount": 1, "items": [SEED_ITEM]})
    at = _apply([], {"added_rows": [{"sku": "ABC-1"}]})
    assert _items(at) == [{"sku": "ABC-1"}]  # missing fields are left for validation to name


def test_a_row_typed_cell_by_cell_is_written_whole_from_the_same_base():
    # The editor keeps its base rows while its edits are written, so each callback sees
    # every cell typed so far (issue 22, finding 1: only the SKU was kept).
    row = {"sku": "ABC-9", "qty": "1", "unit_price": "2.5"}
    at = _apply([SEED_ITEM], {"added_rows": [row]})
    assert _items(at) == [SEED_ITEM, {"sku": "ABC-9", "qty": 1, "unit_price": 2.5}]


def test_edits_to_objects_are_written_as_json_values_and_text_cells_stay_strings():
    # The one engine types a cell by its field: sku is a string field, so "42" stays "42"
    # (the old order form wrote 42, a number, which the model then rejected).
    at = _apply(
        [SEED_ITEM, {"sku": "B-2", "qty": 1, "unit_price": 2}],
        {"edited_rows": {"0": {"qty": "3", "sku": "42"}}, "deleted_rows": [1]},
    )
    assert _items(at) == [{"sku": "42", "qty": 3, "unit_price": 2}]


def test_a_cleared_cell_leaves_its_key_out_for_the_model_to_name():
    edit = apply_table(
        [SEED_ITEM], {"edited_rows": {0: {"qty": None, "sku": ""}}}, ITEM_COLUMNS, "items"
    )
    assert edit == TableEdit([{"unit_price": 2}], [])


@pytest.mark.parametrize("item", [5, "x", None, [1]])
def test_an_edit_to_an_item_that_is_not_an_object_is_refused_and_named(item):
    edits = {"edited_rows": {"0": {"sku": "SKU-99"}}}
    at = _apply([item], edits)
    assert _items(at) == [item]
    assert apply_table([item], edits, ITEM_COLUMNS, "items") == TableEdit(
        [item], [f"items[0] = {json.dumps(item)}  (not an object: edit it as JSON)"]
    )


@pytest.mark.parametrize(
    ("edits", "written", "refused"),
    [
        (
            {"edited_rows": {"0": {"unit_price": "1e999"}}},
            [SEED_ITEM],
            "items[0].unit_price = 1e999  (beyond what a float holds)",
        ),
        (
            {"edited_rows": {"0": {"qty": "NaN"}}},
            [SEED_ITEM],
            "items[0].qty = NaN  (beyond what a float holds)",
        ),
        (  # the new row is written without the refused cell, which the table keeps as typed
            {"added_rows": [{"sku": "B-2", "unit_price": "-1e400"}]},
            [SEED_ITEM, {"sku": "B-2"}],
            "items[1].unit_price = -1e400  (beyond what a float holds)",
        ),
    ],
)
def test_a_number_json_cannot_write_is_refused_named_and_left_out(edits, written, refused):
    at = _apply([SEED_ITEM], edits)
    assert _items(at) == written
    assert apply_table([SEED_ITEM], edits, ITEM_COLUMNS, "items") == TableEdit(written, [refused])


def test_the_amount_field_refuses_infinity_with_a_message_and_keeps_the_json_text():
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()
    before = editor(at, keys.PAYLOAD).value
    at.text_input(key="form_amount").input("1e999").run()
    assert editor(at, keys.PAYLOAD).value == before
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
    at.session_state[keys.PAYLOAD] = text
    at.run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()

    assert not at.exception
    assert why in [i.value for i in at.info]
    assert not [w.key for w in at.text_input if w.key and w.key.startswith("form_")]
    assert editor(at, keys.PAYLOAD).value == text


def test_nan_and_infinity_written_as_such_keep_the_form_and_survive_an_edit():
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[keys.PAYLOAD] = PRESETS["nan_infinity"].value
    at.run()
    at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()
    at.text_input(key="form_user_id").input("someone").run()

    written = editor(at, keys.PAYLOAD).value
    assert not at.exception and not at.info
    assert json.loads(written)["user_id"] == "someone"
    assert written.count("NaN") == PRESETS["nan_infinity"].value.count("NaN")
    assert written.count("Infinity") == PRESETS["nan_infinity"].value.count("Infinity")


BAD = {
    "user_id": "not-a-uuid",
    "amount": -1,
    "status": "shipped",
    "items": [{"sku": "bad sku", "qty": 0, "unit_price": 1, "colour": "red"}, 5],
    "totl": 1,
    "messages": [{"type": "human", "content": "hi"}],
}


def _pydantic_errors(payload: dict) -> list[tuple[str, str]]:
    """(msg, type) of each error Pydantic gives for the payload's JSON text, in its order."""
    with pytest.raises(ValidationError) as caught:
        AgentState.model_validate_json(json.dumps(payload))
    return [(e["msg"], e["type"]) for e in caught.value.errors()]


def _field_texts(at: AppTest) -> list[str]:
    """The form's error lines under its fields (the error table's details are text too)."""
    return [t.value for t in at.text if t.value.startswith("✗")]


def _shown_errors(at: AppTest) -> list[tuple[str, str]]:
    """(msg, type) of each error line the form shows, top to bottom."""
    lines = [line for text in _field_texts(at) for line in text.splitlines()]
    return [re.fullmatch(r"✗ (?:\S+: )?(.*) \((\w+)\)", line).groups() for line in lines]


def _form(payload: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[keys.PAYLOAD] = json.dumps(payload)
    at.run()
    return at.button_group(key=keys.EDITOR_VIEW).set_value("Form").run()


def test_each_field_shows_the_errors_pydantic_gives_at_its_loc_under_it():
    at = _form(BAD)
    assert not at.exception
    assert _field_texts(at) == [
        "✗ Input should be a valid UUID, invalid character: found `n` at 0 (uuid_parsing)",
        "✗ Input should be greater than or equal to 0 (greater_than_equal)",
        "✗ Input should be 'pending', 'validated' or 'confirmed' (literal_error)",
        "✗ items[0].sku: String should match pattern '^[A-Z0-9-]+$' (string_pattern_mismatch)\n"
        "✗ items[0].qty: Input should be greater than or equal to 1 (greater_than_equal)\n"
        "✗ items[1]: Input should be an object (model_type)",
        "✗ Extra inputs are not permitted (extra_forbidden)",
    ]
    assert _shown_errors(at) == _pydantic_errors(BAD)  # Pydantic's own, one for one


def test_unknown_keys_and_messages_are_fields_too_and_the_items_table_is_labelled():
    at = _form(BAD)
    fields = [(w.key, w.label, w.value) for w in [*at.text_input, *at.text_area]]
    fields = [f for f in fields if f[0] != "payload" and not f[0].startswith("form-cell-")]
    assert fields == [  # the inputs' own labels (their aria-label) in plain words
        ("form_user_id", "user_id", "not-a-uuid"),
        ("form_amount", "amount", "-1"),
        ("form_totl", "totl (not in the model)", "1"),
        ("form_logs", "logs (optional)", ""),
        ("form_messages", "messages (optional)", to_text(BAD["messages"])),
    ]
    assert [(w.key, w.value) for w in at.selectbox if w.key.startswith("form_")] == [
        ("form_status", "shipped")
    ]
    labels = {r"user\_id", "amount", "status (optional)", "totl (not in the model)"}
    shown = [(c.value, c.proto.help) for c in at.caption if c.value in labels]
    assert shown == [  # the labels shown: Markdown-escaped, the default's hint beside one
        (r"user\_id", ""),
        ("amount", ""),
        ("status (optional)", "Left out, the model uses its default: pending"),
        ("totl (not in the model)", ""),
    ]
    assert (
        "items (optional): a list of LineItem, one row each; type a new one on the last line, "
        "empty every cell of a row to drop it"
    ) in [c.value for c in at.caption]
    assert _grid(at) == [["bad sku", "0", "1", "red"], ["5", "5", "5", "5"], ["", "", "", ""]]

    at.text_input(key="form_totl").input("").run()  # an unknown key left empty is removed
    at.text_area(key="form_messages").input('[{"type": "ai", "content": "ok"}]').run()
    written = json.loads(editor(at, keys.PAYLOAD).value)
    assert ("totl" in written, written["messages"]) == (False, [{"type": "ai", "content": "ok"}])
    assert at.text_area(key="form_messages").value == to_text([{"type": "ai", "content": "ok"}])


def test_a_field_that_is_not_the_shape_its_schema_says_is_edited_as_json_with_its_error():
    payload = {"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1, "items": "x"}
    at = _form(payload)
    assert at.text_input(key="form_items").value == "x"
    assert _field_texts(at) == ["✗ Input should be a valid array (list_type)"]
    assert _shown_errors(at) == _pydantic_errors(payload)


def _grid(at: AppTest, path: tuple[str, ...] = ("items",)) -> list[list[str]]:
    """The items grid's cells as drawn, row by row (the last: the new item's line)."""
    cells = [w for w in at.text_input if w.key.startswith(cell_key(path, 0, "")[: -len("-0-")])]
    columns = len({w.key.rsplit("-", 1)[1] for w in cells})
    values = [w.value for w in cells]
    return [values[n : n + columns] for n in range(0, len(values), columns)]


def test_the_items_grid_keeps_its_cells_while_they_are_what_the_json_says():
    payload = {"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1}
    at = _form(payload | {"items": [SEED_ITEM]})
    assert _grid(at) == [["A-1", "1", "2"], ["", "", ""]]
    at.text_input(key=cell_key(("items",), 0, "qty")).input("7")  # sent with Apply only
    at.button(key="form-apply-items").click().run()
    at.text_input(key="form_amount").input("2").run()  # another field: the cells stay
    assert _grid(at) == [["A-1", "7", "2"], ["", "", ""]]
    assert json.loads(editor(at, keys.PAYLOAD).value)["items"] == [{**SEED_ITEM, "qty": 7}]
    # the JSON changed by other means: the cells are filled afresh from it
    editor(at, keys.PAYLOAD).input(json.dumps(payload | {"items": [{"sku": "Z-9"}]})).run()
    assert _grid(at) == [["Z-9", "", ""], ["", "", ""]]


def test_the_items_table_writes_its_edits_when_apply_to_payload_is_pressed():
    # No script run while a row is typed (issue 32, item 2): the grid sits in a form of its
    # own, and its edits reach the JSON text with the form's button, all at once (that no
    # run starts before it is tests/e2e/test_form_e2e.py's to show: AppTest sends edits
    # only with a run).
    payload = {"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1}
    at = _form(payload | {"items": [SEED_ITEM]})
    apply = at.button(key="form-apply-items")
    assert (apply.label, [c.value for c in at.caption if "reach the JSON" in c.value]) == (
        "Apply to payload",
        [
            "The table's edits reach the JSON text (and its errors) when you press Apply to "
            "payload. Until then the table keeps them as typed; switching to the JSON view "
            "drops them."
        ],
    )
    for column, text in {"sku": "ABC-123", "qty": "3", "unit_price": "9.99"}.items():
        at.text_input(key=cell_key(("items",), 1, column)).input(text)  # the new item's line
    apply.click().run()

    items = [SEED_ITEM, {"sku": "ABC-123", "qty": 3, "unit_price": 9.99}]
    assert json.loads(editor(at, keys.PAYLOAD).value) == payload | {"items": items}
    # the cells as typed, and a new line under them
    assert _grid(at) == [["A-1", "1", "2"], ["ABC-123", "3", "9.99"], ["", "", ""]]
    assert at.session_state[keys.FORM_TABLES] == {"form_items": items}
    assert not at.exception
