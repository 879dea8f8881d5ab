"""The Trace page's fork: edit the state after a step, run the rest of the graph from there."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.errors import ErrorCode
from core.jsontext.payload import PayloadError, parse
from core.trace import Trace
from core.trace.focus import opened_row
from core.trace.fork import ForkError, edit_errors, fork_diff, fork_trace
from core.trace.reducers import dump_json
from ui import keys
from ui.editor.json_editor import Mark
from ui.editor.payload import editor_text, payload_editor, set_payload_text
from ui.tables import rows_in_view, wrapped_row_height
from ui.text import plain
from ui.trace.stepping import step_detail, stepper
from ui.trace.view import step_panels
from ui.trace_table import shown_rows, trace_table

__all__ = ["fork_section", "fork_share", "forget_forks", "open_shared_forks"]

_EMPTY_STATE = "The state is empty: paste a JSON object, or press Reset for this step's state."
_CANNOT_OPEN = {  # a link's fork or edit for a row its fresh run cannot fork from
    "fork": f"[{ErrorCode.SHARE_FORK}] "
    "The share link forks a row this run cannot fork from (the payload or "
    "graph differs from the shared run); the run is shown without the fork.",
    "edit": f"[{ErrorCode.SHARE_EDIT}] "
    "The share link holds an edited state for a row this run cannot fork "
    "from (the payload or graph differs from the shared run); the edit is left out.",
}


# The edit's diff at widths that fit the page at 1400 px (938 px of grid): a long value
# wraps inside its column (rows as tall as it needs), not drawn past the table's edge.
_DIFF_WIDTHS = {"path": 150, "original": 370, "edited": 370}
_DIFF_COLUMNS = {
    name: st.column_config.TextColumn(name, width=width) for name, width in _DIFF_WIDTHS.items()
}


def fork_section(trace: Trace, index: int, run: int) -> None:
    """The editor for the state after row `index`, the Fork button, and both runs side by side."""
    step = trace.steps[index]
    st.subheader("Fork from this step")
    marker = (run, index)
    shown = st.session_state.get(keys.FORK_FOR)
    forkable = _forkable(trace, index)
    if shown != marker:
        # Stepping away keeps an edit: each step of this run remembers its own text (saved
        # before an error row is shown, whose page has no editor to hold it).
        edits = st.session_state.setdefault(keys.FORK_EDITS, {})
        if shown is not None and shown[0] == run and keys.FORK_TEXT in st.session_state:
            edits[shown] = st.session_state[keys.FORK_TEXT]
        st.session_state[keys.FORK_FOR] = marker
        if forkable:  # the editor's last typing belonged to the row shown before
            set_payload_text(edits.get(marker, dump_json(step.state, indent=2)), key=keys.FORK_TEXT)
        else:
            st.session_state.pop(keys.FORK_TEXT, None)
    if not forkable:
        st.caption("Pick a row whose state LangGraph merged (not an error row) to fork from it.")
        return
    unedited = dump_json(step.state, indent=2)
    st.caption(
        f"Edit the state after step {step.step} ({plain(step.node)}); it is validated first, then "
        "written with update_state and the rest of the graph runs from there."
    )
    # The text is plain session state under FORK_TEXT (not the widget's): a visit to another
    # page keeps it. Checked as typed, so each error is marked where it is before Fork is pressed.
    marks = [
        Mark(*where)
        for where in edit_errors(editor_text(keys.FORK_TEXT, unedited), trace.options.model)
    ]
    text = payload_editor(keys.FORK_TEXT, unedited, marks=marks, height=260, label="State (JSON)")
    if text != unedited:
        st.caption("Edited: the edit stays with this step while you step through the run.")
    if st.button("Fork and re-run", key=keys.FORK, type="primary"):
        _fork(trace, index, text)
    # A failed fork's reason stays while the editor holds the text that failed.
    source = st.session_state.get(keys.TRACE_FORK_SOURCE)
    error = st.session_state.get(keys.TRACE_FORK_ERROR)
    if error and source == {"row": index, "state": st.session_state[keys.FORK_TEXT]}:
        st.error("The fork did not run; your edit is kept. Fix it as described:")
        st.code(error, language=None, wrap_lines=True)  # its fix is at the end
    fork = st.session_state.get(keys.TRACE_FORK)
    if fork is not None:
        _branch(trace, fork)


def _branch(trace: Trace, fork: Trace) -> None:
    """The forked branch: what the edit changed, both runs side by side, then its own stepper."""
    source = st.session_state[keys.TRACE_FORK_SOURCE]
    # The step it was forked from, which need not be the step selected now.
    step = trace.steps[source["row"]]
    st.markdown(f"**Forked branch**, from step {step.step} ({plain(step.node)})")
    diff = shown_rows(fork_diff(step.state, parse(source["state"])))  # it ran: its text parses
    if diff:
        st.caption("Edited fields — the state after that step, and your edit:")
        with st.container(key=keys.FORK_DIFF):
            row_height = wrapped_row_height(diff, _DIFF_WIDTHS)
            st.dataframe(
                pd.DataFrame(diff),
                key=keys.table(keys.FORK_DIFF),
                hide_index=True,
                column_config=_DIFF_COLUMNS,
                row_height=row_height,
                height=rows_in_view(row_height, len(diff)),  # up to eight rows in view
            )
    else:
        st.caption("Nothing edited: the branch re-runs the same state from that step.")
    original, branch = st.columns(2)
    with original:
        st.markdown("**Original run**")
        trace_table(trace, key=keys.FORK_ORIGINAL)
    with branch:
        st.markdown("**Forked branch**")
        trace_table(
            fork,
            key=keys.FORK_BRANCH,
            fix="Fix the state in the editor and fork again.",
            checked="the edited state",
        )
    if not fork.steps:
        return
    st.markdown("**Step through the forked branch**")
    index = stepper(fork, slider=keys.FORK_STEP_SLIDER)
    with st.container(key=keys.FORK_DETAIL):
        step_detail(fork, index)
    step_panels(fork, index, key=keys.FORK_STEP)


def fork_share(trace: Trace, index: int) -> dict[str, Any]:
    """What the fork section shows, for a share link ({} when nothing is edited or forked).

    `fork`: the row and text of the last fork, run or refused (a link forks it again, so a
    refusal reads the same). `edit`: the editor's text at row `index`, when it is not what
    the link would put there anyway (the step's state, or the fork's text at its row).
    """
    shared: dict[str, Any] = {}
    source = st.session_state.get(keys.TRACE_FORK_SOURCE)
    if source is not None:
        shared["fork"] = source
    text = st.session_state.get(keys.FORK_TEXT)
    edit = {"row": index, "state": text}
    # At the fork's own row the link's fork fills the editor: any other text there is sent.
    at_fork = source is not None and source["row"] == index
    if (
        isinstance(text, str)
        and _forkable(trace, index)
        and (at_fork or text != dump_json(trace.steps[index].state, indent=2))
        and edit != source
    ):
        shared["edit"] = edit
    return shared


def open_shared_forks(result: dict[str, Any]) -> None:
    """Apply a link's fork (forked again) and edit (put back in the editor) to its fresh run.

    Both come from `restore_trace_share` as `trace_fork_request` / `trace_edit_request`.
    """
    trace = result.get("trace")
    for name in ("fork", "edit"):  # the edit last: its row may be the fork's
        request = st.session_state.pop(keys.TRACE_REQUESTS[name], None)
        if request is None:
            continue
        row, text = request["row"], request["state"]
        if trace is None or row >= len(trace.steps) or not _forkable(trace, row):
            st.warning(_CANNOT_OPEN[name])
            continue
        # The editor shows the link's text at that row, whichever row the link selects.
        st.session_state.setdefault(keys.FORK_EDITS, {})[(result["run"], row)] = text
        if name == "fork":  # refused again, its reason shows under the editor at that row
            _fork(trace, row, text)


def forget_forks() -> None:
    """Drop the forks, refusals and edits of the last run: they belong to the run they were
    made on."""
    for key in (
        keys.TRACE_FORK,
        keys.TRACE_FORK_SOURCE,
        keys.TRACE_FORK_ERROR,
        keys.FORK_EDITS,
        keys.FORK_STEP_SLIDER,
    ):
        st.session_state.pop(key, None)


def _forkable(trace: Trace, index: int) -> bool:
    step = trace.steps[index]
    return step.committed and trace.graph is not None and step.node in trace.graph.nodes


def _fork(trace: Trace, index: int, text: str) -> None:
    """Run the fork and keep it for the page, or keep the reason it did not run."""
    step = trace.steps[index]
    st.session_state[keys.TRACE_FORK_SOURCE] = {"row": index, "state": text}
    try:
        fork = fork_trace(trace, step.step, parse(text), text=text)
    except (PayloadError, ForkError) as exc:
        # No branch for this edit, so none is shown: an older one beside it would look like its.
        st.session_state.pop(keys.TRACE_FORK, None)
        st.session_state[keys.TRACE_FORK_ERROR] = _state_error(exc)
        return
    st.session_state[keys.TRACE_FORK] = fork
    st.session_state.pop(keys.TRACE_FORK_ERROR, None)
    # The branch opens where it went wrong, as a run does.
    st.session_state[keys.FORK_STEP_SLIDER] = opened_row(fork) or 0


def _state_error(exc: PayloadError | ForkError) -> str:
    if isinstance(exc, PayloadError) and exc.code == ErrorCode.EMPTY:  # its fix names Reset
        exc = PayloadError(_EMPTY_STATE, exc.line, exc.col, code=ErrorCode.EMPTY)
    return str(exc)
