"""The Behaviour lab's probe table: columns chosen by what they hold, every cell drawn whole."""

from __future__ import annotations

from typing import Any

import streamlit as st

from ui.errors.widths import wrapped_column_px, wrapped_lines

__all__ = ["PROBE_COLUMNS", "PROBE_ORDER", "PROBE_ROOM", "probe_columns"]

PROBE_COLUMNS = ("id", "verdict", "claim", "source", "evidence", "seconds")
# Drawn verdict and claim first: on a phone's 358 px of grid the row mark, the verdict and the
# claim (32 + 72 + 199 px on the demo) are in view whole, the id a swipe away (first, it took
# 280 px and the verdict was cut to "partl…", the claim off-screen). At 1400 px every column
# is in view, at the same widths.
PROBE_ORDER = ("verdict", "claim", "id", "source", "evidence", "seconds")
# The page's 938 px at 1400, less the row-select column (32 px) and the grid's borders.
PROBE_ROOM = 904  # px
_SECONDS = 64  # px: "seconds" and a time such as 0.0131
_EVIDENCE = 132  # px: "4 checks: 3 as claimed, 1 differs" in three lines
_CLAIM_SHARE = 0.56  # of the room left for the claim and its source, the claim's
# A wrapped cell's lines, 18.2 px apart in Chromium, with the row's padding: Streamlit
# wraps a cell's text only in rows taller than 64 px.
_LINE = 19  # px
_PADDING = 20  # px
_WRAPPING = 66  # px


def probe_columns(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """st.dataframe keywords for the probe table's `rows` (PROBE_COLUMNS each): the id and
    the verdict on one line, as wide as the longest shown (an id was broken mid-name, as
    "gate_blocks_invalid_ / input"), the claim, its source and the evidence wrapped, and
    rows tall enough for the longest of them (they were cut at a fourth line, with no way to
    read the rest in the table)."""

    def width(name: str) -> int:  # the rows wrap: each column's values as wrapped text
        return wrapped_column_px(name, [str(row.get(name) or "") for row in rows])

    widths = {"id": width("id"), "verdict": width("verdict")}
    rest = PROBE_ROOM - widths["id"] - widths["verdict"] - _EVIDENCE - _SECONDS
    widths["claim"] = round(rest * _CLAIM_SHARE)
    widths["source"] = rest - widths["claim"]
    widths |= {"evidence": _EVIDENCE, "seconds": _SECONDS}
    lines = max(
        (
            wrapped_lines(str(row.get(name) or ""), widths[name])
            for row in rows
            for name in ("claim", "source", "evidence")
        ),
        default=1,
    )
    height = 35 if lines == 1 else max(lines * _LINE + _PADDING, _WRAPPING)
    return {
        "column_order": list(PROBE_ORDER),
        "column_config": {
            name: st.column_config.Column(name, width=widths[name]) for name in PROBE_COLUMNS
        },
        "row_height": height,
    }
