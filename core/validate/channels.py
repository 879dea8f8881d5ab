"""An input written into a state through LangGraph's own channels, as its entry writes it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.channels.base import BaseChannel
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.channels.last_value import LastValue
from langgraph.errors import EmptyChannelError

from core.order.graph import CompiledGraph
from core.validate.field_errors import crash_error

__all__ = ["write_input"]


def write_input(
    graph: CompiledGraph, state: Mapping[str, Any], values: Mapping[str, Any]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The state after LangGraph writes `values` (a graph input) into `state`, and what raised.

    Each key is written through its channel of `graph` (the compiled graph's own channel
    objects, so each reducer runs as in a run: `add_messages` converts role-style dicts and
    strings, `operator.add` appends, a plain field is replaced); a key no channel takes is
    dropped, as LangGraph drops it; a reducer field neither holds starts empty, as its
    channel does (a list field with no default is then [], not missing). A reducer that
    raises (add_messages on a message with neither `type` nor `role`) leaves that field as
    it was and gives an error row placed at the key, as the Validate page's entry verdict
    reports it. Neither `state` nor `values` is changed: the reducers work on copies.

    Example:
        >>> from core.order import AgentState
        >>> from core.validate.entry_run import entry_graph
        >>> state, raised = write_input(
        ...     entry_graph(AgentState), {"logs": ["a"]},
        ...     {"logs": ["b"], "messages": [{"role": "user", "content": "hi", "id": "1"}],
        ...      "coupon": "X"})
        >>> state["logs"], type(state["messages"][0]).__name__, "coupon" in state, raised
        (['a', 'b'], 'HumanMessage', False, [])
    """
    channels = graph.channels
    written = dict(state)
    raised: list[dict[str, Any]] = []
    for key, value in values.items():
        spec = channels.get(key)
        if not isinstance(spec, BaseChannel) or key.startswith("__") or ":" in key:
            continue  # no channel takes it, or one of LangGraph's own
        if type(spec) is LastValue:  # one write to a plain field: LastValue keeps it as it is
            written[key] = value
            continue
        try:
            # copies: a reducer may change what it is given (add_messages gives each message
            # without an id one), and a reader may share one decoded value between states
            channel = (
                spec.from_checkpoint(_for_reducer(written[key])) if key in written else spec.copy()
            )
            channel.update([_for_reducer(value)])
            written[key] = channel.get()
        except Exception as exc:  # noqa: BLE001 - whatever the reducer raises is the verdict
            raised.append(crash_error(exc, (key,), value, by="langgraph"))
    for key, spec in channels.items():  # a reducer channel exists from the start, empty
        if key not in written and type(spec) is BinaryOperatorAggregate:
            try:
                written[key] = spec.copy().get()
            except EmptyChannelError:  # a reducer over a type with no empty value
                pass
    return written, raised


def _for_reducer(value: Any) -> Any:
    """`value` as a reducer may take it: a list or dict copied one level, and each message
    without an id copied (add_messages gives it one, in place). Anything else a reducer
    changes in place is the caller's; LangGraph's own reducers change nothing else."""
    if isinstance(value, list):
        return [_own_message(item) for item in value]
    if isinstance(value, dict):
        return dict(value)
    return _own_message(value)


def _own_message(value: Any) -> Any:
    return value.model_copy() if isinstance(value, BaseMessage) and value.id is None else value
