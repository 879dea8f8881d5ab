"""Graphs with async nodes run through LangGraph's async API: same rows, bounds and forks."""

from __future__ import annotations

import asyncio
import operator
import time
from typing import Annotated

import pytest
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

from core.order import build_order_graph
from core.trace import run_trace
from core.trace.fork import fork_trace
from core.trace.invoke import needs_async


class Counter(BaseModel):
    n: Annotated[int, operator.add] = 0
    seen: list[int] = Field(default_factory=list)


def _counter_graph(*, node_async: bool, route_async: bool = False, pause: float = 0.0):
    async def atick(state: Counter) -> dict:
        await asyncio.sleep(pause)
        return {"n": 1, "seen": [*state.seen, state.n]}

    def tick(state: Counter) -> dict:
        return {"n": 1, "seen": [*state.seen, state.n]}

    async def aroute(state: Counter) -> str:
        return "tick" if state.n < 3 else END

    def route(state: Counter) -> str:
        return "tick" if state.n < 3 else END

    builder = StateGraph(Counter)
    builder.add_node("tick", atick if node_async else tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", aroute if route_async else route)
    return builder.compile()


def _subgraph_parent():
    parent = StateGraph(Counter)
    parent.add_node("inner", _counter_graph(node_async=True))
    parent.add_edge(START, "inner")
    parent.add_edge("inner", END)
    return parent.compile()


async def _astream_values(graph, payload, **config):
    return [chunk async for chunk in graph.astream(payload, config, stream_mode="values")]


def test_async_nodes_branches_and_subgraphs_are_read_off_langgraphs_node_objects():
    assert [
        needs_async(build_order_graph()),
        needs_async(_counter_graph(node_async=False)),
        needs_async(_counter_graph(node_async=True)),
        needs_async(_counter_graph(node_async=False, route_async=True)),
        needs_async(_subgraph_parent()),
    ] == [False, False, True, True, True]
    with pytest.raises(TypeError, match="No synchronous function provided"):
        _counter_graph(node_async=True).invoke({"n": 0})


@pytest.mark.parametrize("route_async", [False, True])
def test_an_async_graph_runs_and_its_states_equal_langgraphs_astream(route_async):
    expected = asyncio.run(_astream_values(_counter_graph(node_async=True), {"n": 0}))
    returned = asyncio.run(
        _counter_graph(node_async=True, route_async=route_async).ainvoke({"n": 0})
    )

    trace = run_trace(_counter_graph(node_async=True, route_async=route_async), {"n": 0})

    assert (trace.error, trace.output, trace.output_model) == (None, returned, Counter(**returned))
    assert [step.state for step in trace.steps] == expected
    assert [(s.node, s.update, s.changed) for s in trace.steps] == [
        ("__start__", {"n": 0}, ["n"]),
        ("tick", {"n": 1, "seen": [0]}, ["n", "seen"]),
        ("tick", {"n": 1, "seen": [0, 1]}, ["n", "seen"]),
        ("tick", {"n": 1, "seen": [0, 1, 2]}, ["n", "seen"]),
    ]


def test_an_async_graph_gives_the_same_rows_as_its_sync_twin():
    sync = run_trace(_counter_graph(node_async=False), {"n": 0})
    run_async = run_trace(_counter_graph(node_async=True), {"n": 0})

    assert run_async.rows() == sync.rows()
    assert [s.input for s in run_async.steps] == [s.input for s in sync.steps]


def test_a_subgraph_of_async_nodes_runs_as_langgraph_runs_it():
    returned = asyncio.run(_subgraph_parent().ainvoke({"n": 0}))

    trace = run_trace(_subgraph_parent(), {"n": 0})

    assert (trace.error, trace.output) == (None, returned)
    assert [(s.node, s.state) for s in trace.steps] == [
        ("__start__", {"n": 0}),  # `seen` has no reducer and was never written: absent
        ("inner", {"n": 3, "seen": [0, 1, 2]}),
    ]


def test_an_async_run_stops_at_its_recursion_limit_as_ainvoke_does():
    with pytest.raises(Exception) as raised:
        asyncio.run(_counter_graph(node_async=True).ainvoke({"n": 0}, {"recursion_limit": 2}))

    trace = run_trace(_counter_graph(node_async=True), {"n": 0}, recursion_limit=2)

    assert (trace.error.code, trace.error.type, trace.error.message) == (
        "recursion_limit", type(raised.value).__name__, str(raised.value)
    )  # fmt: skip
    assert [s.node for s in trace.steps] == ["__start__", "tick", "tick"]


def test_an_awaiting_node_is_stopped_by_the_wall_clock_budget():
    started = time.perf_counter()
    trace = run_trace(_counter_graph(node_async=True, pause=30), {"n": 0}, timeout_s=0.2)
    elapsed = time.perf_counter() - started

    assert (trace.error.code, trace.error.type, trace.error.step) == (
        "trace_timeout", "TraceTimeout", 1
    )  # fmt: skip
    assert [(s.node, s.committed, s.error) for s in trace.steps] == [
        ("__start__", True, ""),
        ("tick", False, "TraceTimeout: [trace_timeout] the run passed its time budget"),
    ]
    assert elapsed < 5


def test_a_trace_started_inside_a_running_event_loop_runs_in_a_worker_thread():
    async def inside() -> list:
        return run_trace(_counter_graph(node_async=True), {"n": 0}).rows()

    assert asyncio.run(inside()) == run_trace(_counter_graph(node_async=True), {"n": 0}).rows()


def test_a_fork_of_an_async_run_resumes_through_astream():
    trace = run_trace(_counter_graph(node_async=True), {"n": 0})

    fork = fork_trace(trace, 1, {"n": 1, "seen": [7]})

    assert fork.error is None
    assert [(s.node, s.state) for s in fork.steps] == [
        ("update_state", {"n": 1, "seen": [7]}),
        ("tick", {"n": 2, "seen": [7, 1]}),
        ("tick", {"n": 3, "seen": [7, 1, 2]}),
    ]
    assert fork.output == {"n": 3, "seen": [7, 1, 2]}
    assert trace.output == {"n": 3, "seen": [0, 1, 2]}  # the original run is intact


def test_an_async_graph_is_gated_like_a_sync_one():
    with pytest.raises(Exception) as raised:  # operator.add: 0 + "x", before any node
        asyncio.run(_counter_graph(node_async=True).ainvoke({"n": "x"}))

    refused = run_trace(_counter_graph(node_async=True), {"n": "x"})
    native = run_trace(_counter_graph(node_async=True), {"n": "x"}, check_each_step=False)

    assert ([(e.type, e.path) for e in refused.gate_errors], refused.ran) == (
        [("int_parsing", "n")], False
    )  # fmt: skip
    assert (native.ran, native.error.type, native.error.message) == (
        True, type(raised.value).__name__, str(raised.value)
    )  # fmt: skip
