"""A recorded run as a table: its steps (tied to a stepper when asked), or its gate's errors."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from core.jsontext.write import plural
from core.trace import Trace
from core.trace.focus import row_flags
from core.validate.annotated import MAX_LINE_CHARS, line_pieces
from ui import keys
from ui.errors.view import COLUMN_ORDER, ERROR_COLUMNS
from ui.tables import row_height
from ui.trace_verdict import run_headline, stopped_panel

__all__ = [
    "FORK_ROOM",
    "PHONE_ROOM",
    "RUN_ROOM",
    "STEP_COLUMNS",
    "STEP_ROW_HEIGHT",
    "error_panel",
    "fitted_steps",
    "flagged_frame",
    "shown_cell",
    "shown_rows",
    "step_columns",
    "step_table",
    "step_row_height",
    "step_widths",
    "text_width",
    "trace_table",
]


# The grid's room for columns, after the row's selection box (34 px): a phone's 356 px grid,
# the run's table at 1400 px (seven tenths of the page's 939 px: 646 px of grid) and each of
# the fork's two (460 px).
PHONE_ROOM = 356 - 34
RUN_ROOM = 646 - 34
FORK_ROOM = 460 - 34


def trace_table(
    trace: Trace,
    *,
    key: str,
    fix: str = "",
    checked: str = "the payload",
    selected: int | None = None,
    slider: str | None = None,
    room: int = FORK_ROOM,
) -> None:
    """The node trace table (or the gate errors when the graph did not run), then the error.

    Reusable by any page that records a LangGraph run with `core.trace.run_trace`; `fix`
    (fixed text) says where the input can be fixed, `checked` names what the gate checked.
    With `slider` (the session key of a stepper), the row `selected` is selected, the first
    failing row is flagged, clicking a row selects it in the stepper, and the run's headline
    and error are left to the caller (`run_headline`, a row's detail). `room` is the table's
    px for columns at 1400 px (`step_widths`).
    """
    if trace.gate_errors:
        count = plural(len(trace.gate_errors), "error")
        if trace.ran:  # refused by our model, then run anyway: LangGraph's verdict is below
            st.warning(
                f"Our model alone refuses {checked} ({count}); it ran anyway. What LangGraph "
                "itself did with it follows the errors."
            )
        else:
            st.error(
                f"Gate closed — {count} in {checked}; the graph did not run."
                + (f" {fix}" if fix else "")
            )
        st.dataframe(
            pd.DataFrame([error.to_row() for error in trace.gate_errors]),
            key=keys.part(key, "gate"),
            hide_index=True,
            column_config=ERROR_COLUMNS,
            column_order=COLUMN_ORDER,
        )
        if not trace.ran:
            return
    if slider is None:
        frame = pd.DataFrame(shown_rows(trace.rows()))
        if frame.empty:  # LangGraph stopped before its first step: no row, no empty grid
            st.caption("No node ran, so the run has no step to list.")
        else:
            st.dataframe(frame, key=keys.table(key), hide_index=True, **fitted_steps(frame, room))
        error_panel(trace)
        return
    step_table(trace, key=key, selected=selected or 0, slider=slider, room=room)


def error_panel(trace: Trace) -> None:
    """The run's headline, then what stopped it (LangGraph's words and, checked, who wrote it)."""
    run_headline(trace)
    stopped_panel(trace)


# Dark-theme-safe: a translucent red over either background keeps the text's own contrast.
_FLAG_STYLE = "background-color: rgba(255, 75, 75, 0.22)"


def step_table(trace: Trace, *, key: str, selected: int, slider: str, room: int = RUN_ROOM) -> None:
    """The rows, the first failing one and each that lost data flagged and tinted, the stepper
    `slider`'s row selected; clicking a row selects it in the stepper."""
    frame = flagged_frame(trace)
    flags = list(frame["flag"])
    # The key names the selected row: selecting another step draws the table with that row
    # selected (a selection's default applies only to a table drawn for the first time).
    table_key = keys.step_table(key, selected)
    styled = frame.style.apply(
        lambda row: [_FLAG_STYLE if flags[row.name] else ""] * len(row), axis=1
    )
    st.dataframe(
        styled,
        key=table_key,
        hide_index=True,
        on_select=functools.partial(_pick, table_key, slider, selected),
        selection_mode="single-row",
        selection_default={"selection": {"rows": [selected]}},
        **fitted_steps(frame, room),
    )


# Streamlit wraps a cell's text only in rows taller than 4rem (64 px): 82 px holds four
# lines (a check shrunk to fit a phone wraps there). The columns that say what happened at
# each row, in this order; their widths follow what the run's cells hold (`step_widths`:
# inside a phone's grid, no word broken at 1400 px, an empty error column narrow). What the
# state holds after the step (status, logs, messages, changed fields, reducers) is not a
# column: the row's panels (the merge, the whole state) and the CSV export hold them. Every
# trace table uses these (the fork's two, the Retry lab's), without flag where it has none.
STEP_ROW_HEIGHT = 82
STEP_COLUMNS = {
    # Pinned: Streamlit leaves a pinned column out when it spreads a table's spare room.
    "step": st.column_config.NumberColumn("step", width=34, pinned=True),
    "node": st.column_config.TextColumn("node", width=72),
    "check": st.column_config.TextColumn("check", width=72),
    "flag": st.column_config.TextColumn(
        "flag",
        width=82,
        help="Where the run went wrong, opened first (natively: where LangGraph raised, or "
        "the state it stopped at or finished with); data lost: a step where LangGraph "
        "dropped a write or an Overwrite bypassed a reducer, without raising.",
    ),
    "blame": st.column_config.TextColumn("blame", width=62),
    "error": st.column_config.TextColumn(
        "error",
        width=180,
        help="What LangGraph raised at this row, cut at the column's edge when long: select "
        "the row, and its detail beside the table (on a phone: under it) holds it whole.",
    ),
}


def fitted_steps(frame: pd.DataFrame, room: int) -> dict[str, Any]:
    """st.dataframe keywords for a trace table: the shown columns in order, each as wide as
    its content asks (`step_widths`: no word broken at 1400 px, the verdict columns inside a
    phone's grid), rows of four wrapped lines; an error column with nothing in it is narrow.
    """
    rows = frame.to_dict("records")
    widths = step_widths(rows, room)
    config = {name: {**STEP_COLUMNS[name], "width": width} for name, width in widths.items()}
    return {
        "column_order": list(widths),
        "column_config": config,
        "row_height": step_row_height(rows, widths),
    }


def step_row_height(rows: Sequence[Mapping[str, Any]], widths: Mapping[str, int]) -> int:
    """A trace table's row height (px): STEP_ROW_HEIGHT, or taller when a cell wraps to more
    lines than it holds at its column's width in `widths` (`row_height`: up to MOST_LINES,
    the rest cut at the row's foot; the row's detail holds it whole). LangGraph's error for
    two writes to one field in a super-step took five lines of a 170 px error column, cut in
    half at the third by the 82 px rows.

    Example:
        >>> step_row_height([{"error": "RuntimeError: payment service unavailable"}],
        ...                 {"error": 170})
        82
        >>> step_row_height([{"error": "InvalidUpdateError: At key 'status': Can receive "
        ...     "only one value per step. Use an Annotated key to handle multiple values."}],
        ...     {"error": 170})
        121
    """
    lines = max(
        (
            _wrapped_lines("" if row.get(name) is None else str(row[name]), width)
            for row in rows
            for name, width in widths.items()
        ),
        default=1,
    )
    return max(row_height(lines), STEP_ROW_HEIGHT)


def _wrapped_lines(text: str, width: int) -> int:
    """How many lines the grid wraps `text` to in a column `width` px wide: word by word,
    a word wider than a line broken over as many as it fills."""
    room = max(width - _PADDING, 1)
    space = _GLYPHS[" "]
    lines, used = 1, 0.0
    for word in text.split():
        wide: float = text_width(word) - _PADDING
        if used and used + space + wide > room:
            lines, used = lines + 1, 0.0
        used += space if used else 0.0
        while used + wide > room:  # a word longer than a line goes on in the next
            wide -= room - used
            lines, used = lines + 1, 0.0
        used += wide
    return lines


def step_columns(frame: pd.DataFrame) -> list[str]:
    """The columns a trace table shows, in order: STEP_COLUMNS that `frame` has (a native
    run blames nobody, a fork's tables flag nothing)."""
    return [name for name in STEP_COLUMNS if name in frame.columns]


def flagged_frame(trace: Trace) -> pd.DataFrame:
    """The run's step table as drawn: its rows (`shown_rows`), a flag column first."""
    frame = pd.DataFrame(shown_rows(trace.rows()))
    frame.insert(0, "flag", row_flags(trace))
    return frame


def shown_cell(value: Any) -> Any:
    """A table cell as drawn: text of at most MAX_LINE_CHARS characters, the rest cut and
    said cut as the Validate page cuts a long line ("… N more characters"); any other value
    as it is. A state's value may be megabytes of text: a cell draws a bounded part of it.

    Example:
        >>> shown_cell("x" * 302)[-22:], shown_cell(7)
        ('xxx… 2 more characters', 7)
    """
    if not isinstance(value, str):
        return value
    return "".join(line_pieces(value, MAX_LINE_CHARS))


def shown_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """`rows` with every cell as drawn (`shown_cell`): what a table of values is given."""
    return [{name: shown_cell(value) for name, value in row.items()} for row in rows]


def _pick(table_key: str, slider: str, selected: int) -> None:
    rows = st.session_state[table_key]["selection"]["rows"]
    st.session_state[slider] = rows[0] if rows else selected


# A trace table's column widths, chosen by what its cells hold. The server cannot know the
# screen's width, and Streamlit stretches every column by the same amount when a table is
# narrower than its box. A check like "amount: greater_than_equal" was broken mid-word in a
# 72 px column beside an empty 180 px error column (issue 41, item 6).
VERDICT = ("step", "node", "check", "flag", "blame")
_PADDING = 18  # px: the cell's padding on both sides, and two of slack
# What each character takes in the grid's font (14 px "Source Sans", measured in Chromium
# with measureText, in tenths of a px); another character counts as a digit, a CJK one as two.
_TENTHS = (
    "! 41 \" 60 % 115 & 85 ' 35 ( 42 ) 42 * 59 , 35 - 44 . 35 / 49 : 35 ; 35 ? 60 @ 119 "
    "A 76 B 82 C 80 D 86 E 74 F 69 G 86 H 91 I 37 J 67 K 81 L 68 M 102 N 91 O 93 P 79 Q 93 "
    "R 80 S 75 T 75 U 90 V 72 W 110 X 72 Y 67 Z 76 [ 42 \\ 49 ] 42 _ 70 ` 76 a 71 b 77 "
    "c 64 d 78 e 69 f 41 g 71 h 76 i 34 j 35 k 69 l 36 m 116 n 77 o 76 p 78 q 78 r 49 s 59 "
    "t 47 u 76 v 65 w 101 x 62 y 65 z 60 { 42 | 34 } 42"
)
_PAIRS = _TENTHS.split(" ")
_GLYPHS = {" ": 2.8} | {
    char: int(tenths) / 10 for char, tenths in zip(_PAIRS[::2], _PAIRS[1::2], strict=True)
}
_DIGIT, _DOUBLE = 6.96, 14.0
_MIN = {"step": 34}
# Up to these widths (px, those the verdict columns had before, which the phone's tests
# measured) a column holds its longest word on one line: the grid's wrapping measures only a
# guessed prefix of a text, and drew a word a few px too wide for its column on one line,
# cut ("confirm" in a 55 px blame column on a phone).
_ONE_LINE = {"node": 74, "check": 74, "blame": 64}


def text_width(text: str) -> int:
    """About how many px `text` takes on one line of a grid cell, its padding included.

    Example:
        >>> text_width("validate_order"), text_width("first failure")
        (104, 81)
    """
    width = sum(_DOUBLE if ord(char) > 0x2E80 else _GLYPHS.get(char, _DIGIT) for char in text)
    return round(width) + _PADDING


def _longest_word(values: Sequence[str], header: str) -> int:
    words = [header, *(word for value in values for word in value.split())]
    return max(text_width(word) for word in words)


def step_widths(rows: Sequence[Mapping[str, Any]], room: int = RUN_ROOM) -> dict[str, int]:
    """Each column's width (px) for a trace table of `rows`, in the table's order.

    A verdict column needs its longest word (its header at least), so no word is broken;
    flag needs "first failure" on one line. When they exceed a phone's grid, each gives up
    the same few px (down to its header): at 1400 px Streamlit spreads the table's spare
    room evenly over its columns but step (pinned), which gives them back. The error
    column takes the rest of `room` when a row has an error (cut when long: each row's
    detail holds it whole), its header's width when none has.

    Example:
        >>> rows = [{"step": 1, "node": "validate_order", "check": "amount: greater_than_equal",
        ...          "flag": "first failure", "blame": "validate_order", "error": ""}]
        >>> step_widths(rows)
        {'step': 43, 'node': 55, 'check': 86, 'flag': 81, 'blame': 55, 'error': 47}
    """
    names = [name for name in VERDICT if any(name in row for row in rows)]
    texts = {name: ["" if row.get(name) is None else str(row[name]) for row in rows]
             for name in (*names, "error")}  # fmt: skip
    least = {name: max(text_width(name), _MIN.get(name, 0)) for name in names}
    need = {name: max(_longest_word(texts[name], name), least[name]) for name in names}
    if "flag" in need and any(texts["flag"]):
        # On one line, never shrunk: the grid's wrapping measures only a guessed prefix of a
        # text, and after some runs drew a wrapped flag's narrow letters on one line, cut.
        need["flag"] = least["flag"] = max(text_width(text) for text in texts["flag"])
    for name in names:  # a word about as wide as its column may be drawn on one line, cut
        if need[name] <= _ONE_LINE.get(name, 0):
            least[name] = need[name]
    given = 0  # px each column gives up on a phone, and gets back at `room`
    most = max((need[n] - least[n] for n in names), default=0)  # then none can give more
    while given < most and sum(max(need[n] - given, least[n]) for n in names) > PHONE_ROOM:
        given += 1
    widths = {name: max(need[name] - given, least[name]) for name in names}
    if any("error" in row for row in rows):
        widths["error"] = text_width("error")
        if any(texts["error"]):  # the rest, less what the others get back from the spread
            growing = len(widths) - ("step" in widths)
            rest = room - sum(widths.values()) - growing * given
            widths["error"] = max(rest + widths["error"], widths["error"])
    return widths
