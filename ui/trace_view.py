"""Trace building blocks: the trace table, the stepper, the diagram and the per-step panels."""

from __future__ import annotations

import functools
import json

import pandas as pd
import streamlit as st

from core.jsontext.write import plural
from core.trace import Trace, TraceError
from core.trace.diagram import graph_dot
from core.trace.focus import first_failure, headline
from core.trace.merge import merge_view, super_step, unwritten_defaults
from core.trace.reducers import DROPPED, dump_json
from core.validate.coercion import coercion_rows
from core.validate.report import Report, validate_value
from ui import keys
from ui.errors import COLUMN_ORDER, ERROR_COLUMNS
from ui.text import plain

__all__ = [
    "FLAG",
    "current_row",
    "error_panel",
    "output_panel",
    "run_headline",
    "step_detail",
    "step_panels",
    "stepper",
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
    With `slider` (the session key of a `stepper`), the row `selected` is selected, the first
    failing row is flagged, clicking a row selects it in the stepper, and the run's headline
    and error are left to the caller (`run_headline`, `step_detail`).
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
    if slider is None:
        st.dataframe(
            pd.DataFrame(trace.rows()),
            key=f"{key}__table",
            hide_index=True,
            column_config={"check": st.column_config.TextColumn("check", width="medium")},
        )
        error_panel(trace)
        return
    _step_table(trace, key=key, selected=selected or 0, slider=slider)


FLAG = "first failure"
# Dark-theme-safe: a translucent red over either background keeps the text's own contrast.
_FLAG_STYLE = "background-color: rgba(255, 75, 75, 0.22)"


def _step_table(trace: Trace, *, key: str, selected: int, slider: str) -> None:
    """The rows, the first failing one flagged and tinted, the stepper's row selected."""
    failing = first_failure(trace)
    frame = pd.DataFrame(trace.rows())
    frame.insert(0, "flag", [FLAG if i == failing else "" for i in range(len(frame))])
    # The key names the selected row: selecting another step draws the table with that row
    # selected (a selection's default applies only to a table drawn for the first time).
    table_key = f"{key}__table_{selected}"
    styled = frame.style.apply(
        lambda row: [_FLAG_STYLE if row.name == failing else ""] * len(row), axis=1
    )
    st.dataframe(
        styled,
        key=table_key,
        hide_index=True,
        on_select=functools.partial(_pick, table_key, slider, selected),
        selection_mode="single-row",
        selection_default={"selection": {"rows": [selected]}},
        column_order=_STEP_COLUMNS_FIRST
        + [c for c in frame.columns if c not in _STEP_COLUMNS_FIRST],
        column_config={
            "flag": st.column_config.TextColumn(
                "flag", width=110, help="The first row where the run went wrong."
            ),
            "check": st.column_config.TextColumn("check", width="medium"),
        },
    )


# On a narrow screen the columns that say what happened come first.
_STEP_COLUMNS_FIRST = ["flag", "step", "node", "check", "blame", "error"]


def _pick(table_key: str, slider: str, selected: int) -> None:
    rows = st.session_state[table_key]["selection"]["rows"]
    st.session_state[slider] = rows[0] if rows else selected


def run_headline(trace: Trace) -> None:
    """The run's one headline (plain text), and the writes LangGraph dropped without a word."""
    verdict = headline(trace)
    show = {"success": st.success, "warning": st.warning, "error": st.error}[verdict.level]
    show(plain(verdict.text))
    for step in trace.steps:  # LangGraph discards these writes without a word
        dropped = [name for name, reducer in step.reducers.items() if reducer == DROPPED]
        if dropped:
            st.warning(
                f"Step {step.step}: {plain(step.node)} wrote {plain(', '.join(dropped))}, which "
                "the state does not declare; LangGraph dropped the write silently."
            )


def error_panel(trace: Trace) -> None:
    """The run's headline, then what stopped it (LangGraph's words and, checked, who wrote it)."""
    run_headline(trace)
    _stopped(trace)


def _stopped(trace: Trace) -> None:
    error = trace.error
    if error is None:
        return
    st.caption(_why(error, trace.options.check_each_step))
    st.caption(f"No node after step {error.step} ran: what it would have done is not shown.")
    st.code(error.message, language=None, wrap_lines=True)


def _why(error: TraceError, checked: bool = True) -> str:
    # Every claim about what LangGraph named is read from the error core.trace recorded:
    # `node` is set only when LangGraph attached a "Before/During task with name" note.
    # LangGraph native names no writer: which node wrote a value is our reading of the run.
    node, writers = plain(error.node), plain(error.writers) if checked else ""
    named = f"its note names {node}" if error.node else "LangGraph's error carries no node name"
    wrote = f"The write came from {writers}." if writers else ""
    if error.code == "input_invalid":
        return (
            f"LangGraph rebuilt the state model before calling {node} and it failed: {named}, "
            f"the reader. {wrote}"
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


def _move(delta: int, last: int, slider: str = keys.STEP_SLIDER) -> None:
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
    last = len(trace.steps) - 1
    current = current_row(trace, slider)
    # One row: the buttons stay side by side even on a phone, where st.columns would stack
    # them above and below the slider; the slider wraps under them when the row is narrow.
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button(
            "◀ Prev",
            key=f"{prefix}prev",
            on_click=_move,
            args=(-1, last, slider),
            disabled=current <= 0,
            help="The previous row",
        )
        st.button(
            "Next ▶",
            key=f"{prefix}next",
            on_click=_move,
            args=(1, last, slider),
            disabled=current >= last,
            help="The next row",
        )
        return st.select_slider(
            "Row",
            options=list(range(last + 1)),
            format_func=lambda i: f"row {i + 1} of {last + 1} · step {trace.steps[i].step}",
            key=slider,
            persist_state="session",
            label_visibility="collapsed",
            width="stretch",
        )


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
        st.caption(_why(trace.error, checked))


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
    merges = merge_view(trace, index)
    if merges:
        st.dataframe(
            pd.DataFrame(merges),
            key=f"{key}__merge",
            hide_index=True,
            column_config={"why": st.column_config.TextColumn("why", width="large")},
        )
    else:
        st.caption("This node wrote nothing LangGraph merged.")
    if step.violations:  # checked mode only: LangGraph native checks nothing
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
        # A warning, as the headline: LangGraph finished; only the model refuses the value.
        right.warning(_invalid_output(trace, report, which))
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
