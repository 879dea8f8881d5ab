"""The Trace page's fork: edit the state after a step, run the rest of the graph from there."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.field_errors import place_in_text
from core.fork import ForkError, fork_trace
from core.payload import PayloadError, parse
from core.reducers import dump_json
from core.trace import Trace
from ui.text import plain
from ui.trace_view import trace_table

__all__ = ["fork_section", "fork_share", "open_shared_fork"]


def fork_section(trace: Trace, index: int, run: int) -> None:
    """The editor for the state after row `index`, the Fork button, and both runs side by side."""
    step = trace.steps[index]
    st.subheader("Fork from this step")
    marker = (run, index)
    shown = st.session_state.get("fork_for")
    forkable = _forkable(trace, index)
    if shown != marker:
        # Stepping away keeps an edit: each step of this run remembers its own text (saved
        # before an error row is shown, whose page has no editor to hold it).
        edits = st.session_state.setdefault("fork_edits", {})
        if shown is not None and shown[0] == run and "fork_text" in st.session_state:
            edits[shown] = st.session_state["fork_text"]
        st.session_state["fork_for"] = marker
        if forkable:
            st.session_state["fork_text"] = edits.get(marker, dump_json(step.state, indent=2))
        else:
            st.session_state.pop("fork_text", None)
    if not forkable:
        st.caption("Pick a row whose state LangGraph merged (not an error row) to fork from it.")
        return
    unedited = dump_json(step.state, indent=2)
    st.caption(
        f"Edit the state after step {step.step} ({plain(step.node)}); it is validated first, then "
        "written with update_state and the rest of the graph runs from there."
    )
    # persist_state: a visit to another page keeps the text (Streamlit drops the state of
    # widgets a page run does not draw, and `fork_for` would stop it being filled again).
    st.text_area("State (JSON)", key="fork_text", height=260, persist_state="session")
    if st.session_state["fork_text"] != unedited:
        st.caption("Edited: the edit stays with this step while you step through the run.")
    if st.button("Fork and re-run", key="fork"):
        error = _fork(trace, index, st.session_state["fork_text"])
        if error:
            st.error("The fork did not run; your edit is kept. Fix it as described:")
            st.code(error, language=None)
            return
    fork = st.session_state.get("trace_fork")
    if fork is not None:
        original, branch = st.columns(2)
        with original:
            st.markdown("**Original run**")
            trace_table(trace, key="fork_original")
        with branch:  # the step it was forked from, which need not be the step selected now
            source = trace.steps[st.session_state["trace_fork_source"]["row"]]
            st.markdown(f"**Forked branch**, from step {source.step} ({plain(source.node)})")
            trace_table(
                fork,
                key="fork_branch",
                fix="Fix the state in the editor and fork again.",
                checked="the edited state",
            )


def fork_share() -> dict[str, Any]:
    """The shown fork for a share link: its row and the edited state text ({} when none)."""
    if st.session_state.get("trace_fork") is None:
        return {}
    return {"fork": st.session_state["trace_fork_source"]}


def open_shared_fork(result: dict[str, Any], fork: dict[str, Any]) -> None:
    """Fork a link's fresh run again at the link's row with the link's edited state."""
    trace = result.get("trace")
    row, text = fork["row"], fork["state"]
    if trace is None or row >= len(trace.steps) or not _forkable(trace, row):
        st.warning(
            "[share_fork] The share link forks a row this run cannot fork from (the payload or "
            "graph differs from the shared run); the run is shown without the fork."
        )
        return
    # The editor shows the link's text at that row, whichever row the link selects.
    st.session_state.setdefault("fork_edits", {})[(result["run"], row)] = text
    error = _fork(trace, row, text)
    if error:
        st.warning(
            "[share_fork] The share link's fork did not run; its edit is in the editor at that "
            "row. Fix it there as described and fork again."
        )
        st.code(error, language=None)


def _forkable(trace: Trace, index: int) -> bool:
    step = trace.steps[index]
    return step.committed and step.node in trace.graph.nodes


def _fork(trace: Trace, index: int, text: str) -> str:
    """Run the fork and keep it for the page; the reason it did not run ("" when it did)."""
    step = trace.steps[index]
    try:
        fork = fork_trace(trace, step.step, parse(text))
    except (PayloadError, ForkError) as exc:
        return str(exc)
    # The edit was validated as parsed: its errors get their line:col in the editor's text.
    fork.gate_errors = place_in_text(fork.gate_errors, text)
    st.session_state["trace_fork"] = fork
    st.session_state["trace_fork_source"] = {"row": index, "state": text}
    return ""
