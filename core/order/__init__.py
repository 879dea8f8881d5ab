"""The seed order: the article's state models, its graphs and faults (presets: submodules).

The names load on first use (PEP 562): the models and graphs import LangGraph, and the
Validate page paints its editor from `core.order.seed` before LangGraph is loaded.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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
_HOME = {
    "FAULTS": "core.order.graph",
    "UnknownFaultError": "core.order.graph",
    "build_fanout_graph": "core.order.graph",
    "build_order_graph": "core.order.graph",
    "SEED_PAYLOAD": "core.order.models",
    "AgentState": "core.order.models",
    "LineItem": "core.order.models",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
