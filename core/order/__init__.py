"""The seed order: the article's state models, its graphs and faults (presets: submodules)."""

from __future__ import annotations

from core.order.graph import (
    FAULTS,
    UnknownFaultError,
    build_fanout_graph,
    build_order_graph,
)
from core.order.models import SEED_PAYLOAD, AgentState, LineItem

__all__ = [
    "FAULTS",
    "SEED_PAYLOAD",
    "AgentState",
    "LineItem",
    "UnknownFaultError",
    "build_fanout_graph",
    "build_order_graph",
]
