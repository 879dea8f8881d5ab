"""The seed order's graphs: `START -> validate_order -> confirm -> END`, its faults, a fan-out."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeAlias

from langchain_core.messages import AIMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.order.models import AgentState

__all__ = [
    "FAULTS",
    "CompiledGraph",
    "UnknownFaultError",
    "build_fanout_graph",
    "build_order_graph",
]


# Any compiled StateGraph: LangGraph's four type parameters are the graph's business.
CompiledGraph: TypeAlias = CompiledStateGraph[Any, Any, Any, Any]

FAULTS: dict[str, str] = {
    "negative_amount": "validate_order also writes amount=-1",
    "bad_status_last": 'confirm writes status="shipped" (not an allowed literal)',
    "undeclared_key": 'validate_order also writes {"totl": 1}, a key the state does not declare',
    "parallel_status": "a parallel audit node writes status in the same step as validate_order",
    "overwrite_logs": 'confirm writes logs=Overwrite(["confirmed"]), bypassing operator.add',
    "node_exception": 'confirm raises RuntimeError("payment service unavailable")',
}


class UnknownFaultError(CodedError, ValueError):
    """A fault id that `FAULTS` does not define (code: unknown_fault)."""

    def __init__(self, unknown: Iterable[str]) -> None:
        self.unknown = sorted(unknown)
        super().__init__(
            ErrorCode.UNKNOWN_FAULT,
            f"unknown fault id(s) {', '.join(map(repr, self.unknown))}; "
            f"choose from {', '.join(FAULTS)}",
        )


def _check_faults(faults: Iterable[str]) -> frozenset[str]:
    chosen = frozenset(faults)
    unknown = chosen - FAULTS.keys()
    if unknown:
        raise UnknownFaultError(unknown)
    return chosen


def build_order_graph(
    faults: Iterable[str] = (), *, state: type[BaseModel] | None = None
) -> CompiledGraph:
    """Compile `START -> validate_order -> confirm -> END` over `AgentState`.

    Each fault id in `faults` (see `FAULTS`) makes one node misbehave. `state` replaces
    `AgentState` with a variant of it (the schema options' model: same fields and reducers).

    Example:
        >>> graph = build_order_graph(["bad_status_last"])
        >>> sorted(graph.get_graph().nodes)
        ['__end__', '__start__', 'confirm', 'validate_order']
    """
    chosen = _check_faults(faults)

    def validate_order(state: AgentState) -> dict[str, Any]:
        update: dict[str, Any] = {
            "status": "validated",
            "logs": [f"amount={state.amount} items={len(state.items)}"],
            "messages": [AIMessage(content="Order validated")],
        }
        if "negative_amount" in chosen:
            update["amount"] = -1
        if "undeclared_key" in chosen:
            update["totl"] = 1
        return update

    def confirm(state: AgentState) -> dict[str, Any]:
        if "node_exception" in chosen:
            raise RuntimeError("payment service unavailable")
        update: dict[str, Any] = {"status": "confirmed", "logs": ["confirmed"]}
        if "bad_status_last" in chosen:
            update["status"] = "shipped"
        if "overwrite_logs" in chosen:
            update["logs"] = Overwrite(["confirmed"])
        return update

    def audit(state: AgentState) -> dict[str, Any]:
        return {"status": "pending"}

    # Each node reads `state`, not the AgentState its annotation names: LangGraph builds a
    # node's input from its annotation, which would undo the schema options' variant.
    schema: Any = state or AgentState  # Any: the node functions' annotation types them
    builder = StateGraph(schema)
    builder.add_node("validate_order", validate_order, input_schema=schema)
    builder.add_node("confirm", confirm, input_schema=schema)
    builder.add_edge(START, "validate_order")
    builder.add_edge("validate_order", "confirm")
    builder.add_edge("confirm", END)
    if "parallel_status" in chosen:
        builder.add_node("audit", audit, input_schema=schema)
        builder.add_edge(START, "audit")
        builder.add_edge("audit", "confirm")
    return builder.compile()


def build_fanout_graph(*, state: type[BaseModel] | None = None) -> CompiledGraph:
    """Compile a graph where two parallel nodes append to `logs` and `messages` in one step.

    `START -> validate_order -> (notify_email, notify_sms) -> confirm -> END`; the two
    notifiers run in the same super-step, so their writes are merged by the reducers.
    `state` replaces `AgentState` as in `build_order_graph`.

    Example:
        >>> sorted(build_fanout_graph().get_graph().nodes)[:3]
        ['__end__', '__start__', 'confirm']
    """

    def validate_order(state: AgentState) -> dict[str, Any]:
        return {
            "status": "validated",
            "logs": [f"amount={state.amount} items={len(state.items)}"],
            "messages": [AIMessage(content="Order validated")],
        }

    def notify_email(state: AgentState) -> dict[str, Any]:
        return {"logs": ["email sent"], "messages": [AIMessage(content="email sent")]}

    def notify_sms(state: AgentState) -> dict[str, Any]:
        return {"logs": ["sms sent"], "messages": [AIMessage(content="sms sent")]}

    def confirm(state: AgentState) -> dict[str, Any]:
        return {"status": "confirmed", "logs": ["confirmed"]}

    schema: Any = state or AgentState  # as in build_order_graph
    builder = StateGraph(schema)
    for name, node in [
        ("validate_order", validate_order),
        ("notify_email", notify_email),
        ("notify_sms", notify_sms),
        ("confirm", confirm),
    ]:
        builder.add_node(name, node, input_schema=schema)  # as in build_order_graph
    builder.add_edge(START, "validate_order")
    builder.add_edge("validate_order", "notify_email")
    builder.add_edge("validate_order", "notify_sms")
    builder.add_edge(["notify_email", "notify_sms"], "confirm")
    builder.add_edge("confirm", END)
    return builder.compile()
