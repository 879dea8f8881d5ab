"""Run a compiled graph for real and record every node, write, reducer merge and state check."""

from __future__ import annotations

import contextlib
import csv
import io
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import BaseModel, ValidationError

from core.lg_compat import builder_of, output_schema, state_schema
from core.order.graph import CompiledGraph
from core.trace.errors import TraceError, trace_error
from core.trace.ids import rename_message_ids
from core.trace.invoke import run_like_invoke
from core.trace.reducers import dump_json, graph_reducers
from core.trace.steps import Step, TaskLog, TraceTimeout, build_steps, checkpoint_values, walk_chain
from core.validate.entry import pick_entry
from core.validate.field_errors import place_in_text
from core.validate.report import FieldError, validate_value
from core.validate.run_saver import run_saver

__all__ = [
    "RunOptions",
    "SaverFor",
    "Step",
    "Trace",
    "TraceError",
    "TraceTimeout",
    "checkpoint_values",
    "record_run",
    "run_trace",
]


SaverFor = Callable[[CompiledGraph, type[BaseModel] | None], BaseCheckpointSaver[Any]]
"""Makes a run's checkpointer from its graph and the state model its steps are checked with."""


@dataclass(frozen=True)
class RunOptions:
    """How a run is bounded and checked; a fork reuses its trace's options."""

    check_each_step: bool = True
    model: type[BaseModel] | None = None  # the state model each step is checked against
    input_model: type[BaseModel] | None = None  # our gate's model (the input schema's)
    run_anyway: bool = False  # checked mode: record the gate's errors, then run all the same
    message_ids: Callable[[int], str] | None = None  # n -> id; None keeps LangGraph's uuid4s
    recursion_limit: int = 25
    timeout_s: float = 10.0


@dataclass
class Trace:
    """A recorded run: what our gate refused, and one Step per node execution if it ran.

    `gate_errors` are our model's refusals (checked mode only); `ran` says whether the graph
    then ran all the same (`run_anyway`) or not at all.
    """

    gate_errors: list[FieldError] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    error: TraceError | None = None
    output: Any = None  # exactly what `invoke` returns (its output schema's channels), or None
    options: RunOptions = field(default_factory=RunOptions)
    graph: CompiledGraph | None = None  # the run's copy, holding its checkpointer
    ran: bool = False  # the payload reached LangGraph (False: our gate refused it)
    output_schema: type[BaseModel] | None = None  # the model `output_model` is built with
    output_model: BaseModel | None = None  # output_schema(**output), None when that raises

    def rows(self) -> list[dict[str, Any]]:
        """The trace table: one flat row per step (nested values as JSON text).

        The status / logs / messages summary columns appear only for states that have
        those fields (the order state does; a user's own graph may not). LangGraph native
        blames nobody: its rows have no blame column.
        """
        checked = self.options.check_each_step
        rows = [_table_row(step, checked) for step in self.steps]
        if not checked:
            rows = [{k: v for k, v in row.items() if k != "blame"} for row in rows]
        channels = set(graph_reducers(self.graph)) if self.graph is not None else set()
        absent = {"status", "logs", "messages"} - channels
        if self.graph is None or not absent:
            return rows
        return [{k: v for k, v in row.items() if k not in absent} for row in rows]

    def to_json(self) -> str:
        """Everything recorded, as JSON text (the graph object left out)."""
        steps = [{k: v for k, v in vars(step).items() if k != "checkpoint"} for step in self.steps]
        out = {"gate_errors": self.gate_errors, "ran": self.ran, "steps": steps}
        out |= {"error": self.error, "output": self.output, "output_model": self.output_model}
        return dump_json(out, indent=2)

    def to_csv(self) -> str:
        """The trace table as CSV text."""
        buffer = io.StringIO()
        rows = self.rows()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["step", "node"])
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()


def run_trace(
    graph: CompiledGraph,
    payload: Any,
    *,
    check_each_step: bool = RunOptions.check_each_step,
    model: type[BaseModel] | None = None,
    input_model: type[BaseModel] | None = None,
    run_anyway: bool = RunOptions.run_anyway,
    message_ids: Callable[[int], str] | None = None,
    recursion_limit: int = RunOptions.recursion_limit,
    timeout_s: float = RunOptions.timeout_s,
    text: str | None = None,
    checkpointer: SaverFor | None = None,
) -> Trace:
    """Run `graph` on `payload` for real and record every step (checked mode: gate it first).

    LangGraph native (`check_each_step=False`) runs exactly what LangGraph runs: whatever
    LangGraph raises at its own entry is the trace's `error`. Checked mode first validates the
    payload with your model alone (`input_model`; by default `pick_entry`'s: the graph's
    Pydantic input schema first, else `model`, else its state schema); a refusal stops the run
    unless `run_anyway`. Each step's merged state is checked against `model` (default: the
    graph's Pydantic state schema). `text` is the JSON text `payload` was parsed from: the
    gate's errors are placed at their line:col in it.

    The graph runs on a copy holding a fresh `InMemorySaver`: its checkpoints give the merged
    state after each super-step and every write, even those LangGraph never streams.
    `checkpointer(graph, model)` makes another saver for the run (a `GuardedSaver` around
    `run_saver(graph)`, say); the trace is read back through it. The other keywords are
    `RunOptions`' fields.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> trace = run_trace(build_order_graph(), SEED_PAYLOAD)
        >>> [(s.node, s.status, s.message_count) for s in trace.steps]
        [('__start__', 'pending', 1), ('validate_order', 'validated', 2), \
('confirm', 'confirmed', 2)]
    """
    entry = pick_entry(graph, model)
    opts = RunOptions(
        check_each_step=check_each_step,
        model=entry.state,
        input_model=input_model or entry.model,
        run_anyway=run_anyway,
        message_ids=message_ids,
        recursion_limit=recursion_limit,
        timeout_s=timeout_s,
    )
    gate_errors: list[FieldError] = []
    if check_each_step and opts.input_model is not None:
        gate_errors = validate_value(payload, opts.input_model).errors
        if text is not None:  # the payload's own text: each error at its line:col
            gate_errors = place_in_text(gate_errors, text)
        if gate_errors and not opts.run_anyway:
            return Trace(gate_errors=gate_errors, options=opts)
    saver = run_saver(graph) if checkpointer is None else checkpointer(graph, opts.model)
    run = graph.copy(update={"checkpointer": saver})
    trace = record_run(run, payload, {"configurable": {"thread_id": "trace"}}, opts)
    trace.gate_errors = gate_errors
    return trace


def record_run(
    run: CompiledGraph,
    payload: Any,
    config: RunnableConfig,
    opts: RunOptions,
    lead: Step | None = None,
) -> Trace:
    """Run `run` (a graph holding a checkpointer) as `invoke` would; build the Trace from its
    checkpoints.

    With `payload` None the run resumes from the checkpoint in `config` (a fork); `lead` is the
    row for that checkpoint, where the walk back through the checkpoints stops. Graphs with
    async nodes run through `astream` (see `run_like_invoke`).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> run = build_order_graph().copy(update={"checkpointer": run_saver(build_order_graph())})
        >>> config = {"configurable": {"thread_id": "t"}}
        >>> trace = record_run(run, SEED_PAYLOAD, config, RunOptions())
        >>> [step.node for step in trace.steps]
        ['__start__', 'validate_order', 'confirm']
    """
    log = TaskLog(time.monotonic() + opts.timeout_s)
    output, error = None, None
    # One worker thread: starting pool threads for the checkpoint saves cost more than the
    # whole bare run. A super-step's tasks still run, and merge, together.
    limited: RunnableConfig = {
        **config,
        "recursion_limit": opts.recursion_limit,
        "callbacks": [log],
        "max_concurrency": 1,
    }
    try:
        output = run_like_invoke(run, payload, limited, log)
    except Exception as exc:  # noqa: BLE001 - a node may raise anything; the trace shows it
        error = exc
    stop = lead.checkpoint["configurable"]["checkpoint_id"] if lead and lead.checkpoint else None
    chain = walk_chain(run.checkpointer, config["configurable"]["thread_id"], stop)
    steps = build_steps(chain, log, run, payload, opts.model, opts.check_each_step, lead)
    trace = Trace(steps=steps, output=output, options=opts, graph=run, ran=True)
    if error is not None:
        trace.error = trace_error(error, steps, chain[-1].metadata["step"] + 1 if chain else 0)
        for step in steps:  # rows LangGraph never merged show what stopped the run
            if not step.committed and not step.error:
                step.error = f"{trace.error.type}: {trace.error.headline}"
    if opts.message_ids is not None:
        given = payload if lead is None else lead.update
        trace.output = rename_message_ids(steps, trace.output, opts.message_ids, given)
    trace.output_schema = _output_schema(run, opts.model)
    if trace.output_schema is not None and isinstance(trace.output, dict):
        with contextlib.suppress(ValidationError, TypeError):  # as invoke(version="v2") builds it
            trace.output_model = trace.output_schema(**trace.output)
    return trace


def _pydantic(schema: Any) -> type[BaseModel] | None:
    return schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None


def _output_schema(graph: CompiledGraph, model: type[BaseModel] | None) -> Any:
    # The graph's own Pydantic output schema; without one of its own (it is the state
    # schema), the model the run is checked with (a TypedDict state's user model, say).
    builder = builder_of(graph)
    schema = output_schema(builder)
    if _pydantic(schema) is not None:
        return schema
    return model if schema is state_schema(builder) else None


def _table_row(step: Step, checked: bool) -> dict[str, Any]:
    if not step.committed:
        check = "not merged"
    elif not checked:
        check = "not checked"
    else:
        check = "; ".join(f"{e.path}: {e.type}" for e in step.violations) or "✓"
    status = step.status if isinstance(step.status, str | None) else dump_json(step.status)
    return {
        "step": step.step,
        "node": step.node,
        "status": status or "",
        "logs": dump_json(step.logs),
        "messages": step.message_count,
        "changed": ", ".join(step.changed),
        "reducers": ", ".join(f"{k}: {v}" for k, v in step.reducers.items()),
        "check": check,
        "blame": step.blame,
        "error": step.error,
    }
