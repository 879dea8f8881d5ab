"""Stepping through a recorded run: the selectable table, Prev / Next and slider, a row's detail."""

from __future__ import annotations

import functools
from collections.abc import Callable

import pandas as pd
import streamlit as st

from core.trace import Trace
from core.trace.focus import row_flags
from core.trace.loss import row_losses
from core.trace.merge import super_step
from core.trace.reducers import dump_json
from ui import keys
from ui.text import plain
from ui.trace.verdict import why_stopped

__all__ = [
    "STEP_COLUMNS",
    "STEP_ROW_HEIGHT",
    "current_row",
    "move_step",
    "step_controls",
    "step_detail",
    "step_columns",
    "step_table",
    "stepper",
]


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


def move_step(delta: int, last: int, slider: str = keys.STEP_SLIDER) -> None:
    """Prev/Next callback: the stepper `slider` moves by `delta` rows within 0..last."""
    current = st.session_state.get(slider, 0)
    st.session_state[slider] = min(max(current + delta, 0), last)


def current_row(trace: Trace, slider: str = keys.STEP_SLIDER) -> int:
    """The row the stepper `slider` selects (0 when it selects none of this trace's rows)."""
    current = st.session_state.get(slider, 0)
    if not isinstance(current, int) or not 0 <= current < len(trace.steps):
        current = st.session_state[slider] = 0
    return current


def stepper(trace: Trace, *, slider: str = keys.STEP_SLIDER, prefix: str = "") -> int:
    """Prev / Next and a slider over the rows (keys `slider`, `{prefix}prev`, `{prefix}next`).

    Never re-runs the graph. The slider's options are plain numbers ("row 2 of 3 · step 1"):
    a screen reader reads the label as it is, so it holds no Markdown escapes.
    """
    count = len(trace.steps)
    current_row(trace, slider)
    return step_controls(
        count,
        lambda i: f"row {i + 1} of {count} · step {trace.steps[i].step}",
        slider=slider,
        prefix=prefix,
        label="Row",
    )


def step_controls(
    count: int, option: Callable[[int], str], *, slider: str, prefix: str, label: str
) -> int:
    """The stepper itself, for any `count` rows (a trace's steps, a stored thread's
    checkpoints): Prev / Next side by side, then a slider whose option `i` reads `option(i)`.
    Returns the chosen row; `slider` must already hold a row in 0..count-1 (or nothing)."""
    last = count - 1
    current = st.session_state.get(slider, 0)
    # One row: the buttons stay side by side even on a phone, where st.columns would stack
    # them above and below the slider; the slider wraps under them when the row is narrow.
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        # The buttons in a row of their own, which never wraps: only the slider moves under
        # them when the screen is narrow.
        with st.container(horizontal=True, width="content", gap="small"):
            st.button(
                "◀ Prev",
                key=keys.step_button(prefix, "prev"),
                on_click=move_step,
                args=(-1, last, slider),
                disabled=current <= 0,
                help="The previous row",
            )
            st.button(
                "Next ▶",
                key=keys.step_button(prefix, "next"),
                on_click=move_step,
                args=(1, last, slider),
                disabled=current >= last,
                help="The next row",
            )
        chosen: int = st.select_slider(
            label,
            options=list(range(count)),
            format_func=option,
            key=slider,
            persist_state="session",
            label_visibility="collapsed",
            width="stretch",
        )
        return chosen


def step_detail(trace: Trace, index: int) -> None:
    """Beside the table: what row `index` is, what the check found, what LangGraph raised."""
    step, checked = trace.steps[index], trace.options.check_each_step
    st.markdown(f"**Step {step.step} · {plain(step.node)}**")
    peers = super_step(trace, index)
    if len(peers) > 1:
        st.caption(
            plain(
                f"One super-step of {len(peers)} nodes ({', '.join(peers)}): LangGraph ran them "
                "together and merged all their writes, so each of their rows shows the same "
                "merged state."
            )
        )
    lost = row_losses(trace, index)
    if lost:  # LangGraph raised nothing: the detail says what was there and what remains
        st.warning("LangGraph lost data at this step without raising:")
        st.code(
            "\n".join(f"{loss.field}: {loss.why()}" for loss in lost),
            language=None,
            wrap_lines=True,
        )
    if not step.committed:
        st.error("LangGraph never merged this step: it raised.")
    elif not checked:
        st.caption("LangGraph native: the state is not checked against the model.")
    elif step.violations:
        who = f"blamed on {step.blame}" if step.blame else "already broken by an earlier step"
        st.warning(plain(f"The merged state breaks the model ({who})."))
        st.code(
            "\n".join(
                f"{e.path}: {e.type} — {e.msg} (input {dump_json(e.input)})"
                for e in step.violations
            ),
            language=None,
            wrap_lines=True,
        )
    else:
        st.caption("✓ The merged state is valid.")
    if step.error:
        st.code(step.error, language=None, wrap_lines=True)
    elif trace.error is not None and index == len(trace.steps) - 1:
        st.caption(
            f"LangGraph raised after this row, at step {trace.error.step} [{trace.error.code}]:"
        )
        st.code(trace.error.message, language=None, wrap_lines=True)
    if trace.error is not None and (step.error or index == len(trace.steps) - 1):
        st.caption(why_stopped(trace.error, checked))
