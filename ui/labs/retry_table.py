"""The Retry lab's timeline: columns chosen by their words, no word split, a long value whole
under the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import streamlit as st

from ui.errors.widths import column_px, text_px, word_px, wrapped_column_px, wrapped_lines
from ui.tables import row_height

__all__ = ["TIMELINE_LINES", "TIMELINE_LONG", "TIMELINE_ROOM", "shown_cell", "timeline_table"]

# The page's 938 px of grid at 1400, less its borders and the row marks (a row is picked:
# 985 px of columns scrolled in 938 at 932).
TIMELINE_ROOM = 884  # px
# The columns of long text (JSON, feedback): they share what the short ones leave, each at
# least its header, the rest by how much text each holds. A value is drawn whole when every
# word of it fits its column and it takes at most TIMELINE_LINES lines; else its first words
# (whole) and "…", the value whole under the table (timeline_table's `cut`).
# Their headers are short (a header does not wrap: "left out of the feedback" took 146 px);
# each says the rest in its help.
TIMELINE_LONG = {
    "returned": "What the model returned: its tool call or text.",
    "errors": "The validation errors, as the engine reported them.",
    "sent back": "What was sent back to the model for another try.",
    "left out": "What Pydantic's errors held that the feedback sent back left out.",
}
TIMELINE_LINES = 8
_MORE = " …"
_UNDER = "(whole under the table)"  # a value whose first word is wider than its column


def _fits(text: str, width: int) -> bool:
    return word_px(text) + 18 <= width and wrapped_lines(text, width) <= TIMELINE_LINES


def shown_cell(text: str, width: int) -> str:
    """`text` as its column `width` px wide draws it: whole when each word fits and it takes
    at most TIMELINE_LINES lines; else its first words that do, then "…".

    Example:
        >>> shown_cell("a b", 60), shown_cell("https://errors.pydantic.dev/2.14/v/too_short", 90)
        ('a b', '(whole under the table)')
    """
    if _fits(text, width):
        return text
    words = text.split(" ")
    kept = 0
    while kept < len(words) and _fits(" ".join(words[: kept + 1]) + _MORE, width):
        kept += 1
    return " ".join(words[:kept]) + _MORE if kept else _UNDER


def _widths(rows: Sequence[Mapping[str, str]], order: Sequence[str]) -> dict[str, int]:
    widths = {
        name: wrapped_column_px(name, [row[name] for row in rows])
        for name in order
        if name not in TIMELINE_LONG
    }
    long = [name for name in order if name in TIMELINE_LONG]
    room = TIMELINE_ROOM - sum(widths.values())
    least = {name: column_px([name]) for name in long}
    # Each long column as wide as its longest word where the room allows it, the narrowest
    # first; what is left by how much text each holds.
    words = {name: wrapped_column_px(name, [row[name] for row in rows]) for name in long}
    for name in sorted(long, key=lambda name: words[name] - least[name]):
        if sum(least.values()) + words[name] - least[name] <= room:
            least[name] = words[name]
    extra = max(room - sum(least.values()), 0)
    text = {name: sum(text_px(row[name]) for row in rows) + 1 for name in long}
    total = sum(text.values())
    for name in long:
        widths[name] = least[name] + int(extra * text[name] / total)
    return {name: widths[name] for name in order}


def timeline_table(
    rows: Sequence[Mapping[str, Any]], order: Sequence[str]
) -> tuple[dict[str, Any], list[dict[str, str]], list[list[str]]]:
    """st.dataframe keywords for the timeline's `rows` (keyed by the headers in `order`), the
    rows as drawn (long values cut after their last whole word that fits, with "…"), and for
    each row the headers of its cut values.

    Example:
        >>> rows = [{"attempt": "1", "returned": "word " * 600}]
        >>> table, drawn, cut = timeline_table(rows, ["attempt", "returned"])
        >>> {n: c["width"] for n, c in table["column_config"].items()}, table["row_height"], cut
        ({'attempt': 58, 'returned': 826}, 184, [['returned']])
    """
    texts = [{name: "" if row.get(name) is None else str(row.get(name)) for name in order}
             for row in rows]  # fmt: skip
    widths = _widths(texts, order)
    drawn = [{name: shown_cell(row[name], widths[name]) for name in order} for row in texts]
    cut = [
        [name for name in order if shown[name] != row[name]]
        for row, shown in zip(texts, drawn, strict=True)
    ]
    lines = max(
        (wrapped_lines(row[name], widths[name]) for row in drawn for name in order), default=1
    )
    height = row_height(lines, TIMELINE_LINES)  # each drawn value takes at most these
    return (
        {
            "column_order": list(order),
            "column_config": {
                name: st.column_config.Column(name, width=width, help=TIMELINE_LONG.get(name))
                for name, width in widths.items()
            },
            "row_height": height,
        },
        drawn,
        cut,
    )
