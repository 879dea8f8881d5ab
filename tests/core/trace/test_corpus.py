"""Published graphs with Pydantic state (tests/fixtures/corpus): LangGraph native traces equal
what LangGraph itself streams and returns, step by step, on a fresh copy of each graph."""

from __future__ import annotations

import asyncio
import importlib
import random
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
# The react agent is built as its test built it: with langgraph.prebuilt, now deprecated.
pytestmark = pytest.mark.filterwarnings("ignore:create_react_agent has been moved")


@dataclass(frozen=True)
class Case:
    module: str  # corpus.<module>
    graph: str | Callable[[Any], CompiledStateGraph]  # its attribute, or how to build it
    payload: dict[str, Any]
    features: str  # what it covers, as tests/fixtures/README.md lists it


CORPUS = [
    Case("docs_overall_state", "graph", {"a": "hello"}, "pydantic state"),
    Case("docs_complex_state", "graph",
         {"text": "hello", "count": 0, "nested": {"value": "test"}}, "nested models"),
    Case("docs_chat_state", "graph",
         {"messages": [{"type": "human", "content": "Hi", "id": "h1"}],
          "context": "Customer support chat"}, "message list without a reducer"),
    Case("fanout_io_schemas", "app", {"query": "what is weather in sf", "inner": {"yo": 1}},
         "input/output schemas, reducer without default, fan-out, waiting edge"),
    Case("fanout_async", "app", {"query": "what is weather in sf"},
         "async nodes and branch, input/output schemas, reducer without default"),
    Case("command_goto", "graph", {"foo": ""}, "Command(update=model, goto=...)"),
    Case("messages_state", "app", {"messages": [["user", "meow"]]},
         "add_messages without default, role tuples"),
    Case("bench_pydantic_state", lambda module: module.pydantic_state(2).compile(),
         {"messages": [{"a": 1}]}, "custom reducers, validators, fan-out, loop"),
    Case("subgraph_interrupt", "graph",
         {"messages": [{"type": "human", "content": "Create a proposal", "id": "req"}]},
         "subgraph, Command, add_messages, interrupt"),
    Case("react_agent_tools", "agent",
         {"messages": [{"type": "human", "content": "What's the weather?", "id": "q"}],
          "city": "San Francisco"}, "fake chat model, tools, Send, add_messages"),
]  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _corpus_importable():
    sys.path.insert(0, str(FIXTURES))
    yield
    sys.path.remove(str(FIXTURES))


def _fresh(case: Case) -> CompiledStateGraph:
    # Reloaded, so every run gets its own graph and fake chat model (they count their turns).
    module = importlib.reload(importlib.import_module(f"corpus.{case.module}"))
    graph = getattr(module, case.graph) if isinstance(case.graph, str) else case.graph(module)
    random.seed(0)  # the bench graph's nodes write random strings
    return graph


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
def test_native_trace_of_a_published_graph_equals_langgraphs_own_run(case):
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

    assert sorted(name for name, graph in graphs.items() if needs_async(graph)) == ["fanout_async"]
    schemas = {
        name: (graph.builder.input_schema.__name__, graph.builder.output_schema.__name__)
        for name, graph in graphs.items()
        if graph.builder.input_schema is not graph.builder.state_schema
    }
    assert schemas == {
        "fanout_io_schemas": ("Input", "Output"),
        "fanout_async": ("Input", "Output"),
    }


@pytest.mark.parametrize("case", CORPUS, ids=[case.module for case in CORPUS])
def test_langgraphs_entry_verdict_on_a_published_graph_is_its_own(case):
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
