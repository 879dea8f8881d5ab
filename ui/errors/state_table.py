"""A state's errors as a table (a trace step's violations, a stored checkpoint's errors)."""

from __future__ import annotations

from typing import Any, TypedDict

import streamlit as st

from ui.errors.view import COLUMN_ORDER, ERROR_COLUMNS, MESSAGE_ROW_HEIGHT

__all__ = ["STATE_ERROR_TABLE"]


class _TableOptions(TypedDict):
    """st.dataframe's keywords for a state's errors (typed, so mypy checks them there)."""

    hide_index: bool
    column_order: list[str]
    column_config: dict[str, Any]
    row_height: int


# Path and the message first, at widths that fit a phone's 356 px of grid, the message wrapped
# in rows tall enough for four lines (it was cut mid-sentence at 390 px); the rest follows. A
# state has no text, so no line:col.
STATE_ERROR_TABLE: _TableOptions = {
    "hide_index": True,
    "column_order": ["path", "message"]
    + [c for c in COLUMN_ORDER if c not in ("path", "message", "line:col")],
    "column_config": ERROR_COLUMNS
    | {
        "path": st.column_config.TextColumn("path", width=96),
        "message": st.column_config.TextColumn("message", width=250),
    },
    "row_height": MESSAGE_ROW_HEIGHT,
}
