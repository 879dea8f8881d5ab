"""The Trace page's Guard panel: where core.guard's GuardedSaver stopped the run (the step,
the node, the errors of its own InvalidStateError) and the thread read back after it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from core.guard.traced import GuardedRun, HistoryRead
from core.jsontext.paths import format_path
from core.trace.reducers import dump_json
from core.words import count
from ui import keys
from ui.errors.view import MESSAGE_ROW_HEIGHT
from ui.text import plain
from ui.trace_table import shown_rows

__all__ = ["guard_panel"]


def guard_panel(guarded: GuardedRun) -> None:
    """What the guard did with this run, in its own box (`.st-key-trace_guard_panel`)."""
    if guarded.history is None:  # nothing reached LangGraph: nothing was stored
        return
    with st.container(key=keys.TRACE_GUARD_PANEL, border=True):
        st.markdown("**Guard** — the run stored its checkpoints through GuardedSaver")
        refusal = guarded.refusal
        if refusal is None:
            st.success("The guard stored every state of this run: the model accepts each one.")
        else:
            at = "" if refusal.step is None else f" at step {refusal.step}"
            if refusal.step == -1:  # LangGraph's number for the checkpoint of the run's input
                at += " (the run's input)"
            by = f", written by {', '.join(refusal.nodes)}" if refusal.nodes else ""
            st.error(
                plain(
                    f"In production the guard stops this run{at}{by}: that state fails "
                    f"{refusal.model}, and nothing of it is stored."
                )
            )
            rows = shown_rows(
                [
                    {
                        "path": format_path(error["loc"]),
                        "message": str(error["msg"]),
                        "type": str(error["type"]),
                        "input": dump_json(error.get("input")),
                    }
                    for error in refusal.errors
                ]
            )
            st.dataframe(
                pd.DataFrame(rows),
                key=keys.part(keys.TRACE_GUARD_PANEL, "errors"),
                hide_index=True,
                row_height=MESSAGE_ROW_HEIGHT,
            )
            _langgraph_first(guarded)
            with st.expander("The guard's InvalidStateError, in full"):
                st.code(str(refusal), language=None, wrap_lines=True)
        _history_line(guarded.history)


def _langgraph_first(guarded: GuardedRun) -> None:
    """LangGraph's own error came first: it builds the next node's input from the state in the
    main thread while the save runs in the background (its default "async" durability)."""
    trace = guarded.run.trace
    if trace is None or trace.error is None or trace.error.type == "InvalidStateError":
        return
    st.caption(
        f"Here LangGraph raised its own {plain(trace.error.type)} first (the run's error "
        'below): under its default durability, "async", it builds the next node\'s input '
        "while the guard checks the save in the background. Run the graph with "
        'durability="sync" to get InvalidStateError itself.'
    )


def _history_line(history: HistoryRead) -> None:
    if history.readable and not history.checkpoints:
        st.success(
            "The thread stays readable: get_state_history after the run read no checkpoint, "
            "as the guard stored none."
        )
        return
    if history.readable:
        steps = ", ".join(str(step) for step in history.steps)
        st.success(
            f"The thread stays readable: get_state_history after the run read "
            f"{count(history.checkpoints, 'checkpoint')} "
            f"({'step' if len(history.steps) == 1 else 'steps'} {steps})."
        )
        return
    st.error("The thread's history cannot be read: get_state_history raised")
    st.code(history.error or "", language=None, wrap_lines=True)
