"""Trace share links: `?s=` parsed by `TraceLink` on the way in; settings, step, fork out."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.errors import ErrorCode
from core.links.trace import Fork, TraceLink
from ui import keys
from ui.editor.payload import set_payload_text
from ui.share import name_dropped, share_button, shared_state, shown_link
from ui.trace.fork import fork_share

__all__ = ["restore_trace_share", "select_shared_step", "share_section"]

_SHOWN_IDS, _ID_CHARS = 20, 80  # unknown fault ids echoed back, bounded: a link can be 64 kB


def restore_trace_share(
    graphs: dict[str, str], modes: dict[str, str], faults: dict[str, str]
) -> int | None:
    """Apply a Trace `?s=` token to the widget state; the step to select after its run.

    Returns None when there is no new token for this page, or when the link was made before
    any run (`ran` false): its settings are applied and nothing runs. `graph` and `mode` must
    be strings among `graphs` / `modes`, `faults` a list of strings, `payload` a string,
    `options` the seed model's schema options, `step` a row number, `fork` a row number with
    the edited state's text (kept as `trace_fork_request`, forked again after the run) and
    `edit` the same for an edit not forked (`trace_edit_request`), `run_anyway` true when the
    shared run went past our gate's refusal (`trace_run_anyway_request`), `guard` true when it
    ran through the guard (the Guard switch); any other field value is
    dropped with one warning naming the fields (never their values) and the default is used
    instead.

    Example:
        step = restore_trace_share(GRAPHS, MODES, FAULTS)  # before the widgets render
        if st.button("Run", key="run") or step is not None: ...
    """
    state = shared_state("trace")
    if state is None:
        return None
    if state.get("graph") == "project" and "project" not in graphs:
        st.warning(
            f"[{ErrorCode.SHARE_NO_PROJECT}] "
            "The share link runs the server's own graph, but this server has "
            "no project graph configured, so the first graph listed is used. Configure one with "
            "--graph, playground.toml or PLAYGROUND_GRAPH, or pick a graph below."
        )
        state = {k: v for k, v in state.items() if k != "graph"}
    link, dropped = TraceLink.parse(state, {"graphs": graphs})
    if link.payload is not None:
        set_payload_text(link.payload)
    st.session_state[keys.TRACE_GRAPH] = link.graph or next(iter(graphs))
    st.session_state[keys.TRACE_MODE] = link.mode if link.mode in modes else next(iter(modes))
    st.session_state[keys.TRACE_FAULTS] = _faults(link.faults, faults)
    st.session_state[keys.TRACE_GUARD] = link.guard
    if link.options is not None:  # the seed state model's schema options (the Validate page's)
        st.session_state[keys.SCHEMA_OPTIONS] = link.options.to_dict()
    if link.run_anyway and link.ran:  # the shared run passed our refusing gate
        st.session_state[keys.TRACE_RUN_ANYWAY_REQUEST] = True
    for name in ("fork", "edit"):  # forked again, or put back in the editor, after the run
        value: Fork | None = getattr(link, name)
        if value is not None and link.ran:
            st.session_state[keys.TRACE_REQUESTS[name]] = value.model_dump()
    name_dropped(dropped)
    return link.step if link.ran else None


def _faults(value: list[str], known: dict[str, str]) -> list[str]:
    unknown = [fault for fault in value if fault not in known]
    if unknown:
        st.error(
            f"[{ErrorCode.UNKNOWN_FAULT}] "
            "The share link names fault ids this version does not define; "
            "they were left out. Pick faults from the list instead."
        )
        st.code(
            ", ".join(fault[:_ID_CHARS] for fault in unknown[:_SHOWN_IDS]),
            language=None,
            wrap_lines=True,
        )
    return [fault for fault in value if fault in known]


def select_shared_step(result: dict[str, Any], step: int) -> None:
    """Select the shared link's row in a fresh run (a run without that row says so)."""
    trace = result.get("trace")
    if trace is None or not trace.steps:  # no rows: the gate's table is the run
        return
    if step < len(trace.steps):
        st.session_state[keys.STEP_SLIDER] = step
        return
    st.warning(
        f"[{ErrorCode.SHARE_STEP}] "
        "The share link selects a row this run does not have (the payload or "
        "graph differs from the shared run); the first row is shown."
    )


def share_section(result: dict[str, Any]) -> None:
    """Exports of the shown run, and a share link reopening exactly what is on screen.

    Only after a run (before it there is nothing to export or share); after a run that did not
    parse, the link carries the run's settings alone. Links made before any run by earlier
    versions (`ran: false`) still open: `restore_trace_share` applies their settings.
    """
    st.subheader("Export and share")
    json_col, csv_col, share_col = st.columns(3)
    trace = result.get("trace")
    state = result["settings"]
    if trace is not None and trace.gate_errors and trace.ran:
        state = state | {"run_anyway": True}
    if trace is not None:
        json_col.download_button(
            "Trace (JSON)", trace.to_json, "trace.json", "application/json", key=keys.EXPORT_JSON
        )
        csv_col.download_button(
            "Trace (CSV)", trace.to_csv, "trace.csv", "text/csv", key=keys.EXPORT_CSV
        )
        if trace.steps:
            step = st.session_state.get(keys.STEP_SLIDER, 0)
            state = state | {"step": step} | fork_share(trace, step)
    with share_col:
        share_button("trace", shown_link(TraceLink, **state), key=keys.SHARE)
