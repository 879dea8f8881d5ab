"""The recording side of a trace: node calls, the checkpoint walk, step rows, state checks."""

from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field, replace
from typing import Any
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import Checkpoint
from langgraph.errors import EmptyChannelError
from pydantic import BaseModel

from core.errors import ErrorCode
from core.lg_compat import stream_channels
from core.order.graph import CompiledGraph
from core.trace.reducers import DROPPED, graph_reducers, merge_rows, reducer_for
from core.validate.report import FieldError, validate_value

__all__ = ["Step", "TaskLog", "TraceTimeout", "build_steps", "checkpoint_values", "walk_chain"]


class TraceTimeout(TimeoutError):
    """The run passed its wall-clock budget (code: trace_timeout)."""

    code = ErrorCode.TRACE_TIMEOUT


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
    checkpoint: RunnableConfig | None = None  # the config of the checkpoint holding `state`

    def merges(self) -> list[dict[str, str]]:
        """Per written field: before, update, reducer, after (see `merge_rows`)."""
        return merge_rows(self.before, self.update, self.state, self.reducers)


class TaskLog(BaseCallbackHandler):
    """Sees each node call: the input it got and the raw dict it returned (undeclared keys too)."""

    raise_error = True  # so the deadline check really stops the run
    run_inline = True  # async runs call it in the loop, in order, not in an executor thread

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.root: UUID | None = None
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
        # A cancelled task is not the node's error: the run's deadline (or a sibling) ended it.
        if run_id in self.runs and not isinstance(error, asyncio.CancelledError):
            self.errors[self.runs[run_id]] = f"{type(error).__name__}: {error}"


def walk_chain(saver: Any, thread: str, stop: str | None) -> list[Any]:
    """This run's checkpoints, oldest first: from the thread's head back to `stop` (or the root).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> run = build_order_graph().copy(update={"checkpointer": InMemorySaver()})
        >>> _ = run.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}})
        >>> [point.metadata["step"] for point in walk_chain(run.checkpointer, "t", None)]
        [-1, 0, 1, 2]
    """
    config = {"configurable": {"thread_id": thread}}
    points = {p.config["configurable"]["checkpoint_id"]: p for p in saver.list(config)}
    # Newest first: the head of this run. None when nothing ran (LangGraph reads a None
    # input as "resume from the last checkpoint", and a fresh thread has none).
    chain, point = [], next(iter(points.values()), None)
    while point is not None:
        chain.append(point)
        if point.config["configurable"]["checkpoint_id"] == stop or point.parent_config is None:
            break
        point = points.get(point.parent_config["configurable"]["checkpoint_id"])
    return chain[::-1]


def build_steps(
    chain: list[Any],
    log: TaskLog,
    run: CompiledGraph,
    payload: Any,
    model: type[BaseModel] | None,
    check: bool,
    lead: Step | None = None,
) -> list[Step]:
    """One Step per node execution along `chain`, each checked against `model` if `check`.

    `lead` (a fork's row for the checkpoint `chain` starts at) is summarised, checked and put
    first; LangGraph's own input task becomes the `__start__` row carrying `payload`.

    Example:
        >>> from core.order import SEED_PAYLOAD, AgentState, build_order_graph
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> run = build_order_graph().copy(update={"checkpointer": InMemorySaver()})
        >>> log = TaskLog(deadline=time.monotonic() + 10)
        >>> _ = run.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}, "callbacks": [log]})
        >>> chain = walk_chain(run.checkpointer, "t", None)
        >>> [s.node for s in build_steps(chain, log, run, SEED_PAYLOAD, AgentState, True)]
        ['__start__', 'validate_order', 'confirm']
    """
    if lead is not None:
        lead.status, lead.logs, lead.message_count = _summary(lead.state, model)
        if check and model is not None:
            _check([lead], model)
    steps: list[Step] = [lead] if lead else []
    if not chain:  # nothing ran: LangGraph refused the input before its first checkpoint
        return steps
    reducers = graph_reducers(run)
    # Each checkpoint's state read once: it is one step's `state` and the next one's `before`.
    values = [checkpoint_values(run, point.checkpoint) for point in chain]
    for n, (point, after) in enumerate(zip(chain, [*chain[1:], None], strict=True)):
        number = point.metadata["step"] + 1
        writes: dict[str, list[tuple[str, Any]]] = {}
        for task, channel, value in point.pending_writes or []:
            writes.setdefault(task, []).append((channel, value))
        for task, (step, _, _) in log.tasks.items():
            if step == number:
                writes.setdefault(task, [])  # a node that raised before writing anything
        before = values[n]
        base = Step(
            number,
            "__start__",
            update=payload,
            before=before,
            state=values[n + 1] if after else before,
            committed=after is not None,
            checkpoint=after.config if after else None,
        )
        rows = [_row(base, log, task, written, reducers) for task, written in writes.items()]
        rows.sort(key=lambda row: row.node)  # the order LangGraph applies a step's writes in
        if after is not None and check and model is not None:
            _check(rows, model)
        for row in rows:
            row.status, row.logs, row.message_count = _summary(row.state, model)
        steps.extend(rows)
    return steps


def _row(base: Step, log: TaskLog, task: str, written: list[Any], reducers: dict[str, str]) -> Step:
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


def checkpoint_values(graph: CompiledGraph, checkpoint: Checkpoint) -> dict[str, Any]:
    """The state LangGraph reads from a checkpoint, as `stream(stream_mode="values")` emits it.

    A checkpoint stores only written channels; a reducer channel never written still reads
    as its initial value (`logs: []`), a last-value channel never written is absent.

    Example:
        >>> from core.order import build_order_graph
        >>> checkpoint_values(build_order_graph(), {"channel_values": {"amount": 1}})
        {'amount': 1, 'logs': [], 'messages': []}
    """
    stored, out = checkpoint["channel_values"], {}
    for key in stream_channels(graph):
        if key in stored:
            out[key] = stored[key]
            continue
        with contextlib.suppress(EmptyChannelError):
            # stream channels are channels, never managed values (the other half of the union)
            out[key] = graph.channels[key].copy().get()  # type: ignore[union-attr]
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
