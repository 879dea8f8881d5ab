"""Trace building blocks: the trace table, the stepper, the diagram and the per-step panels."""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from core.jsontext.write import plural
from core.trace import Trace, TraceError
from core.trace.diagram import graph_dot
from core.trace.reducers import DROPPED, dump_json
from core.validate.coercion import coercion_rows
from core.validate.report import Report, validate_value
from ui import keys
from ui.errors import COLUMN_ORDER, ERROR_COLUMNS
from ui.text import plain

__all__ = ["error_panel", "output_panel", "step_panels", "stepper", "trace_table"]


def trace_table(trace: Trace, *, key: str, fix: str = "", checked: str = "the payload") -> None:
    """The node trace table (or the gate errors when the graph did not run), then the error.

    Reusable by any page that records a LangGraph run with `core.trace.run_trace`; `fix`
    (fixed text) says where the input can be fixed, `checked` names what the gate checked.
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
            key=f"{key}__gate",
            hide_index=True,
            column_config=ERROR_COLUMNS,
            column_order=COLUMN_ORDER,
        )
        if not trace.ran:
            return
    st.dataframe(
        pd.DataFrame(trace.rows()),
        key=f"{key}__table",
        hide_index=True,
        column_config={"check": st.column_config.TextColumn("check", width="medium")},
    )
    error_panel(trace)


def error_panel(trace: Trace) -> None:
    """What stopped the run (LangGraph's words, the node(s) responsible) and what checks found."""
    flagged = next((step for step in trace.steps if step.violations), None)
    error = trace.error
    if error is None:
        st.success("LangGraph finished the run without raising.")
    if flagged is not None:
        st.warning(
            f"Check every step: the merged state first broke the model at step {flagged.step}, "
            f"blamed on {plain(flagged.blame or 'an earlier step')} — LangGraph itself does not "
            "check it."
        )
    for step in trace.steps:  # LangGraph discards these writes without a word
        dropped = [name for name, reducer in step.reducers.items() if reducer == DROPPED]
        if dropped:
            st.warning(
                f"Step {step.step}: {plain(step.node)} wrote {plain(', '.join(dropped))}, which "
                "the state does not declare; LangGraph dropped the write silently."
            )
    if error is None:
        return
    st.error(f"Run stopped at step {error.step} [{error.code}] — {plain(error.type)}")
    st.caption(_why(error))
    st.caption(f"No node after step {error.step} ran: what it would have done is not shown.")
    st.code(error.message, language=None, wrap_lines=True)


def _why(error: TraceError) -> str:
    # Every claim about what LangGraph named is read from the error core.trace recorded:
    # `node` is set only when LangGraph attached a "Before/During task with name" note.
    node, writers = plain(error.node), plain(error.writers)
    named = f"its note names {node}" if error.node else "LangGraph's error carries no node name"
    wrote = f"The write came from {writers}." if error.writers else "No recorded write matches."
    if error.code == "input_invalid":
        return (
            f"LangGraph rebuilt the state model before calling {node} and it failed: {named}, "
            f"the reader. {wrote}"
        )
    if error.code == "node_error":
        return f"{node} raised an exception; the state before it is shown in its row."
    if error.code == "concurrent_update":
        found = f"the writers, read from the checkpoint, were {writers}." if error.writers else ""
        return f"Nodes of one step wrote a field that has no reducer; {named}; {found or wrote}"
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


def _move(delta: int, last: int) -> None:
    current = st.session_state.get(keys.STEP_SLIDER, 0)
    st.session_state[keys.STEP_SLIDER] = min(max(current + delta, 0), last)


def stepper(trace: Trace) -> int:
    """Slider plus Prev / Next over the rows (keys step_slider, prev, next); never re-runs."""
    last = len(trace.steps) - 1
    if st.session_state.get(keys.STEP_SLIDER, 0) > last:
        st.session_state[keys.STEP_SLIDER] = 0
    left, middle, right = st.columns([1, 8, 1], vertical_alignment="bottom")
    current = st.session_state.get(keys.STEP_SLIDER, 0)
    left.button("◀ Prev", key="prev", on_click=_move, args=(-1, last), disabled=current <= 0)
    right.button("Next ▶", key="next", on_click=_move, args=(1, last), disabled=current >= last)
    with middle:
        # The thumb draws its option label as Markdown: node names come from any graph.
        return st.select_slider(
            "Step",
            options=list(range(last + 1)),
            format_func=lambda i: f"{trace.steps[i].step} · {plain(trace.steps[i].node)}",
            key=keys.STEP_SLIDER,
            persist_state="session",
        )


# Rows that are writes, not node calls: their input panel says so instead of showing null.
_NOT_A_NODE = {
    "__start__": "None: no node ran; this row is LangGraph writing the payload to the state.",
    "update_state": "None: no node ran; this row is the fork writing your edit to the state.",
}


def step_panels(trace: Trace, index: int, *, key: str) -> None:
    """Diagram, node input, raw update, merge view and merged state for one row."""
    step = trace.steps[index]
    failed = [step.node] if step.error else []
    if trace.graph is not None:
        st.graphviz_chart(graph_dot(trace.graph, current=[step.node], failed=failed))
    where = "the merged state after it" if step.committed else "the state before it (never merged)"
    st.caption(f"Step {step.step}, node {plain(step.node)}; the state shown is {where}.")
    left, right = st.columns(2)
    left.markdown("**Input** — the validated model the node was called with")
    if step.input is not None:  # a node of the graph ran (whatever it is named)
        left.code(dump_json(step.input, indent=2), language="json")
    else:
        left.caption(
            _NOT_A_NODE.get(step.node, "None: LangGraph never called this node (see the error).")
        )
    right.markdown("**Update** — exactly what the node returned")
    right.code(dump_json(step.update, indent=2), language="json")
    st.markdown("**Merge** — per written field: before, update, reducer, after")
    merges = step.merges()
    if merges:
        st.dataframe(pd.DataFrame(merges), key=f"{key}__merge", hide_index=True)
    else:
        st.caption("This node wrote nothing LangGraph merged.")
    if step.violations:
        blame = plain(step.blame or "earlier")
        st.markdown(f"**Violations in the merged state** — blamed on: {blame}")
        rows = [error.to_row() for error in step.violations]
        st.dataframe(
            pd.DataFrame(rows),
            key=f"{key}__violations",
            hide_index=True,
            column_config=ERROR_COLUMNS,
            column_order=[c for c in COLUMN_ORDER if c != "line:col"],  # a state has no text
        )
    with st.expander("Whole state at this step"):
        st.code(dump_json(step.state, indent=2), language="json")


def output_panel(trace: Trace, *, key: str) -> None:
    """What `invoke` returns next to the same value built into the graph's output model."""
    if trace.output is None:
        reason = "the run raised (see the error above)" if trace.error else "no state was streamed"
        st.caption(f"There is no output: {reason}.")
        return
    raw = json.loads(dump_json(trace.output))
    schema = trace.output_schema
    left, right = st.columns(2)
    left.markdown("**invoke() returns** — raw channel values, defaults never written missing")
    left.code(dump_json(trace.output, indent=2), language="json")
    if schema is None:
        right.caption("The graph's output is not a Pydantic model: there is nothing to coerce.")
        return
    which = "state" if schema is trace.options.model else "output"
    name = plain(schema.__name__)
    right.markdown(f"**Validated with the {which} model** — {name}")
    right.caption(plain(f'{schema.__name__}(**output), as invoke(version="v2") builds it.'))
    if trace.output_model is None:
        report = validate_value(trace.output, schema)
        right.error(_invalid_output(trace, report, which))
        right.dataframe(pd.DataFrame(report.to_rows()), key=f"{key}__invalid", hide_index=True)
        return
    right.code(dump_json(trace.output_model, indent=2), language="json")
    rows = [vars(row) for row in coercion_rows(raw, trace.output_model) if row.changed]
    st.markdown("**Differences** — raw value vs the validated model, leaf by leaf")
    st.dataframe(pd.DataFrame(rows), key=f"{key}__diff", hide_index=True)


def _invalid_output(trace: Trace, report: Report, which: str) -> str:
    fields = {str(error.loc[0]) for error in report.errors if error.loc}
    writes = [s for s in trace.steps if s.committed and fields & set(s.changed)]
    if trace.error is not None or not writes:
        return f"The raw output does not validate with the {which} model."
    last = max(step.step for step in writes)
    names = ", ".join(sorted({step.node for step in writes if step.step == last}))
    after = any(step.step > last for step in trace.steps)
    tail = "." if after else ", and no node ran after it, so LangGraph never rebuilt the model."
    return (
        "LangGraph finished without raising, yet the raw output does not validate with the "
        f"{which} model: the last write to the failing field(s) came from {plain(names)} "
        f"(step {last}){tail}"
    )
