"""Form view of the order payload, in sync with the JSON text both ways."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st

from core.jsontext.payload import json_writable, parse
from core.jsontext.write import dumps, to_text
from ui import keys
from ui.payload import NOT_A_FLOAT, form_payload, set_payload_text, show_refusal

__all__ = ["order_form"]

_STATUSES = ["pending", "validated", "confirmed"]
_ITEM_COLUMNS = ["sku", "qty", "unit_price"]


def _cell(text: Any) -> Any:
    """Form text -> JSON value: numbers, true/false/null as JSON; anything else a string."""
    if not isinstance(text, str):
        return None if pd.isna(text) else text
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, int | float | bool) or value is None else text


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value)


def _apply(field: str, widget_key: str) -> None:
    payload = parse(st.session_state[keys.PAYLOAD])
    raw = st.session_state[widget_key]
    value = raw if field in ("user_id", "status") else _cell(raw)
    if not json_writable(value):
        st.session_state["form__notice"] = f"{field} = {raw}"
        return
    payload[field] = value
    set_payload_text(to_text(payload))


def _apply_items(widget_key: str, items: list[Any]) -> None:
    payload = parse(st.session_state[keys.PAYLOAD])
    edits = st.session_state[widget_key]
    new_items = [dict(item) if isinstance(item, dict) else item for item in items]
    for row, changes in edits.get("edited_rows", {}).items():
        if not isinstance(new_items[int(row)], dict):  # the row shows a value, not fields
            st.session_state["form_items__notice"] = (
                f"items[{row}] = {dumps(items[int(row)])}"
            )
            st.session_state["form_items__source"] = None  # the editor starts afresh
            return
        for column, value in changes.items():
            new_items[int(row)][column] = _cell(value)
            if not json_writable(new_items[int(row)][column]):
                st.session_state["form__notice"] = f"items[{row}].{column} = {value}"
                st.session_state["form_items__source"] = None  # the editor starts afresh
                return
    # A new row is written once a cell holds something: clicking the empty last row adds
    # one with no values, and writing it then would reset the editor under the typing.
    added = [
        {column: _cell(row[column]) for column in _ITEM_COLUMNS if row.get(column) is not None}
        for row in edits.get("added_rows", [])
    ]
    if not all(json_writable(value) for row in added for value in row.values()):
        st.session_state["form__notice"] = "a new item holds a number JSON cannot write"
        st.session_state["form_items__source"] = None  # the editor starts afresh
        return
    new_items += [row for row in added if row]
    for row in sorted(edits.get("deleted_rows", []), reverse=True):
        del new_items[int(row)]
    if new_items != items:
        payload["items"] = new_items
        set_payload_text(to_text(payload))


def order_form(text: str) -> None:
    """user_id, amount, status and an items table; each edit rewrites the JSON text."""
    payload = form_payload(text)
    if payload is None:
        return
    st.caption('Numbers typed here become JSON numbers; type strings like "42" in the JSON text.')
    for field in ("user_id", "amount"):
        key = f"form_{field}"
        st.session_state[key] = _shown(payload.get(field, ""))
        st.text_input(field, key=key, on_change=_apply, args=(field, key))
    show_refusal("form__notice", NOT_A_FLOAT)
    status = payload.get("status", "pending")
    options = _STATUSES if status in _STATUSES else [*_STATUSES, _shown(status)]
    st.session_state["form_status"] = status if status in _STATUSES else _shown(status)
    st.selectbox(
        "status", options, key="form_status", on_change=_apply, args=("status", "form_status")
    )
    items = payload.get("items", [])
    if not isinstance(items, list):
        st.info("items is not a list; edit it in the JSON text.")
        return
    rows = [
        {c: _shown(item.get(c, "")) for c in _ITEM_COLUMNS}
        if isinstance(item, dict)
        else dict.fromkeys(_ITEM_COLUMNS, _shown(item))
        for item in items
    ]
    frame = pd.DataFrame(rows, columns=_ITEM_COLUMNS).astype("string")
    # The editor's state is its pending edits against `frame`: once they are in the JSON
    # (or the JSON changed by other means) they must start afresh, under the same key.
    editor_key = "form_items"
    source = to_text(items)
    if st.session_state.get("form_items__source") != source:
        st.session_state.pop(editor_key, None)
        st.session_state["form_items__source"] = source
    if not all(isinstance(item, dict) for item in items):
        st.caption(
            "A row whose item is not an object shows its value in every column; "
            "edit it in the JSON text."
        )
    st.data_editor(
        frame,
        key=editor_key,
        num_rows="dynamic",
        hide_index=False,
        on_change=_apply_items,
        args=(editor_key, items),
    )
    show_refusal(
        "form_items__notice",
        "That item is not an object, so it has no fields to edit here; the edit was not "
        "applied. Change it in the JSON text.",
    )
