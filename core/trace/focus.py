"""Where a recorded run went wrong: the row to open first, and one headline for the whole run.

Everything here is read off a real `Trace` (LangGraph's error, the checkpoints' writes, our
per-step checks). LangGraph native traces are never blamed on a node: only what LangGraph
itself raised, or what its output model refuses, is named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from core.jsontext.write import clip
from core.trace.loss import Loss, losses
from core.trace.reducers import dump_json
from core.trace.run import Step, Trace
from core.validate.annotated import MAX_LINE_CHARS, line_pieces
from core.validate.report import FieldError, validate_value

__all__ = [
    "LOSS_FLAG",
    "Headline",
    "failure_flag",
    "first_failure",
    "headline",
    "loss_notes",
    "opened_row",
    "output_errors",
    "row_flags",
]

_VALUE_CHARS = 80  # a value quoted in the headline is cut here: it may be the user's payload
_WHERE = {"input_invalid": "before", "node_error": "in"}
LOSS_FLAG = "data lost"  # the flag of a row where LangGraph lost a write silently (core.trace.loss)


@dataclass(frozen=True)
class Headline:
    """The run's one-line verdict: `level` success / warning / error, `text` plain text.

    `text` quotes node names, field names and values from the graph and the payload: show it
    as plain text (never Markdown).
    """

    level: Literal["success", "warning", "error"]
    text: str


def first_failure(trace: Trace) -> int | None:
    """The index in `trace.steps` of the row to open first; None when nothing went wrong.

    Checked mode: the first row whose merged state breaks the model (the blamed node's row
    when a node of that step is blamed) or that LangGraph never merged (it raised). LangGraph
    native: the first row LangGraph never merged; else, when it raised (its error named no row,
    e.g. it refused to rebuild the state before a node) or its output does not validate, the
    last row: the state it stopped at or finished with.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> trace = run_trace(build_order_graph(["bad_status_last"]), SEED_PAYLOAD)
        >>> index = first_failure(trace)
        >>> (trace.steps[index].step, trace.steps[index].node)
        (2, 'confirm')
    """
    steps = trace.steps
    checked = trace.options.check_each_step
    for index, step in enumerate(steps):
        if not step.committed and step.error:
            return index
        if checked and step.violations:
            blamed = set(step.blame.split(", ")) if step.blame else set()
            peers = [i for i, s in enumerate(steps) if s.step == step.step]
            return next((i for i in peers if steps[i].node in blamed), index)
    if steps and (trace.error is not None or output_errors(trace)):
        return len(steps) - 1
    return None


def failure_flag(trace: Trace) -> str:
    """What the `first_failure` row is, in a word or three (never a claim LangGraph did not make).

    Checked mode: "first failure". LangGraph native names no culprit: "raised here" for a row
    LangGraph never merged, else "state at the error" or "final state" (its output invalid).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> failure_flag(run_trace(build_order_graph(["negative_amount"]), SEED_PAYLOAD,
        ...                        check_each_step=False))
        'state at the error'
    """
    index = first_failure(trace)
    if index is None:
        return ""
    if trace.options.check_each_step:
        return "first failure"
    if not trace.steps[index].committed:
        return "raised here"
    return "state at the error" if trace.error is not None else "final state"


def opened_row(trace: Trace) -> int | None:
    """The row a run opens on: its `first_failure`, else the first row that lost data silently.

    Example:
        >>> from core import order, trace as tracing
        >>> run = tracing.run_trace(order.build_order_graph(["undeclared_key"]), order.SEED_PAYLOAD)
        >>> row = run.steps[opened_row(run)]
        >>> (row.step, row.node)
        (1, 'validate_order')
    """
    failing = first_failure(trace)
    if failing is not None:
        return failing
    return next((loss.index for loss in losses(trace)), None)


def row_flags(trace: Trace) -> list[str]:
    """The trace table's flag column: `failure_flag` on the `first_failure` row, `LOSS_FLAG` on
    every other row that lost data silently, "" elsewhere.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> row_flags(run_trace(build_order_graph(["overwrite_logs"]), SEED_PAYLOAD))
        ['', '', 'data lost']
    """
    failing, lossy = first_failure(trace), {loss.index for loss in losses(trace)}
    flag = failure_flag(trace)
    return [
        flag if index == failing else LOSS_FLAG if index in lossy else ""
        for index in range(len(trace.steps))
    ]


def loss_notes(trace: Trace) -> list[str]:
    """One sentence per silent loss the `headline` does not already name (plain text)."""
    found = losses(trace)
    unnamed = found if _failure_headline(trace) is not None else found[1:]
    return [f"Step {loss.step}: {_end(loss.summary(_VALUE_CHARS))}" for loss in unnamed]


def output_errors(trace: Trace) -> list[FieldError]:
    """Why `invoke`'s output does not build the output model ([] when it does, or no output)."""
    if trace.output_schema is None or trace.output_model is not None or trace.output is None:
        return []
    return validate_value(trace.output, trace.output_schema).errors


def headline(trace: Trace) -> Headline:
    """One verdict for the run, consistent with the table and the panels.

    What LangGraph raised first, then a state or output the model refuses; a run that finished
    with nothing refused but lost data silently (`core.trace.loss`) names its first loss.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> headline(run_trace(build_order_graph(["bad_status_last"]), SEED_PAYLOAD)).text
        'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".'
    """
    verdict = _failure_headline(trace)
    if verdict is not None:
        return verdict
    found = losses(trace)
    if found:
        return Headline("warning", _lost(found))
    return Headline("success", "LangGraph finished the run without raising.")


def _failure_headline(trace: Trace) -> Headline | None:
    """The headline of a run that raised or whose state or output the model refuses."""
    checked = trace.options.check_each_step
    error = trace.error
    index = first_failure(trace)
    flagged = trace.steps[index] if index is not None else None
    if error is not None:
        where = f"step {error.step}"
        if error.node:
            where += f" {_WHERE.get(error.code, 'in')} {error.node}"
        said = " ".join(line_pieces(error.headline, MAX_LINE_CHARS))  # it may quote a value
        text = f"LangGraph stopped at {where} [{error.code}]: {error.type}: {said}"
        if checked and flagged is not None and flagged.violations and flagged.blame:
            text += f" — {_wrote(flagged)}"
        elif checked and error.writers and error.writers != error.node:
            text += f" — written by {error.writers}"
        return Headline("error", _end(text))
    if checked and flagged is not None and flagged.violations:
        last = trace.steps[-1]
        what = _wrote(flagged) if flagged.blame else _values(flagged.violations)
        if last.violations:
            return Headline(
                "warning", f"LangGraph finished, but the final state is invalid: {what}."
            )
        return Headline(
            "warning",
            f"LangGraph finished, but the state broke the model at step {flagged.step}: {what} "
            "(the final state is valid again).",
        )
    errors = output_errors(trace)
    if errors:
        name = trace.output_schema.__name__ if trace.output_schema else "its model"
        return Headline(
            "warning",
            f"LangGraph finished, but its output does not validate with {name}: {_values(errors)}.",
        )
    return None


def _lost(found: list[Loss]) -> str:
    """`...but step 2 lost data silently: confirm's Overwrite replaced logs, ...`."""
    first, more = found[0], len(found) - 1
    tail = f" (and {more} more loss{'es' if more > 1 else ''})" if more else ""
    return _end(
        f"LangGraph finished without raising, but step {first.step} lost data silently: "
        f"{first.summary(_VALUE_CHARS)}{tail}"
    )


def _wrote(step: Step) -> str:
    """`confirm wrote status="shipped"`: the blamed node and the values it wrote that fail."""
    fields = [str(e.loc[0]) for e in step.violations if e.loc]
    written = step.update if isinstance(step.update, dict) else {}
    shown = [f for f in dict.fromkeys(fields) if f in written and f in step.changed]
    if not shown:
        return f"written by {step.blame}"
    parts = ", ".join(f"{name}={_short(written[name])}" for name in shown)
    # __start__ is LangGraph writing the graph's input, not a node of the graph.
    return f"the input set {parts}" if step.node == "__start__" else f"{step.node} wrote {parts}"


def _values(errors: list[FieldError]) -> str:
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{first.path or '(root)'}={_short(first.input)} ({first.type}){more}"


def _short(value: Any) -> str:
    text = dump_json(value)
    return clip(text, _VALUE_CHARS)


def _end(text: str) -> str:
    return text if text.endswith((".", "…")) else text + "."
