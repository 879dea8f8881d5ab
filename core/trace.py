"""Run a compiled graph for real and record every node, write, reducer merge and state check."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.errors import EmptyChannelError, GraphRecursionError, InvalidUpdateError
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Overwrite
from pydantic import BaseModel, ValidationError

from core.reducers import DROPPED, dump_json, graph_reducers, merge_rows, reducer_for
from core.report import FieldError, validate_value

__all__ = [
    "RunOptions",
    "Step",
    "Trace",
    "TraceError",
    "TraceTimeout",
    "checkpoint_values",
    "record_run",
    "run_trace",
]

_NAMED = re.compile(r"^(Before|During) task with name '([^']*)'")


class TraceTimeout(TimeoutError):
    """The run passed its wall-clock budget (code: trace_timeout)."""

    code = "trace_timeout"


@dataclass(frozen=True)
class RunOptions:
    """How a run is bounded and checked; a fork reuses its trace's options."""

    check_each_step: bool = True
    model: type[BaseModel] | None = None
    message_ids: Callable[[int], str] | None = None  # n -> id; None keeps LangGraph's uuid4s
    recursion_limit: int = 25
    timeout_s: float = 10.0


@dataclass
class Step:
    """One node execution and the merged state of its super-step (shared by parallel nodes)."""

    step: int
    node: str
    status: Any = None  # status, logs, message_count: read from `state` as a node sees it
    logs: Any = None
    message_count: int = 0
    update: Any = None  # what the node returned (the input payload for `__start__`)
    state: dict[str, Any] = field(default_factory=dict)  # after the reducers (else `before`)
    changed: list[str] = field(default_factory=list)
    reducers: dict[str, str] = field(default_factory=dict)  # field -> reducer ("dropped" too)
    violations: list[FieldError] = field(default_factory=list)
    blame: str = ""
    input: Any = None  # the validated model the node was called with
    before: dict[str, Any] = field(default_factory=dict)
    error: str = ""
    committed: bool = True  # False: the run stopped before LangGraph merged this step
    checkpoint: dict[str, Any] | None = None  # the config of the checkpoint holding `state`

    def merges(self) -> list[dict[str, str]]:
        """Per written field: before, update, reducer, after (see `merge_rows`)."""
        return merge_rows(self.before, self.update, self.state, self.reducers)


@dataclass(frozen=True)
class TraceError:
    """What stopped the run (code: node_error, input_invalid, concurrent_update, ...)."""

    code: str
    step: int
    node: str  # the node LangGraph's own error names ("" when it names none)
    writers: str  # the node(s) whose writes caused it, read from the checkpoint
    type: str
    message: str

    def __str__(self) -> str:
        where = f"step {self.step}" + (f", node {self.node}" if self.node else "")
        blame = (
            f" (written by {self.writers})" if self.writers and self.writers != self.node else ""
        )
        return f"[{self.code}] {where}{blame}: {self.type}: {self.message.splitlines()[0]}"


@dataclass
class Trace:
    """A recorded run: gate errors (graph not run) or one Step per node execution."""

    gate_errors: list[FieldError] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    error: TraceError | None = None
    output: Any = None  # what `invoke` returns (raw channel values), None when it raised
    options: RunOptions = field(default_factory=RunOptions)
    graph: CompiledStateGraph | None = None  # the run's copy, holding its checkpointer

    def rows(self) -> list[dict[str, Any]]:
        """The trace table: one flat row per step (nested values as JSON text)."""
        return [_table_row(step, self.options.check_each_step) for step in self.steps]

    def to_json(self) -> str:
        """Everything recorded, as JSON text (the graph object left out)."""
        steps = [{k: v for k, v in vars(step).items() if k != "checkpoint"} for step in self.steps]
        out = {"gate_errors": self.gate_errors, "steps": steps, "error": self.error}
        return dump_json(out | {"output": self.output}, indent=2)

    def to_csv(self) -> str:
        """The trace table as CSV text."""
        buffer = io.StringIO()
        rows = self.rows()
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]) if rows else ["step", "node"])
        writer.writeheader()
        writer.writerows(rows)
        return buffer.getvalue()


class _TaskLog(BaseCallbackHandler):
    """Sees each node call: the input it got and the raw dict it returned (undeclared keys too)."""

    raise_error = True  # so the deadline check really stops the run

    def __init__(self, deadline: float) -> None:
        self.deadline, self.root = deadline, None
        self.runs: dict[UUID, str] = {}
        self.tasks: dict[str, tuple[int, str, Any]] = {}  # task id -> (step, node, input)
        self.outputs: dict[str, Any] = {}
        self.errors: dict[str, str] = {}

    def check_deadline(self) -> None:
        if time.monotonic() > self.deadline:
            raise TraceTimeout(f"[{TraceTimeout.code}] the run passed its time budget")

    def on_chain_start(self, serialized: Any, inputs: Any, *, run_id: UUID, **kw: Any) -> None:
        meta = kw.get("metadata") or {}
        if self.root is None:
            self.root = run_id
        elif kw.get("parent_run_id") == self.root and "langgraph_checkpoint_ns" in meta:
            self.check_deadline()
            task = str(meta["langgraph_checkpoint_ns"]).rsplit(":", 1)[-1]
            self.runs[run_id] = task
            self.tasks[task] = (meta["langgraph_step"], meta["langgraph_node"], inputs)

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kw: Any) -> None:
        if run_id in self.runs:
            self.outputs[self.runs[run_id]] = outputs

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kw: Any) -> None:
        if run_id in self.runs:
            self.errors[self.runs[run_id]] = f"{type(error).__name__}: {error}"


def run_trace(
    graph: CompiledStateGraph, payload: Any, *, check_each_step: bool = True, **options: Any
) -> Trace:
    """Validate `payload` at the gate, run `graph` on it for real, and record every step.

    The graph runs on a copy holding a fresh `InMemorySaver`: its checkpoints give the merged
    state after each super-step and every write, even those LangGraph never streams because
    the next node's input failed validation. `options` are the other `RunOptions` fields;
    `model` defaults to the graph's state schema when that is a Pydantic model.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> trace = run_trace(build_order_graph(), SEED_PAYLOAD)
        >>> [(s.node, s.status, s.message_count) for s in trace.steps]
        [('__start__', 'pending', 1), ('validate_order', 'validated', 2), \
('confirm', 'confirmed', 2)]
    """
    schema = getattr(graph.builder, "state_schema", None)
    if options.get("model") is None and isinstance(schema, type) and issubclass(schema, BaseModel):
        options["model"] = schema
    opts = RunOptions(check_each_step=check_each_step, **options)
    if opts.model is not None:
        gate = validate_value(payload, opts.model)
        if not gate.ok:
            return Trace(gate_errors=gate.errors, options=opts)
    run = graph.copy(update={"checkpointer": InMemorySaver()})
    return record_run(run, payload, {"configurable": {"thread_id": "trace"}}, opts)


def record_run(
    run: CompiledStateGraph, payload: Any, config: dict, opts: RunOptions, lead: Step | None = None
) -> Trace:
    """Stream `run` (a graph holding a checkpointer) and build the Trace from its checkpoints.

    With `payload` None the run resumes from the checkpoint in `config` (a fork); `lead` is the
    row for that checkpoint, where the walk back through the checkpoints stops.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> run = build_order_graph().copy(update={"checkpointer": InMemorySaver()})
        >>> config = {"configurable": {"thread_id": "t"}}
        >>> trace = record_run(run, SEED_PAYLOAD, config, RunOptions())
        >>> [step.node for step in trace.steps]
        ['__start__', 'validate_order', 'confirm']
    """
    log = _TaskLog(time.monotonic() + opts.timeout_s)
    output, error = None, None
    try:
        # One worker thread: starting pool threads for the checkpoint saves cost more than the
        # whole bare run. A super-step's tasks still run, and merge, together.
        limits = {"recursion_limit": opts.recursion_limit, "callbacks": [log], "max_concurrency": 1}
        for chunk in run.stream(payload, {**config, **limits}, stream_mode="values"):
            log.check_deadline()
            output = chunk
    except Exception as exc:  # noqa: BLE001 - a node may raise anything; the trace shows it
        output, error = None, exc
    stop = lead.checkpoint["configurable"]["checkpoint_id"] if lead and lead.checkpoint else None
    if lead is not None:
        lead.status, lead.logs, lead.message_count = _summary(lead.state, opts.model)
        if opts.check_each_step and opts.model is not None:
            _check([lead], opts.model)
    chain = _chain(run.checkpointer, config["configurable"]["thread_id"], stop)
    steps = ([lead] if lead else []) + _steps(chain, log, run, payload, opts)
    trace = Trace(steps=steps, output=output, options=opts, graph=run)
    if error is not None:
        trace.error = _trace_error(error, steps, chain[-1].metadata["step"] + 1)
        for step in steps:  # rows LangGraph never merged show what stopped the run
            if not step.committed and not step.error:
                step.error = f"{trace.error.type}: {trace.error.message.splitlines()[0]}"
    if opts.message_ids is not None:
        _rename_ids(trace, opts.message_ids, payload if lead is None else lead.update)
    return trace


def _chain(saver: Any, thread: str, stop: str | None) -> list[Any]:
    points = {p.config["configurable"]["checkpoint_id"]: p for p in saver.list(_thread(thread))}
    chain, point = [], next(iter(points.values()))  # newest first: the head of this run
    while point is not None:
        chain.append(point)
        if point.config["configurable"]["checkpoint_id"] == stop or point.parent_config is None:
            break
        point = points.get(point.parent_config["configurable"]["checkpoint_id"])
    return chain[::-1]


def _thread(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


def _steps(
    chain: list, log: _TaskLog, run: CompiledStateGraph, payload: Any, opts: RunOptions
) -> list[Step]:
    steps: list[Step] = []
    reducers = graph_reducers(run)
    for point, after in zip(chain, [*chain[1:], None], strict=True):
        number = point.metadata["step"] + 1
        writes: dict[str, list[tuple[str, Any]]] = {}
        for task, channel, value in point.pending_writes or []:
            writes.setdefault(task, []).append((channel, value))
        for task, (step, _, _) in log.tasks.items():
            if step == number:
                writes.setdefault(task, [])  # a node that raised before writing anything
        before = checkpoint_values(run, point.checkpoint)
        base = Step(
            number,
            "__start__",
            update=payload,
            before=before,
            state=checkpoint_values(run, after.checkpoint) if after else before,
            committed=after is not None,
            checkpoint=after.config if after else None,
        )
        rows = [_row(base, log, task, written, reducers) for task, written in writes.items()]
        rows.sort(key=lambda row: row.node)  # the order LangGraph applies a step's writes in
        if after is not None and opts.check_each_step and opts.model is not None:
            _check(rows, opts.model)
        for row in rows:
            row.status, row.logs, row.message_count = _summary(row.state, opts.model)
        steps.extend(rows)
    return steps


def _row(base: Step, log: _TaskLog, task: str, written: list, reducers: dict[str, str]) -> Step:
    # Tasks the callbacks never saw are LangGraph's own input task.
    _, node, seen = log.tasks.get(task, (base.step, "__start__", None))
    update = base.update if node == "__start__" else log.outputs.get(task)
    touched = {channel: value for channel, value in written if channel in reducers}
    dropped = [key for key in update if key not in reducers] if isinstance(update, dict) else []
    merged = {ch: reducer_for(reducers, ch, value) for ch, value in touched.items()}
    return replace(
        base,
        node=node,
        input=seen,
        update=update,
        changed=list(touched),
        reducers=merged | dict.fromkeys(dropped, DROPPED),
        error=log.errors.get(task, ""),
    )


def checkpoint_values(graph: CompiledStateGraph, checkpoint: dict[str, Any]) -> dict[str, Any]:
    """The state LangGraph reads from a checkpoint, as `stream(stream_mode="values")` emits it.

    A checkpoint stores only written channels; a reducer channel never written still reads
    as its initial value (`logs: []`), a last-value channel never written is absent.

    Example:
        >>> from core.order import build_order_graph
        >>> checkpoint_values(build_order_graph(), {"channel_values": {"amount": 1}})
        {'amount': 1, 'logs': [], 'messages': []}
    """
    stored, out = checkpoint["channel_values"], {}
    for key in graph.stream_channels_list:
        if key in stored:
            out[key] = stored[key]
            continue
        with contextlib.suppress(EmptyChannelError):
            out[key] = graph.channels[key].copy().get()
    return out


def _summary(state: dict[str, Any], model: type[BaseModel] | None) -> tuple[Any, Any, int]:
    fields = model.model_fields if model else {}

    def read(name: str, fallback: Any) -> Any:
        if name in state or name not in fields or fields[name].is_required():
            return state.get(name, fallback)
        return fields[name].get_default(call_default_factory=True)  # what a node would see

    messages = read("messages", [])
    count = len(messages) if isinstance(messages, list) else 0
    return read("status", None), read("logs", []), count


def _check(rows: list[Step], model: type[BaseModel]) -> None:
    violations = validate_value(rows[0].state, model).errors if rows else []
    fields = {str(e.loc[0]) for e in violations if e.loc}
    blame = ", ".join(sorted({row.node for row in rows if fields & set(row.changed)}))
    for row in rows:
        row.violations, row.blame = violations, blame


def _trace_error(exc: BaseException, steps: list[Step], step: int) -> TraceError:
    named = next(filter(None, map(_NAMED.match, getattr(exc, "__notes__", []))), None)
    code, node, fields = "graph_error", named.group(2) if named else "", set()
    if isinstance(exc, TraceTimeout | GraphRecursionError):
        code = TraceTimeout.code if isinstance(exc, TraceTimeout) else "recursion_limit"
    elif isinstance(exc, InvalidUpdateError):
        code, fields = "concurrent_update", set(re.findall(r"At key '([^']*)'", str(exc)))
    elif named and named.group(1) == "Before":
        code = "input_invalid"  # LangGraph names the reader; the writer is an earlier node
        if isinstance(exc, ValidationError):
            fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
    elif named:
        code = "node_error"
    writers = [s for s in steps if fields & set(s.changed)]
    last = max((s.step for s in writers), default=None)
    names = sorted({s.node for s in writers if s.step == last}) if fields else [node] * bool(node)
    return TraceError(code, step, node, ", ".join(names), type(exc).__name__, str(exc))


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


def _rename_ids(trace: Trace, factory: Callable[[int], str], given: Any) -> None:
    keep = set(re.findall(r'"id": "([^"]*)"', dump_json(given)))  # ids the user chose stay
    names: dict[str, str] = {}
    fresh = (name for name in map(factory, itertools.count(1)) if name not in keep)

    def rename(value: Any) -> Any:
        if isinstance(value, BaseMessage) and value.id and value.id not in keep:
            if value.id not in names:
                names[value.id] = next(fresh)
            return value.model_copy(update={"id": names[value.id]})
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(map(rename, value))
        if isinstance(value, Overwrite):
            return Overwrite(rename(value.value))
        if isinstance(value, BaseModel) and not isinstance(value, BaseMessage):
            fields = type(value).model_fields
            return value.model_copy(update={k: rename(getattr(value, k)) for k in fields})
        return value

    for step in trace.steps:
        step.state, step.update = rename(step.state), rename(step.update)
        step.before, step.input = rename(step.before), rename(step.input)
    trace.output = rename(trace.output)
