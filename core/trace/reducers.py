"""Which reducer merges each state field, read from the model's Annotated metadata or the graph."""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable, Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.channels import BinaryOperatorAggregate, LastValue
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.jsontext.write import dumps
from core.lg_compat import stream_channels
from core.order.graph import CompiledGraph

__all__ = [
    "ADD_MESSAGES",
    "DROPPED",
    "LAST_VALUE",
    "OPERATOR_ADD",
    "OVERWRITE",
    "dump_json",
    "graph_reducers",
    "merge_rows",
    "model_reducers",
    "reducer_for",
    "reducer_name",
]

OPERATOR_ADD = "operator.add"
ADD_MESSAGES = "add_messages"
LAST_VALUE = "last value"
OVERWRITE = "Overwrite"
DROPPED = "dropped"  # a key the state does not declare: LangGraph discards the write


def reducer_name(reducer: Callable[..., Any] | None) -> str:
    """The display name of a reducer function; `None` means "last value".

    Example:
        >>> reducer_name(operator.add), reducer_name(None)
        ('operator.add', 'last value')
    """
    if reducer is None:
        return LAST_VALUE
    if reducer is operator.add:
        return OPERATOR_ADD
    if reducer is add_messages:
        return ADD_MESSAGES
    module = getattr(reducer, "__module__", None)
    name = getattr(reducer, "__qualname__", None) or type(reducer).__qualname__
    return f"{module}.{name}" if module else name


def model_reducers(model: type[BaseModel]) -> dict[str, str]:
    """Field -> reducer name, from each field's `Annotated[..., reducer]` metadata.

    Example:
        >>> from core.order import AgentState
        >>> model_reducers(AgentState)["logs"], model_reducers(AgentState)["status"]
        ('operator.add', 'last value')
    """
    out = {}
    for name, info in model.model_fields.items():
        reducer = next((meta for meta in info.metadata if callable(meta)), None)
        out[name] = reducer_name(reducer)
    return out


def graph_reducers(graph: CompiledGraph) -> dict[str, str]:
    """Field -> reducer name, from the compiled graph's channels (what LangGraph really uses).

    Example:
        >>> from core.order import build_order_graph
        >>> graph_reducers(build_order_graph())["messages"]
        'add_messages'
    """
    out = {}
    for name in stream_channels(graph):
        channel = graph.channels[name]
        if isinstance(channel, BinaryOperatorAggregate):
            out[name] = reducer_name(channel.operator)
        elif isinstance(channel, LastValue):
            out[name] = LAST_VALUE
        else:
            out[name] = type(channel).__name__
    return out


def reducer_for(reducers: dict[str, str], field: str, write: Any) -> str:
    """The merge that one write to `field` gets: `Overwrite` wins, undeclared keys are dropped.

    Example:
        >>> reducer_for({"logs": "operator.add"}, "logs", Overwrite(["x"]))
        'Overwrite'
    """
    if field not in reducers:
        return DROPPED
    if isinstance(write, Overwrite):
        return OVERWRITE
    return reducers[field]


def dump_json(value: Any, indent: int | None = None) -> str:
    """JSON text of a state value; messages as type/content/id, `Overwrite` kept visible.

    Example:
        >>> dump_json({"logs": Overwrite(["x"])})
        '{"logs": {"Overwrite": ["x"]}}'
    """
    return dumps(value, default=_plain, indent=indent)


def _plain(value: Any) -> Any:
    if isinstance(value, BaseMessage):
        out = {"type": value.type, "content": value.content, "id": value.id}
        return out | (
            {"tool_calls": tool_calls} if (tool_calls := getattr(value, "tool_calls", None)) else {}
        )
    if isinstance(value, Overwrite):
        return {OVERWRITE: value.value}
    if isinstance(value, BaseModel):  # the fields it holds: a constructed one may lack some
        return {name: value.__dict__[name] for name in type(value).model_fields
                if name in value.__dict__}  # fmt: skip
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    return str(value)


def merge_rows(
    before: Mapping[str, Any], update: Any, after: Mapping[str, Any], reducers: Mapping[str, str]
) -> list[dict[str, str]]:
    """One row per field a node wrote: value before, the update, the reducer, value after.

    `after` is the merged state of the whole super-step (parallel writers included).

    Example:
        >>> rows = merge_rows({"logs": ["a"]}, {"logs": ["b"]}, {"logs": ["a", "b"]},
        ...                   {"logs": "operator.add"})
        >>> [(row["before"], row["update"], row["reducer"], row["after"]) for row in rows]
        [('["a"]', '["b"]', 'operator.add', '["a", "b"]')]
    """
    written = update if isinstance(update, Mapping) else {}
    return [
        {
            "field": name,
            "before": dump_json(before[name]) if name in before else "(unset)",
            "update": dump_json(written.get(name)),
            "reducer": reducer,
            "after": "(not a state field: discarded)"
            if reducer == DROPPED
            else _after(after, name),
        }
        for name, reducer in reducers.items()
    ]


def _after(after: Mapping[str, Any], name: str) -> str:
    return dump_json(after[name]) if name in after else "(unset)"
