"""graph_dot: LangGraph's own drawable graph as DOT, current node highlighted, offline."""

from __future__ import annotations

from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from core.order import build_order_graph
from core.trace.diagram import CURRENT_FILL, FAILED_FILL, graph_dot

HEADER = [
    "digraph {",
    '  bgcolor="transparent";',
    '  node [shape=box, style="rounded,filled", fillcolor="#f0f2f6", color="#808495", '
    'fontcolor="#31333f", fontname="sans-serif"];',
    '  edge [color="#808495", fontcolor="#808495", fontname="sans-serif"];',
]


def test_seed_graph_dot_highlights_the_current_node():
    dot = graph_dot(build_order_graph(), current=["confirm"])

    assert dot.splitlines() == [
        *HEADER,
        '  "__start__" [label="__start__", shape=oval];',
        '  "validate_order" [label="validate_order"];',
        f'  "confirm" [label="confirm", style="rounded,filled", fillcolor="{CURRENT_FILL}", '
        'fontcolor="white", penwidth=2];',
        '  "__end__" [label="__end__", shape=oval];',
        '  "__start__" -> "validate_order";',
        '  "validate_order" -> "confirm";',
        '  "confirm" -> "__end__";',
        "}",
    ]


def test_failed_node_gets_its_own_fill_and_parallel_edges_are_drawn():
    dot = graph_dot(build_order_graph(["parallel_status"]), failed=["audit"])

    assert [line for line in dot.splitlines() if "fillcolor" in line][1:] == [
        f'  "audit" [label="audit", style="rounded,filled", fillcolor="{FAILED_FILL}", '
        'fontcolor="white", penwidth=2];'
    ]
    assert '  "__start__" -> "audit";' in dot.splitlines()


def test_conditional_edges_are_dashed_and_odd_names_are_quoted():
    class State(TypedDict):
        n: int

    builder = StateGraph(State)
    builder.add_node('say "hi"', lambda state: {})
    builder.add_node("other", lambda state: {})
    builder.add_conditional_edges(START, lambda s: "a", {"a": 'say "hi"', "b": "other"})
    builder.add_edge('say "hi"', END)
    builder.add_edge("other", END)

    edges = [line for line in graph_dot(builder.compile()).splitlines() if "->" in line]

    assert edges == [
        '  "__start__" -> "other" [style=dashed, label="b"];',
        '  "__start__" -> "say \\"hi\\"" [style=dashed, label="a"];',
        '  "other" -> "__end__";',
        '  "say \\"hi\\"" -> "__end__";',
    ]
