"""A state's errors as a table (a trace step's violations, a stored checkpoint's errors)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

import streamlit as st

from ui.errors.view import COLUMN_ORDER, ERROR_COLUMNS, MESSAGE_ROW_HEIGHT
from ui.errors.widths import column_px, wrapped_column_px, wrapped_lines
from ui.tables import MOST_LINES, row_height

__all__ = ["STATE_ERROR_TABLE", "state_error_table"]


class _TableOptions(TypedDict):
    """st.dataframe's keywords for a state's errors (typed, so mypy checks them there)."""

    hide_index: bool
    column_order: list[str]
    column_config: dict[str, Any]
    row_height: int


# Path and the message first, at widths that fit a phone's 356 px of grid, the message wrapped
# in rows tall enough for four lines (it was cut mid-sentence at 390 px); the rest follows. A
# state has no text, so no line:col. (The layout for rows not known in advance:
# state_error_table fits its columns to the rows it draws.)
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

# The open thread's pane at 1400 px draws a grid 460 px wide (issue 41: its "input" column
# began at 440 px, cut to "inp", and "greater_than_equal" ran past the edge). Every column
# of the fitted table is in that width, each value wrapped inside its column and never split
# inside a word up to a word of _WORD_MOST px (a longer one, a URL or a long input, breaks
# where it must); on a phone's 356 px the table scrolls inside itself, never the page. The
# pointer (the path again, as a JSON pointer) is left out: it took 65 px of the 460; the
# docs link is an arrow under its header.
_ROOM = 458  # px
_WORD_MOST = 120  # px, a wrapped column's most: the longest word it holds unbroken
_FITTED_ORDER = ["path", "message", "type", "input", "ctx", "docs"]
_WRAPPED = ("path", "message", "input", "ctx")
_MESSAGE_LEAST = 90  # px: a word or two a line
# the message is widened rather than cut past ui.tables.MOST_LINES lines (the table scrolls)
_MESSAGE_MOST = 900  # px: and never past this (a message of many line breaks fits no width)
_ROWS_MEASURED = 200  # rows whose words set the widths (the rest wrap inside them)
_CHARS_MEASURED = 2_000  # of each cell: 12 lines of the widest column hold far fewer
_DOCS_TEXT = "↗"
_DOCS = st.column_config.LinkColumn(
    "docs", display_text=_DOCS_TEXT, help="The error type's page in Pydantic's documentation."
)


def _width(name: str, values: list[str]) -> int:
    """`name`'s column: its header on one line, each word of its values unbroken (up to
    _WORD_MOST in the wrapped columns; the type, one word, is never broken)."""
    fitted = wrapped_column_px(name, values)
    if name not in _WRAPPED:
        return fitted
    return max(column_px([name]), min(fitted, _WORD_MOST))


def _lines(texts: list[str], width: int) -> int:
    return max((wrapped_lines(text, width) for text in texts), default=1)


def state_error_table(rows: Sequence[Mapping[str, str]]) -> _TableOptions:
    """STATE_ERROR_TABLE with each column as wide as its header and `rows`' words need (the
    rows of `Report.to_rows()`), the message taking the rest of the 1400 px pane's width
    (wider where its longest word or its lines need it), rows as tall as their longest
    wrapped value.

    Example:
        >>> rows = [{"path": "amount", "message": "Input should be greater than or equal to 0",
        ...          "type": "greater_than_equal", "input": "-1", "ctx": '{"ge": 0}',
        ...          "docs": "https://errors.pydantic.dev/2.14/v/greater_than_equal"}]
        >>> table = state_error_table(rows)
        >>> {name: table["column_config"][name]["width"] for name in table["column_order"]}
        {'path': 65, 'message': 126, 'type': 135, 'input': 42, 'ctx': 52, 'docs': 38}
        >>> table["row_height"]
        79
    """
    # measured on each cell's start and the first rows only: a stored value is untrusted and
    # may be huge or hold many line breaks (the widths of a bounded sample, in bounded time)
    sample = rows[:_ROWS_MEASURED]
    texts = {
        name: [str(row.get(name) or "")[:_CHARS_MEASURED] for row in sample]
        for name in _FITTED_ORDER
    }
    order = [name for name in _FITTED_ORDER if name != "docs" or any(texts["docs"])]
    widths = {name: _width(name, texts[name]) for name in order}
    if "docs" in widths:  # a stored state's errors have no link: no empty column for it
        widths["docs"] = column_px(["docs", _DOCS_TEXT])
    rest = _ROOM - sum(width for name, width in widths.items() if name != "message")
    message = max(rest, widths["message"], _MESSAGE_LEAST)
    if message < _MESSAGE_MOST and _lines(texts["message"], message) > MOST_LINES:
        # the narrowest width (in steps of 10 px, up to _MESSAGE_MOST) that holds every message
        # in MOST_LINES: found by halving, as more width never adds a line; a message whose
        # line breaks alone pass MOST_LINES fits at no width, so the search stops at the most
        low, high = message, _MESSAGE_MOST
        while high - low > 10:
            middle = low + max(10, (high - low) // 20 * 10)
            if _lines(texts["message"], middle) > MOST_LINES:
                low = middle
            else:
                high = middle
        message = high
    widths["message"] = message
    height = row_height(max(_lines(texts[name], widths[name]) for name in _WRAPPED))
    config = ERROR_COLUMNS | {"docs": _DOCS}
    return {
        "hide_index": True,
        "column_order": order,
        "column_config": {
            name: (config.get(name) or st.column_config.TextColumn(name)) | {"width": width}
            for name, width in widths.items()
        },
        "row_height": height,
    }
