"""A Trace page row's panels (the diagram, the node's input and update, the merge, the state)
and the run's output.

The run's table is ui/trace_table.py, its headline ui/trace_verdict.py (the Retry lab and the
Threads page use them too); the stepper and a row's detail are in ui/trace/stepping.py.
"""

from __future__ import annotations

import json

import pandas as pd
import streamlit as st

from core.trace import Trace
from core.trace.diagram import graph_dot
from core.trace.merge import merge_view, super_step, unwritten_defaults
from core.trace.reducers import dump_json
from core.validate.coercion import coercion_rows
from core.validate.report import Report, validate_value
from ui import keys
from ui.errors.state_table import STATE_ERROR_TABLE
from ui.tables import rows_in_view, wrapped_row_height
from ui.text import plain
from ui.trace.values import value_code
from ui.trace_table import shown_rows

__all__ = ["merge_row_height", "output_panel", "step_panels"]


MERGE_WIDTHS = {"field": 90, "before": 150, "update": 150, "reducer": 100, "after": 160, "why": 250}
MERGE_COLUMNS = {
    name: st.column_config.TextColumn(name, width=width) for name, width in MERGE_WIDTHS.items()
}


def merge_row_height(rows: list[dict[str, str]]) -> int:
    """The merge table's row height (`wrapped_row_height` at the merge columns' widths)."""
    return wrapped_row_height(rows, MERGE_WIDTHS)


# Rows that are writes, not node calls: their input panel says so instead of showing null.
_NOT_A_NODE = {
    "__start__": "None: no node ran; this row is LangGraph writing the payload to the state.",
    "update_state": "None: no node ran; this row is the fork writing your edit to the state.",
}


def step_panels(trace: Trace, index: int, *, key: str) -> None:
    """Diagram, node input, raw update, merge view and merged state for one row."""
    step = trace.steps[index]
    failed = [step.node] if step.error else []
    where = "the merged state after it" if step.committed else "the state before it (never merged)"
    st.caption(f"Step {step.step}, node {plain(step.node)}; the state shown is {where}.")
    # The diagram beside the node's input and update, as a debugger shows where it stopped
    # next to the values; on a phone the columns stack. Its heading takes the 28 px above
    # it where its toolbar is drawn on a hover (it covered the stepper's Next).
    if trace.graph is not None:
        graph_col, left, right = st.columns([2, 3, 3])
        graph_col.markdown("**Graph** — this row's node highlighted")
        graph_col.graphviz_chart(graph_dot(trace.graph, current=[step.node], failed=failed))
    else:
        left, right = st.columns(2)
    left.markdown("**Input** — the validated model the node was called with")
    if step.input is not None:  # a node of the graph ran (whatever it is named)
        value_code(left, step.input, key=keys.part(key, "input"), name="input")
    else:
        left.caption(
            _NOT_A_NODE.get(step.node, "None: LangGraph never called this node (see the error).")
        )
    right.markdown("**Update** — exactly what the node returned")
    value_code(right, step.update, key=keys.part(key, "update"), name="update")
    defaults = unwritten_defaults(trace, index)
    if defaults and step.input is not None:
        left.caption(
            plain(
                f"Never written to the state before this step: {', '.join(defaults)}. "
                "LangGraph's channel holds no value; the input model filled in its default, "
                "so the node sees it, and Merge shows it as (unset)."
            )
        )
    st.markdown("**Merge** — per written field: before, update, reducer, after, and why")
    peers = super_step(trace, index)
    if len(peers) > 1 and step.committed:
        st.caption(
            plain(
                f"Step {step.step} is one super-step: {', '.join(peers)} ran together and "
                "LangGraph merged all their writes at once, each field by its reducer. So "
                "after holds every node's write of the step, not only this node's."
            )
        )
    merges = shown_rows(merge_view(trace, index))
    if merges:
        row_height = merge_row_height(merges)
        st.dataframe(
            pd.DataFrame(merges),
            key=keys.part(key, "merge"),
            hide_index=True,
            # Widths that fit the page at 1400 px: with the why column at "large" after four
            # auto-sized JSON columns, the grid scrolled it out of view (issue 22, finding 3).
            column_config=MERGE_COLUMNS,
            row_height=row_height,
            # Every row in view up to eight (Streamlit's "auto" stops at about 400 px); more
            # scroll inside the table.
            height=rows_in_view(row_height, len(merges)),
        )
    else:
        st.caption("This node wrote nothing LangGraph merged.")
    if step.violations:  # checked mode only: LangGraph native checks nothing
        blame = plain(step.blame or "earlier")
        st.markdown(f"**Violations in the merged state** — blamed on: {blame}")
        rows = [error.to_row() for error in step.violations]
        st.dataframe(pd.DataFrame(rows), key=keys.part(key, "violations"), **STATE_ERROR_TABLE)
    with st.expander("Whole state at this step") as whole:
        value_code(whole, step.state, key=keys.part(key, "state"), name="state")


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
    value_code(left, trace.output, key=keys.part(key, "raw"), name="output")
    if schema is None:
        right.caption("The graph's output is not a Pydantic model: there is nothing to coerce.")
        return
    which = "state" if schema is trace.options.model else "output"
    name = plain(schema.__name__)
    right.markdown(f"**Validated with the {which} model** — {name}")
    right.caption(plain(f'{schema.__name__}(**output), as invoke(version="v2") builds it.'))
    if trace.output_model is None:
        report = validate_value(trace.output, schema)
        # A warning, as the headline: LangGraph finished; only the model refuses the value.
        right.warning(_invalid_output(trace, report, which))
        right.dataframe(
            pd.DataFrame(report.to_rows()), key=keys.part(key, "invalid"), **STATE_ERROR_TABLE
        )
        return
    value_code(right, trace.output_model, key=keys.part(key, "model"), name="validated output")
    rows = shown_rows([vars(row) for row in coercion_rows(raw, trace.output_model) if row.changed])
    st.markdown("**Differences** — raw value vs the validated model, leaf by leaf")
    st.dataframe(pd.DataFrame(rows), key=keys.part(key, "diff"), hide_index=True)


def _invalid_output(trace: Trace, report: Report, which: str) -> str:
    fields = {str(error.loc[0]) for error in report.errors if error.loc}
    writes = [s for s in trace.steps if s.committed and fields & set(s.changed)]
    if trace.error is not None or not writes:
        return f"The raw output does not validate with the {which} model."
    last = max(step.step for step in writes)
    names = ", ".join(sorted({step.node for step in writes if step.step == last}))
    after = any(step.step > last for step in trace.steps)
    if not trace.options.check_each_step:  # LangGraph native names no writer
        tail = "" if after else ": no node ran after the last write to the failing field(s)"
        return (
            "LangGraph finished without raising, yet the raw output does not validate with the "
            f"{which} model{tail}" + ("." if after else ", so LangGraph never rebuilt the model.")
        )
    tail = "." if after else ", and no node ran after it, so LangGraph never rebuilt the model."
    return (
        "LangGraph finished without raising, yet the raw output does not validate with the "
        f"{which} model: the last write to the failing field(s) came from {plain(names)} "
        f"(step {last}){tail}"
    )
