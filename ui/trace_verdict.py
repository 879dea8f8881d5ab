"""A recorded run's verdict: one headline, and why LangGraph stopped (its words only)."""

from __future__ import annotations

import streamlit as st

from core.trace import Trace, TraceError
from core.trace.focus import headline, loss_notes
from core.validate.annotated import bounded_text
from ui.text import plain

__all__ = ["run_headline", "stopped_panel", "why_stopped"]


def run_headline(trace: Trace) -> None:
    """The run's one headline (plain text), then each data loss it does not name (LangGraph
    raises on none: an Overwrite that bypassed a reducer, a key the state does not declare)."""
    verdict = headline(trace)
    show = {"success": st.success, "warning": st.warning, "error": st.error}[verdict.level]
    # Only the success headline is a fixed sentence; the others quote names and values.
    show(verdict.text if verdict.level == "success" else plain(verdict.text))
    for note in loss_notes(trace):
        st.warning(plain(note))


def stopped_panel(trace: Trace) -> None:
    """What stopped the run: why (LangGraph's note; our reading of the writer only when
    checked), then its message."""
    error = trace.error
    if error is None:
        return
    st.caption(why_stopped(error, trace.options.check_each_step))
    st.caption(f"No node after step {error.step} ran: what it would have done is not shown.")
    st.code(bounded_text(error.message), language=None, wrap_lines=True)  # it may quote a value


def why_stopped(error: TraceError, checked: bool = True) -> str:
    """One sentence on what LangGraph's error means (a writer named only when `checked`)."""
    # Every claim about what LangGraph named is read from the error core.trace recorded:
    # `node` is set only when LangGraph attached a "Before/During task with name" note.
    # LangGraph native names no writer: which node wrote a value is our reading of the run.
    node, writers = plain(error.node), plain(error.writers) if checked else ""
    named = f"its note names {node}" if error.node else "LangGraph's error carries no node name"
    wrote = f"The write came from {writers}." if writers else ""
    if error.code == "input_invalid":
        reader = node if error.node else "the next node"
        return (
            f"Before running {reader}, LangGraph built {reader}'s input from the state with "
            f"your model, and the state failed it ({named}). {wrote}"
        ).rstrip()
    if error.code == "node_error":
        return f"{node} raised an exception; the state before it is shown in its row."
    if error.code == "concurrent_update":
        found = f"the writers, read from the checkpoint, were {writers}." if writers else ""
        return f"Nodes of one step wrote a field that has no reducer; {named}" + (
            f"; {found}" if found else "."
        )
    if error.code == "input_not_object":
        return (
            "LangGraph takes the graph's input as a dict of state keys and got another JSON "
            "value; send a JSON object."
        )
    if error.code == "invalid_update":
        return f"{node} returned something LangGraph cannot merge into the state; return a dict."
    if error.code == "recursion_limit":
        return "The run hit its recursion_limit (a bound we set explicitly)."
    if error.code == "trace_timeout":
        return "The run passed its wall-clock budget and was stopped between nodes."
    return f"The graph stopped with an error; {named}."
