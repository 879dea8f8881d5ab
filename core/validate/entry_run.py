"""LangGraph's own entry verdict on a payload: runs the first node, or raises before it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, TypeGuard

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from core.jsontext.paths import format_path
from core.lg_compat import builder_of, input_schema, node_input, schema_keys
from core.order.graph import CompiledGraph
from core.validate.crashes import in_payload_order, pin_crashes, without
from core.validate.field_errors import (
    FieldError,
    crash_error,
    error_rows,
    payload_path,
    position_errors,
    value_errors,
)
from core.validate.run_saver import run_saver
from core.words import count

__all__ = ["MAX_NAMED", "EntryVerdict", "entry_graph", "langgraph_entry"]

MAX_NAMED = 5  # fields named in the one-line error; the rest are counted


@dataclass
class EntryVerdict:
    """What LangGraph did with a payload, up to the moment its first node would start."""

    runs: bool  # the first node's input was built: LangGraph runs it
    input_schema: type | None  # what the payload is written through (input_schema or state)
    first_nodes: list[str] = field(default_factory=list)
    error: str | None = None  # what LangGraph raised, one line (type and message)
    errors: list[FieldError] = field(default_factory=list)  # each part it rejects, placed
    channels: dict[str, Any] | None = None  # channel values after the input was written
    node_saw: dict[str, Any] | None = None  # the first node's input, as LangGraph built it
    dropped: list[str] = field(default_factory=list)  # keys no input channel takes


@lru_cache(maxsize=32)  # keyed by model class: server-side models, never user data
def entry_graph(model: type[BaseModel]) -> CompiledGraph:
    """The smallest graph over `model`: START -> one node -> END (for a model with no graph).

    Example:
        >>> from core.order import AgentState
        >>> sorted(entry_graph(AgentState).nodes)
        ['__start__', 'entry']
    """
    builder = StateGraph(model)
    builder.add_node("entry", _no_write)
    builder.add_edge(START, "entry")
    builder.add_edge("entry", END)
    return builder.compile()


def _no_write(state: Any) -> dict[str, Any]:
    return {}


def langgraph_entry(graph: CompiledGraph, payload: Any, text: str | None = None) -> EntryVerdict:
    """Run `graph` on `payload` up to its first node, with LangGraph's own machinery.

    LangGraph writes the payload through the input schema's channels (reducers applied:
    `add_messages` converts role-style dicts and strings; a reducer channel without a
    default starts empty), then builds the first node's input with its model. The run is
    interrupted before any node executes (`interrupt_before="*"`), so no node code runs.
    When LangGraph raises something other than ValidationError (add_messages' ValueError,
    a discriminator's TypeError), the smallest part of the payload that raises it is pinned
    and the rest is run again, so every error is reported. With `text`, each error gets its
    line:col in that text.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> payload = SEED_PAYLOAD | {"messages": [{"role": "user", "content": "hi"}]}
        >>> verdict = langgraph_entry(build_order_graph(), payload | {"coupon": "X"})
        >>> verdict.runs, verdict.first_nodes, verdict.dropped
        (True, ['validate_order'], ['coupon'])
        >>> verdict.node_saw["messages"][0]["type"]
        'human'
    """
    builder = builder_of(graph)
    schema = input_schema(builder)
    verdict = EntryVerdict(runs=False, input_schema=schema)
    if isinstance(payload, dict):
        taken = schema_keys(builder, schema)
        verdict.dropped = [key for key in payload if key not in taken]
    exc, run, config, seen = _attempt(graph, payload)
    if exc is None:
        verdict.runs = True
        _record_state(verdict, run, config, seen)
        return verdict
    verdict.error = _one_line(exc)
    raw: list[dict[str, Any]] = []
    own = _own_models(builder)
    if _is_own(exc, own):
        raw = error_rows(exc)
        _record_state(verdict, run, config, None)
    else:
        pinned = pin_crashes(payload, _crash_of(graph, own))
        holes = [crash.loc for crash in pinned.crashes]
        raw = [row for c in pinned.crashes for row in _crash_rows(c.exc, c.loc, c.input)]
        rest_exc = _attempt(graph, pinned.rest)[0] if () not in holes else None
        if _is_own(rest_exc, own):
            rest = [e | {"loc": pinned.restore(e["loc"])} for e in error_rows(rest_exc)]
            raw += [e for e in rest if without(payload_path(e["loc"], payload), holes)]
        raw = in_payload_order(raw, payload)
    verdict.errors = position_errors(raw, text) if text is not None else value_errors(raw, payload)
    return verdict


def _attempt(
    graph: CompiledGraph, payload: Any
) -> tuple[BaseException | None, Any, RunnableConfig, dict[str, Any] | None]:
    """One interrupted run on a copy with its own checkpointer: what it raised, if anything,
    and the last checkpoint LangGraph streamed (its channel values and next tasks)."""
    run = graph.copy(update={"checkpointer": run_saver(graph, lenient=True)})
    config: RunnableConfig = {"configurable": {"thread_id": "entry"}, "recursion_limit": 5}
    seen: list[dict[str, Any]] = []
    try:
        seen += run.stream(payload, config, stream_mode="checkpoints", interrupt_before="*")
    except TypeError as exc:
        if "synchronous" not in str(exc):
            return exc, run, config, None
        # An async routing function at START: LangGraph's async API, as its users run it.
        try:
            seen += asyncio.run(_drain(run, payload, config))
        except Exception as async_exc:  # noqa: BLE001 - whatever LangGraph raises is the verdict
            return async_exc, run, config, None
    except Exception as exc:  # noqa: BLE001 - whatever LangGraph raises is the verdict
        return exc, run, config, None
    return None, run, config, seen[-1] if seen else None


async def _drain(run: Any, payload: Any, config: RunnableConfig) -> list[dict[str, Any]]:
    stream = run.astream(payload, config, stream_mode="checkpoints", interrupt_before="*")
    return [event async for event in stream]


def _own_models(builder: Any) -> frozenset[str]:
    """The names of the models LangGraph validates a payload with: a ValidationError titled
    otherwise was raised inside a reducer (add_messages building a message from a dict), its
    locations relative to that part, not to the payload."""
    schemas = (input_schema(builder), getattr(builder, "state_schema", None))
    return frozenset(getattr(schema, "__name__", "") for schema in schemas) - {""}


def _is_own(exc: BaseException | None, own: frozenset[str]) -> TypeGuard[ValidationError]:
    return isinstance(exc, ValidationError) and exc.title in own


def _crash_rows(exc: BaseException, loc: tuple[str | int, ...], value: Any) -> list[dict[str, Any]]:
    """The error rows of a part that made LangGraph raise before its model judged it: a
    reducer's ValidationError (a message's own fields) placed under the part, each row;
    anything else, one row at the part."""
    if isinstance(exc, ValidationError):
        return [row | {"loc": (*loc, *row["loc"])} for row in error_rows(exc)]
    return [crash_error(exc, loc, value, by="langgraph")]


def _crash_of(graph: CompiledGraph, own: frozenset[str]) -> Any:
    def crash(payload: Any) -> BaseException | None:
        exc = _attempt(graph, payload)[0]
        return None if exc is None or _is_own(exc, own) else exc

    return crash


def _record_state(
    verdict: EntryVerdict, run: Any, config: RunnableConfig, seen: dict[str, Any] | None
) -> None:
    """Channel values after the input, the first nodes, and what LangGraph hands the first.

    `seen` is the checkpoint LangGraph streamed before stopping at the first node (free);
    without it (a ValidationError stops LangGraph before it streams one), the saved state.
    """
    if seen is None:
        if getattr(run.checkpointer.serde, "unstored", False):
            return  # a value our saver could not hold: the saved state is not the run's
        try:
            snapshot = run.get_state(config)
        except Exception:  # noqa: BLE001 - no checkpoint: LangGraph stopped writing the input
            return
        values, tasks = dict(snapshot.values), [task.name for task in snapshot.tasks]
    else:
        values, tasks = seen["values"], [task["name"] for task in seen["tasks"]]
    verdict.channels = _jsonable(values)
    verdict.first_nodes = sorted(tasks)  # LangGraph's task order is not stable
    if not verdict.runs or not verdict.first_nodes:
        return
    saw = node_input(run.nodes[verdict.first_nodes[0]], values)  # LangGraph's own mapper
    verdict.node_saw = _jsonable(saw.model_dump() if isinstance(saw, BaseModel) else saw)


def _one_line(exc: BaseException) -> str:
    """`ValidationError: 2 errors: user_id (uuid_parsing), amount (…)`, or type: first line."""
    if isinstance(exc, ValidationError):
        named = [f"{format_path(e['loc'])} ({e['type']})" for e in exc.errors()[:MAX_NAMED]]
        more = exc.error_count() - len(named)
        listed = ", ".join(named + [f"{more:,} more"] * bool(more))
        return f"ValidationError: {count(exc.error_count(), 'error')}: {listed}"
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {first}".rstrip(": ")


def _jsonable(value: Any) -> Any:
    return to_jsonable_python(value, fallback=repr)
