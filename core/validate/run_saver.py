"""A checkpointer per run whose deserializer reads back only the graph's own types."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

from core.lg_compat import (
    branches_of,
    build_serde_allowlist,
    builder_of,
    channels_of,
    context_schema,
    input_schema,
    nodes_of,
    output_schema,
    state_schema,
)
from core.order.graph import CompiledGraph

__all__ = ["graph_schemas", "run_saver", "serde_allowlist"]


class _Unstored(JsonPlusSerializer):
    """Stores what msgpack cannot hold (an integer past 64 bits) as null instead of raising;
    `unstored` says whether it had to, so nothing read back from it is mistaken for a value."""

    unstored = False

    def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
        try:
            return super().dumps_typed(obj)
        except (TypeError, ValueError, OverflowError):
            self.unstored = True
            return ("null", b"")


def run_saver(graph: CompiledGraph, *, lenient: bool = False) -> InMemorySaver:
    """A fresh `InMemorySaver` with an explicit msgpack allow-list and no pickle.

    The list is the one LangGraph's own `compile()` builds under `LANGGRAPH_STRICT_MSGPACK`
    (LangChain messages, then every type the schemas name), over this graph's and each
    subgraph's schemas: a run gives the same states whether that variable is set or not, and
    nothing a state holds is imported by name unless a schema declares it.

    `lenient`: for LangGraph's entry verdict, where the checkpointer is only our way to stop
    before the first node (interrupts need one) and the user's graph may have none, a value
    msgpack cannot hold is saved as null rather than raising in our saver.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.lg_compat import msgpack_allowlist
        >>> saver = run_saver(build_order_graph())
        >>> ("core.order", "LineItem") in msgpack_allowlist(saver.serde)
        True
    """
    serde = (_Unstored if lenient else JsonPlusSerializer)(
        pickle_fallback=False, allowed_msgpack_modules=serde_allowlist(graph)
    )
    return InMemorySaver(serde=serde)


# Keyed by the compiled graph (the page's cached entry graphs, the project's own graph):
# server-side objects, never user data. Collecting the list walks every schema's type hints,
# 1.5 ms of each Validate round trip's LangGraph run when it was done per run.
@lru_cache(maxsize=32)
def serde_allowlist(graph: CompiledGraph) -> frozenset[tuple[str, ...]]:
    """The msgpack allow-list `run_saver` gives `graph`'s runs, collected once per graph.

    Example:
        >>> from core.order import build_order_graph
        >>> graph = build_order_graph()
        >>> serde_allowlist(graph) is serde_allowlist(graph)
        True
    """
    schemas, channels = graph_schemas(graph), channels_of(builder_of(graph))
    return frozenset(build_serde_allowlist(schemas=schemas, channels=channels))


def graph_schemas(graph: Any) -> list[type]:
    """The schemas `compile()` collects (state, input, output, context, each node's and each
    branch's input), for the graph and every subgraph in it."""
    schemas: list[type] = []
    for each in [graph, *(sub for _, sub in graph.get_subgraphs(recurse=True))]:
        builder = builder_of(each)
        if builder is None:
            continue  # a Pregel graph without a StateGraph builder declares no schemas
        schemas += [state_schema(builder), input_schema(builder), output_schema(builder)]
        context = context_schema(builder)
        schemas += [context] if context is not None else []
        schemas += [node.input_schema for node in nodes_of(builder)]
        schemas += [b.input_schema for b in branches_of(builder) if b.input_schema is not None]
    return schemas
