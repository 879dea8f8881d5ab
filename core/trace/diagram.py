"""Compiled graph -> Graphviz DOT text, with the current node highlighted."""

from __future__ import annotations

from collections.abc import Iterable

from core.jsontext.write import dumps
from core.order.graph import CompiledGraph

__all__ = ["CURRENT_FILL", "FAILED_FILL", "graph_dot"]

# This app's theme primaryColor: the step shown is not an error, so not red (a failed node is
# dark red). White labels on it reach 5.2:1 contrast; it stands 3.7:1 off the dark theme's
# background (3:1 is the bar for graphics).
CURRENT_FILL = "#2563eb"
FAILED_FILL = "#7d353b"
_INK = "#808495"  # mid grey lines and labels: visible on both theme backgrounds
_PLAIN_FILL = "#f0f2f6"
_ENDS = ("__start__", "__end__")


def graph_dot(graph: CompiledGraph, current: Iterable[str] = (), failed: Iterable[str] = ()) -> str:
    """DOT text for `graph.get_graph()`: `current` nodes filled, conditional edges dashed.

    Built from LangGraph's own drawable graph, rendered by Graphviz in the browser: no
    network (unlike `draw_mermaid_png`, which calls mermaid.ink).

    Example:
        >>> from core.order import build_order_graph
        >>> dot = graph_dot(build_order_graph(), current=["confirm"])
        >>> [line.split(" [")[0].strip() for line in dot.splitlines() if CURRENT_FILL in line]
        ['"confirm"']
    """
    drawable = graph.get_graph()
    current, failed = set(current), set(failed)
    lines = [
        "digraph {",
        '  bgcolor="transparent";',
        f'  node [shape=box, style="rounded,filled", fillcolor="{_PLAIN_FILL}", '
        f'color="{_INK}", fontcolor="#31333f", fontname="sans-serif"];',
        f'  edge [color="{_INK}", fontcolor="{_INK}", fontname="sans-serif"];',
    ]
    for node_id in drawable.nodes:
        attrs = {"label": _quote(node_id)}
        if node_id in _ENDS:
            attrs["shape"] = "oval"
        if node_id in current or node_id in failed:
            fill = FAILED_FILL if node_id in failed else CURRENT_FILL
            attrs |= {"style": '"rounded,filled"', "fillcolor": f'"{fill}"'}
            attrs |= {"fontcolor": '"white"', "penwidth": "2"}
        lines.append(f"  {_quote(node_id)} [{_attrs(attrs)}];")
    for edge in drawable.edges:
        attrs = {"style": "dashed"} if edge.conditional else {}
        if edge.data is not None:
            attrs["label"] = _quote(str(edge.data))
        suffix = f" [{_attrs(attrs)}]" if attrs else ""
        lines.append(f"  {_quote(edge.source)} -> {_quote(edge.target)}{suffix};")
    lines.append("}")
    return "\n".join(lines)


def _quote(text: str) -> str:
    # JSON string escaping is also valid DOT string escaping for quotes and backslashes.
    return dumps(text)


def _attrs(attrs: dict[str, str]) -> str:
    return ", ".join(f"{key}={value}" for key, value in attrs.items())
