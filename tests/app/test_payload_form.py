"""The order form's items table: which edits reach the JSON text, and which are refused."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest


def _apply(items: list, edits: dict) -> AppTest:
    """Run the items editor's change callback on `edits`, as Streamlit would after an edit."""

    def script() -> None:
        import streamlit as st

        from ui.payload_form import _apply_items

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
