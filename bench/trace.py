"""Benchmark: run_trace(check_each_step=True) against a bare graph.invoke, as ratios in one run.

(a) the seed graph (2 nodes) on the seed payload (target <= 3x);
(b) a 20-node linear graph over the same state, each node appending one log line.
Prints numbers; never fails. Run: python bench/trace.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.trace import run_trace


def build_linear_graph(length: int = 20) -> CompiledStateGraph:
    """`START -> step_01 -> ... -> step_NN -> END` over `AgentState`; each node appends a log."""
    builder = StateGraph(AgentState)
    names = [f"step_{n:02d}" for n in range(1, length + 1)]
    for name in names:
        builder.add_node(name, lambda state, name=name: {"logs": [name]})
    for source, target in zip([START, *names], [*names, END], strict=True):
        builder.add_edge(source, target)
    return builder.compile()


def _ratio(ours: Callable[[], Any], bare: Callable[[], Any], rounds: int) -> tuple[float, float]:
    """Median seconds per call of each; calls interleaved so machine load hits both alike."""
    ours(), bare()  # warm-up: imports, compiled validators
    times: dict[str, list[float]] = {"ours": [], "bare": []}
    for _ in range(rounds):
        for name, func in (("ours", ours), ("bare", bare)):
            start = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - start)
    return statistics.median(times["ours"]), statistics.median(times["bare"])


def _report(title: str, graph: CompiledStateGraph, rounds: int) -> None:
    ours, bare = _ratio(
        lambda: run_trace(graph, SEED_PAYLOAD, check_each_step=True),
        lambda: graph.invoke(SEED_PAYLOAD),
        rounds,
    )
    print(
        f"{title}: graph.invoke {bare * 1000:.2f} ms, run_trace(check_each_step=True) "
        f"{ours * 1000:.2f} ms -> ratio {ours / bare:.2f}x"
    )


if __name__ == "__main__":
    _report("seed graph, 2 nodes (target <= 3x)", build_order_graph(), rounds=300)
    _report("linear graph, 20 nodes", build_linear_graph(20), rounds=60)
