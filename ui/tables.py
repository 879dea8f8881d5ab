"""Tables: room for their toolbars on a phone (they cover nothing drawn above a table), and
rows tall enough for long values to wrap inside their columns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

__all__ = [
    "MOST_LINES",
    "TOOLBAR_ROOM",
    "fitted",
    "row_height",
    "rows_in_view",
    "room_for_table_toolbars",
    "wrapped_row_height",
]

# A table's toolbar (show/hide columns, download, search, fullscreen: 44 px tall) is drawn on
# a hover or a tap right above the table, over the page's 16 px gap and 28 px of whatever is
# above: on a phone, the tail of a caption ("… 0 inconclusive") or of a heading. Below
# Streamlit's phone breakpoint (its columns stack at 640 px) each table keeps that room
# free; wider, a caption's text rarely reaches the right end, so no table moves there.
# The toolbar's height less the gap, and 4 px: a heading's last line reaches 1.4 px below
# its element (measured in Chromium on the Tool-parameter lab).
TOOLBAR_ROOM = 44 - 16 + 4  # px
_STYLE = f"""<style>
@media (max-width: 640px) {{
  [data-testid="stElementContainer"]:has(
      > [data-testid="stFullScreenFrame"] > [data-testid="stDataFrame"]) {{
    margin-top: {TOOLBAR_ROOM}px;
  }}
}}
</style>"""


def room_for_table_toolbars() -> None:
    """Keep the room above every table of the page (static CSS, no user data: it takes no
    place in the page, Streamlit sends style-only HTML to its event container)."""
    st.html(_STYLE)


# Streamlit wraps a cell's text only in rows taller than 4rem (64 px), each line about 21 px
# (86 px holds four: ui/errors/view.py). A table of long values (the Trace page's merge view,
# the fork's edited fields, the thread list) has rows as tall as its longest value needs at
# its column's width, so each wraps inside its column at 1400 px, not past its edge; from
# MOST_LINES on a value is cut at the row's foot (each table says where it is whole).
_LINE = 21  # px
_PADDING = 16  # px, above and below the lines
_CHAR = 8  # px, a wide character of the grid's font (a CJK one counts as two)
_ONE_LINE_ROW, _WRAPPING_ROW = 35, 66  # px: Streamlit's own row; the least that wraps
MOST_LINES = 12


def _lines(text: str, width: int) -> int:
    """About how many lines `text` takes wrapped in a column `width` px wide (one more than
    its characters fill, for the room a line's end leaves when a word does not fit)."""
    chars = sum(2 if ord(char) > 0x2E80 else 1 for char in text)
    per_line = max((width - _PADDING) // _CHAR, 1)
    return 1 if chars <= per_line else -(-chars // per_line) + 1


def wrapped_row_height(
    rows: list[dict[str, str]], widths: dict[str, int], most_lines: int = MOST_LINES
) -> int:
    """A table's row height: room for its longest value's lines (at most `most_lines`), each
    column's values wrapped at its width in `widths`, and at least a wrapping row (over
    64 px) whenever a value needs two lines."""
    lines = max(
        (_lines(row.get(name, ""), width) for row in rows for name, width in widths.items()),
        default=1,
    )
    return row_height(lines, most_lines)


def row_height(lines: int, most_lines: int = MOST_LINES) -> int:
    """The height of a row whose tallest cell wraps to `lines` lines (at most `most_lines`
    drawn, the rest cut at the row's foot): Streamlit's own 35 px for one line, and for more
    at least a wrapping row (Streamlit wraps a cell's text only in rows over 64 px).

    Example:
        >>> row_height(1), row_height(2), row_height(4), row_height(40)
        (35, 66, 100, 268)
    """
    if lines <= 1:
        return _ONE_LINE_ROW
    return max(min(lines, most_lines) * _LINE + _PADDING, _WRAPPING_ROW)


def fitted(
    rows: Sequence[Mapping[str, Any]], widths: dict[str, int], most_lines: int = 6
) -> dict[str, Any]:
    """st.dataframe keywords that keep a table inside its width: each column at its width in
    `widths` (px, in this order; their sum is the room the table has at 1400 px), each value
    wrapped in its column, rows as tall as the longest value needs (up to `most_lines`, the
    rest cut at the row's foot: each page says where the value is whole)."""
    texts = [{name: "" if row.get(name) is None else str(row.get(name)) for name in widths}
             for row in rows]  # fmt: skip
    return {
        "column_order": list(widths),
        "column_config": {
            name: st.column_config.Column(name, width=width) for name, width in widths.items()
        },
        "row_height": wrapped_row_height(texts, widths, most_lines),
    }


def rows_in_view(row_height: int, rows: int, most: int = 8) -> int:
    """A table's height (px) that shows its header and every row up to `most` (Streamlit's
    "auto" stops at about 400 px, four rows of wrapped text); more rows scroll inside it.

    Example:
        >>> rows_in_view(35, 3), rows_in_view(35, 20)
        (145, 320)
    """
    return 38 + row_height * min(rows, most) + 2
