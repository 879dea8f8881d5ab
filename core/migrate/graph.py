"""The graph a migration writes through: the threads' own graph, its state the candidate."""

from __future__ import annotations

from typing import Any

from langgraph.graph import StateGraph
from pydantic import BaseModel

from core.lg_compat import branches_of, builder_of, edges_of, nodes_of, waiting_edges_of
from core.order.graph import CompiledGraph

__all__ = ["with_state"]


def with_state(graph: CompiledGraph, candidate: type[BaseModel]) -> StateGraph[Any]:
    """`graph`'s nodes, edges and branches over the state `candidate` (not compiled).

    A fork written with LangGraph's `update_state` as the node that wrote the checkpoint
    keeps the thread's next tasks only on a graph of the same nodes and edges; its state
    must be the candidate, or LangGraph validates the migrated state with the old model.
    The nodes' own input schemas are dropped: each reads the candidate, as the state.

    Example:
        >>> from core.order import AgentState, build_order_graph
        >>> rebuilt = with_state(build_order_graph(), AgentState).compile()
        >>> sorted(rebuilt.get_graph().nodes)
        ['__end__', '__start__', 'confirm', 'validate_order']
    """
    builder = builder_of(graph)
    rebuilt = StateGraph(candidate)
    for node in nodes_of(builder):
        rebuilt.add_node(node.name, node.runnable, **node.options)
    for start, end in edges_of(builder):
        rebuilt.add_edge(start, end)
    for starts, end in waiting_edges_of(builder):
        rebuilt.add_edge(list(starts), end)
    for branch in branches_of(builder):
        rebuilt.add_conditional_edges(branch.source, branch.path, branch.ends)
    return rebuilt
