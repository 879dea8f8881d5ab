"""Stepping through a recorded run on the Trace page: the stepper over its rows, a row's detail."""

from __future__ import annotations

import streamlit as st

from core.trace import Trace
from core.trace.loss import row_losses
from core.trace.merge import super_step
from core.trace.reducers import dump_json
from core.words import count
from ui import keys
from ui.stepper import step_controls
from ui.tables import rows_in_view
from ui.text import plain
from ui.trace.values import bounded_text
from ui.trace_table import RUN_ROOM, fitted_steps, flagged_frame
from ui.trace_verdict import why_stopped

__all__ = ["DETAIL_HEIGHT", "current_row", "pair_height", "step_detail", "stepper"]

# The row's detail box at least this tall (px): a failure's sentence and its message in view
# without scrolling inside the box, for the seed graph's faults.
DETAIL_HEIGHT = 330


def current_row(trace: Trace, slider: str = keys.STEP_SLIDER) -> int:
    """The row the stepper `slider` selects (0 when it selects none of this trace's rows)."""
    current = st.session_state.get(slider, 0)
    if not isinstance(current, int) or not 0 <= current < len(trace.steps):
        current = st.session_state[slider] = 0
    return current


def pair_height(trace: Trace) -> int:
    """One height (px) for the run's table and the row's detail beside it, whichever row is
    selected: the table's at RUN_ROOM (its header and every row up to eight, as drawn) or
    DETAIL_HEIGHT.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> pair_height(run_trace(build_order_graph(), SEED_PAYLOAD))
        330
    """
    row = fitted_steps(flagged_frame(trace), RUN_ROOM)["row_height"]
    return max(rows_in_view(row, len(trace.steps)), DETAIL_HEIGHT)


def stepper(trace: Trace, *, slider: str = keys.STEP_SLIDER) -> int:
    """Prev / Next and a slider over the rows (keys `slider`, `keys.step_button(slider, ...)`).

    Never re-runs the graph. The slider's options are plain numbers ("row 2 of 3 · step 1"):
    a screen reader reads the label as it is, so it holds no Markdown escapes.
    """
    count = len(trace.steps)
    current_row(trace, slider)
    return step_controls(
        count,
        lambda i: f"row {i + 1} of {count} · step {trace.steps[i].step}",
        slider=slider,
        label="Row",
    )


def step_detail(trace: Trace, index: int) -> None:
    """Beside the table: what row `index` is, what the check found, what LangGraph raised."""
    step, checked = trace.steps[index], trace.options.check_each_step
    st.markdown(f"**Step {step.step} · {plain(step.node)}**")
    peers = super_step(trace, index)
    if len(peers) > 1:
        # A step that raised merged nothing (LangGraph applies a super-step's writes together
        # or not at all): its rows show the state before it, as the panels below say.
        outcome = (
            "merged all their writes, so each of their rows shows the same merged state"
            if step.committed
            else "the step raised, so nothing was merged; each of their rows shows the state "
            "before the step"
        )
        st.caption(
            plain(
                f"One super-step of {count(len(peers), 'node')} ({', '.join(peers)}): LangGraph "
                f"ran them together and {outcome}."
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
            bounded_text(
                "\n".join(
                    f"{e.path}: {e.type} — {e.msg} (input {dump_json(e.input)})"
                    for e in step.violations
                )
            ),
            language=None,
            wrap_lines=True,
        )
    else:
        st.caption("✓ The merged state is valid.")
    if step.error:
        st.code(bounded_text(step.error), language=None, wrap_lines=True)
    elif trace.error is not None and index == len(trace.steps) - 1:
        st.caption(
            f"LangGraph raised after this row, at step {trace.error.step} [{trace.error.code}]:"
        )
        st.code(bounded_text(trace.error.message), language=None, wrap_lines=True)
    if trace.error is not None and (step.error or index == len(trace.steps) - 1):
        st.caption(why_stopped(trace.error, checked))
