"""The Trace page's run in one call: payload text and settings -> the graph picked, run, placed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from core.jsontext.payload import PayloadError, parse
from core.order import build_fanout_graph, build_order_graph
from core.order.graph import CompiledGraph
from core.order.schema_options import SchemaOptions, build_model
from core.project import Project
from core.trace.run import SaverFor, Trace, run_trace
from core.validate.entry import project_entry
from core.validate.report import validate_text

__all__ = ["SEED_GRAPHS", "TextRun", "trace_text"]

SEED_GRAPHS = {"seed": "Seed order graph", "fanout": "Fan-out graph (parallel notifiers)"}


@dataclass
class TextRun:
    """What one run of payload text gave: a JSON syntax error, or a trace.

    `json_accepts` is set when the gate refused the payload (it validates the parsed value in
    Python mode) and a JSON-mode run of the same text accepts it; None when not asked.
    """

    syntax: str | None = None
    trace: Trace | None = None
    json_accepts: bool | None = None
    # `syntax` as raised, with its code, line and col (an exception compares by identity:
    # runs compare by `syntax`)
    syntax_error: PayloadError | None = field(default=None, compare=False)


def _message_id(n: int) -> str:
    return f"msg-{n}"  # stable ids instead of uuid4s, so runs and exports compare exactly


def trace_text(
    text: str,
    *,
    graph: str,
    faults: Sequence[str] = (),
    checked: bool = True,
    options: Mapping[str, Any] | None = None,
    project: Project | None = None,
    run_anyway: bool = False,
    checkpointer: SaverFor | None = None,
) -> TextRun:
    """Parse `text`, pick the graph, run and record it; gate errors placed at their line:col.

    `graph` is `"seed"` (with `faults`), `"fanout"` or `"project"` (the `project`'s graph, its
    model and input schema's gate). `options` are the schema options shaping the seed state.
    `checkpointer` makes the run's saver (`run_trace`'s; None: `run_saver`).

    Example:
        >>> run = trace_text('{"amount": -1}', graph="seed")
        >>> [(e.path, e.line, e.col) for e in run.trace.gate_errors]
        [('user_id', 1, 1), ('amount', 1, 12)]
        >>> trace_text("{", graph="seed").syntax.startswith("line 1, column 2: Invalid JSON")
        True
    """
    try:
        payload = parse(text)
    except PayloadError as exc:
        return TextRun(syntax=str(exc), syntax_error=exc)
    chosen, model, gate_model = _pick(graph, faults, options, project)
    trace = run_trace(chosen, payload, check_each_step=checked, message_ids=_message_id,
                      model=model, input_model=gate_model, run_anyway=run_anyway,
                      text=text, checkpointer=checkpointer)  # fmt: skip
    run = TextRun(trace=trace)
    gate = trace.options.input_model
    if trace.gate_errors and gate is not None:  # a real JSON-mode run of the same text
        run.json_accepts = validate_text(text, gate).ok
    return run


def _pick(
    graph: str,
    faults: Sequence[str],
    options: Mapping[str, Any] | None,
    project: Project | None,
) -> tuple[CompiledGraph, type[BaseModel] | None, type[BaseModel] | None]:
    """The graph to run, the model it is checked with and the gate's model (None: the ones
    `run_trace` picks for the graph)."""
    if graph == "project" and project is not None and project.graph is not None:
        entry = project_entry(project)  # your graph, its state's model and your model
        return entry.graph, entry.state, entry.model
    state = build_model(SchemaOptions.from_dict(dict(options))) if options is not None else None
    if graph == "seed":
        return build_order_graph(faults, state=state), None, None
    return build_fanout_graph(state=state), None, None
