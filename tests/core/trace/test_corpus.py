"""Our corpus of graphs with Pydantic state (tests/fixtures/corpus): LangGraph native traces
equal what LangGraph itself streams and returns, step by step, on a fresh copy of each graph."""

from __future__ import annotations

import asyncio
import importlib
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.state import CompiledStateGraph

from core.trace import run_trace
from core.trace.invoke import needs_async
from core.trace.reducers import dump_json
from core.validate.entry_run import EntryVerdict, langgraph_entry

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@dataclass(frozen=True)
class Case:
    module: str  # corpus.<module>
    graph: str | Callable[[Any], CompiledStateGraph]  # its attribute, or how to build it
    payload: dict[str, Any]
    features: str  # what it covers, as tests/fixtures/corpus/README.md lists it


CORPUS = [
    Case("plain_state", "graph", {"water_ml": 500}, "pydantic state, defaults never written"),
    Case("nested_state", "graph",
         {"label": "Books", "recipient": {"city": "leeds", "postcode": "ls1 4ap"},
          "size": {"length_cm": 30, "width_cm": 20, "height_cm": 12}},
         "nested models written as an instance and as a dict"),
    Case("chat_no_reducer", "graph",
         {"messages": [{"type": "human", "content": "Is it muddy?", "id": "h1"}],
          "trail": "Ridge Loop"}, "message list without a reducer"),
    Case("chat_add_messages", "graph", {"messages": [["user", "pretty bird"]]},
         "add_messages with and without a default, role tuples, RemoveMessage"),
    Case("fanout_join", "graph",
         {"destination": "  york ", "traveller": {"name": "Ada", "rail_card": True}},
         "input/output schemas, reducer without default, fan-out, waiting edge, model updates"),
    Case("async_fanout", "graph", {"station": " kew "},
         "async nodes and branch, input/output schemas, reducer without default, waiting edge"),
    Case("goto_without_edges", "graph", {"subject": " Invoice 42 is wrong ", "priority": 1},
         "Command(update=model, goto=...) with no edge"),
    Case("reducers_loop", lambda module: module.build_greenhouse(3).compile(),
         {"zone": "South", "readings": [{"cycle": -1, "temp_c": 16.0}]},
         "custom reducers, validators, partial nodes, fan-out, waiting edge, loop"),
    Case("review_subgraph", "graph",
         {"messages": [{"type": "human", "content": "Taxi to the client, 38.50 EUR", "id": "ask"}]},
         "subgraph, Command, add_messages with a default, interrupt"),
    Case("tool_agent", "graph",
         {"messages": [{"type": "human", "content": "Do you have Dune and Middlemarch?", "id": "q"}],
          "branch": "Hillside"}, "fake chat model, ToolNode, InjectedState, Send, add_messages"),
]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _corpus_importable():
    sys.path.insert(0, str(FIXTURES))
    yield
    sys.path.remove(str(FIXTURES))


def _fresh(case: Case) -> CompiledStateGraph:
    # Reloaded, so every run gets its own graph and fake chat model (they count their turns).
    module = importlib.reload(importlib.import_module(f"corpus.{case.module}"))
    return getattr(module, case.graph) if isinstance(case.graph, str) else case.graph(module)


def _normal(value: Any) -> str:
    """JSON text with generated ids (message uuid4s, interrupt ids) named by first appearance."""
    names: dict[str, str] = {}
    return re.sub(
        r'"id": "([0-9a-f-]{32,36})"',
        lambda m: f'"id": "#{names.setdefault(m.group(1), str(len(names) + 1))}"',
        dump_json(value),
    )


def _langgraph(case: Case) -> tuple[list[Any], Any]:
    """LangGraph's own run on a fresh copy: the stream_mode="values" states, invoke's return.

    Each graph is built, then run, before the next is built: reloading the module rebinds the
    globals its nodes read (its model classes among them).
    """
    config = {"configurable": {"thread_id": "oracle"}, "recursion_limit": 25}

    def fresh() -> CompiledStateGraph:
        return _fresh(case).copy(update={"checkpointer": InMemorySaver()})

    if not needs_async(_fresh(case)):
        values = list(fresh().stream(case.payload, config, stream_mode="values"))
        return values, fresh().invoke(case.payload, config)

    async def values() -> list[Any]:
        return [
            chunk async for chunk in fresh().astream(case.payload, config, stream_mode="values")
        ]

    async def returned() -> Any:
        return await fresh().ainvoke(case.payload, config)

    return asyncio.run(values()), asyncio.run(returned())


@pytest.mark.parametrize("case", CORPUS, ids=[case.module for case in CORPUS])
def test_native_trace_of_a_corpus_graph_equals_langgraphs_own_run(case):
    values, returned = _langgraph(case)

    trace = run_trace(_fresh(case), case.payload, check_each_step=False)

    merged = {step.step: step.state for step in trace.steps if step.committed}
    # An interrupt is streamed as one more chunk (the last state plus "__interrupt__"), not
    # as a merged step; invoke's return carries it, and so must the trace's output.
    states = [chunk for chunk in values if "__interrupt__" not in chunk]
    assert (trace.ran, trace.gate_errors, trace.error) == (True, [], None)
    assert _normal(list(merged.values())) == _normal(states)
    assert _normal(trace.output) == _normal(returned)


def test_the_corpus_covers_what_the_trace_must_handle():
    graphs = {case.module: _fresh(case) for case in CORPUS}  # built, never run

    assert sorted(name for name, graph in graphs.items() if needs_async(graph)) == ["async_fanout"]
    schemas = {
        name: (graph.builder.input_schema.__name__, graph.builder.output_schema.__name__)
        for name, graph in graphs.items()
        if graph.builder.input_schema is not graph.builder.state_schema
    }
    assert schemas == {
        "fanout_join": ("TripRequest", "TripPlan"),
        "async_fanout": ("StationQuery", "StationReport"),
    }
    joins = {name: graph.builder.waiting_edges for name, graph in graphs.items()}
    assert {name: edges for name, edges in joins.items() if edges} == {
        "fanout_join": {(("find_trains", "find_flights"), "summarise")},
        "async_fanout": {(("read_mast", "read_ground"), "report")},
        "reducers_loop": {(("ventilate", "water"), "next_cycle")},
    }
    subgraphs = {name: [n for n, _ in graph.get_subgraphs()] for name, graph in graphs.items()}
    assert {name: nodes for name, nodes in subgraphs.items() if nodes} == {
        "review_subgraph": ["approval"]
    }


@pytest.mark.parametrize("case", CORPUS, ids=[case.module for case in CORPUS])
def test_langgraphs_entry_verdict_on_a_corpus_graph_is_its_own(case):
    """Our LangGraph verdict (run up to the first node, no node code run) names the nodes
    LangGraph itself starts first (stream_mode="tasks" reports each task as it starts)."""
    graph = _fresh(case)
    verdict = langgraph_entry(graph, case.payload)
    config = {"configurable": {"thread_id": "oracle"}}
    fresh = _fresh(case).copy(update={"checkpointer": InMemorySaver()})
    if needs_async(graph):

        async def starts() -> list[Any]:
            return [e async for e in fresh.astream(case.payload, config, stream_mode="tasks")]

        events = asyncio.run(starts())
    else:
        events = list(fresh.stream(case.payload, config, stream_mode="tasks"))
    # A super-step's tasks are all announced before any of them reports a result.
    step = next((i for i, e in enumerate(events) if "input" not in e), len(events))
    assert verdict == EntryVerdict(
        runs=True,
        input_schema=graph.builder.input_schema,
        first_nodes=sorted(e["name"] for e in events[:step]),
        channels=verdict.channels,
        node_saw=verdict.node_saw,
    )
