"""A recorded run as a table: its steps (tied to a stepper when asked), or its gate's errors."""

from __future__ import annotations

import functools

import pandas as pd
import streamlit as st

from core.jsontext.write import plural
from core.trace import Trace
from core.trace.focus import row_flags
from ui import keys
from ui.errors.view import COLUMN_ORDER, ERROR_COLUMNS
from ui.trace_verdict import run_headline, stopped_panel

__all__ = [
    "STEP_COLUMNS",
    "STEP_ROW_HEIGHT",
    "error_panel",
    "step_columns",
    "step_table",
    "trace_table",
]


def trace_table(
    trace: Trace,
    *,
    key: str,
    fix: str = "",
    checked: str = "the payload",
    selected: int | None = None,
    slider: str | None = None,
) -> None:
    """The node trace table (or the gate errors when the graph did not run), then the error.

    Reusable by any page that records a LangGraph run with `core.trace.run_trace`; `fix`
    (fixed text) says where the input can be fixed, `checked` names what the gate checked.
    With `slider` (the session key of a stepper), the row `selected` is selected, the first
    failing row is flagged, clicking a row selects it in the stepper, and the run's headline
    and error are left to the caller (`run_headline`, a row's detail).
    """
    if trace.gate_errors:
        count = plural(len(trace.gate_errors), "error")
        if trace.ran:  # refused by our model, then run anyway: LangGraph's verdict is below
            st.warning(
                f"Our model alone refuses {checked} ({count}); it ran anyway. The table below "
                "is what LangGraph itself did with it."
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
        frame = pd.DataFrame(trace.rows())
        st.dataframe(
            frame,
            key=keys.table(key),
            hide_index=True,
            # The step table's columns and widths: inside the fork's half column at 1400 px
            # (check and blame were past the edge there, and on a phone).
            column_order=step_columns(frame),
            column_config=STEP_COLUMNS,
            row_height=STEP_ROW_HEIGHT,
        )
        error_panel(trace)
        return
    step_table(trace, key=key, selected=selected or 0, slider=slider)


def error_panel(trace: Trace) -> None:
    """The run's headline, then what stopped it (LangGraph's words and, checked, who wrote it)."""
    run_headline(trace)
    stopped_panel(trace)


# Dark-theme-safe: a translucent red over either background keeps the text's own contrast.
_FLAG_STYLE = "background-color: rgba(255, 75, 75, 0.22)"


def step_table(trace: Trace, *, key: str, selected: int, slider: str) -> None:
    """The rows, the first failing one and each that lost data flagged and tinted, the stepper
    `slider`'s row selected; clicking a row selects it in the stepper."""
    flags = row_flags(trace)
    frame = pd.DataFrame(trace.rows())
    frame.insert(0, "flag", flags)
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
        column_order=step_columns(frame),
        column_config=STEP_COLUMNS,
        row_height=STEP_ROW_HEIGHT,
    )


# Streamlit wraps a cell's text only in rows taller than 4rem (64 px): 82 px holds four
# lines: "amount: greater_than_equal" needs all four in the 72 px check column.
STEP_ROW_HEIGHT = 82
# The columns that say what happened at each row, in this order, at one set of widths for
# every screen (the server cannot know the screen's width): step, node, check, flag and
# blame sum to 322 px, inside a 390 px phone's 356 px grid after the row's checkbox (the
# 1400 px widths, 490 px, cut flag and hid blame there). Flag is wide enough for "first
# failure" on one line: the grid's wrapping measures only a guessed prefix of a text and,
# after some runs (negative_amount), drew narrow letters on one line, cut. The identifiers
# in node and check wrap (STEP_ROW_HEIGHT), a long one mid-word; so does the error, cut at
# the row's foot: the selected row's detail beside (on a phone: under) the table holds it
# whole. At 1400 px every column is inside the table (#32 item 8): the run's table (554 px
# of grid, 34 of them the checkbox) and each of the fork's two (460 px). What the state holds
# after the step (status, logs, messages, changed fields, reducers) is not a column: those
# ran past the table's edge, read by scrolling sideways; the row's panels below (the merge,
# the whole state) and the CSV export hold them. Every trace table uses these (the fork's
# two, the Retry lab's), without flag where it has none.
STEP_COLUMNS = {
    "step": st.column_config.NumberColumn("step", width=34),
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
    "error": st.column_config.TextColumn("error", width=180),
}


def step_columns(frame: pd.DataFrame) -> list[str]:
    """The columns a trace table shows, in order: STEP_COLUMNS that `frame` has (a native
    run blames nobody, a fork's tables flag nothing)."""
    return [name for name in STEP_COLUMNS if name in frame.columns]


def _pick(table_key: str, slider: str, selected: int) -> None:
    rows = st.session_state[table_key]["selection"]["rows"]
    st.session_state[slider] = rows[0] if rows else selected
