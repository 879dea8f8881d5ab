"""`pick_entry`: the one place the entry graph, your model and the state's model are picked,
for every way a project is configured (the Validate page, the Trace page, the command line and
`run_trace` all take it from here)."""

from __future__ import annotations

import pytest

from core.order import AgentState, build_fanout_graph
from core.project import load_project
from core.trace import run_trace
from core.validate.entry import Entry, order_entry_graph, pick_entry, project_entry
from core.validate.entry_run import entry_graph
from tests._fanout_docs import FIXTURES


@pytest.fixture
def load(monkeypatch):
    monkeypatch.chdir(FIXTURES)

    def project(*flags: str):
        loaded = load_project(list(flags), {}, ".")
        assert loaded.errors == ()
        return loaded

    return project


def test_the_seed_order_enters_its_own_graph():
    assert pick_entry() == pick_entry(model=AgentState, seed=True) == Entry(
        order_entry_graph(AgentState), AgentState, AgentState
    )  # fmt: skip


def test_a_model_with_no_graph_enters_the_smallest_graph_over_it(load):
    project = load("--model", "shop.state:ShopState")
    shop = project.model

    assert project_entry(project) == Entry(entry_graph(shop), shop, shop)


def test_a_graph_with_a_pydantic_input_schema_is_written_for_that_schema(load):
    project = load("--graph", "fanout_docs.graph:workflow")
    module = __import__("fanout_docs.graph", fromlist=["Question"])

    assert project_entry(project) == Entry(project.graph, module.Question, module.ResearchState)
    # the state's model given (as run_trace's `model`) does not replace the input schema
    assert pick_entry(project.graph, module.ResearchState) == project_entry(project)


def test_a_model_given_explicitly_wins_over_the_input_schema(load):
    project = load(
        "--graph", "fanout_docs.graph:workflow", "--model", "fanout_docs.graph:ResearchState"
    )
    state = project.model

    assert project_entry(project) == Entry(project.graph, state, state)


@pytest.mark.parametrize(
    ("graph", "model"),
    [
        ("typed_state.graph:make_graph", "TicketIn"),  # TypedDict state, Pydantic input schema
        ("typed_state.graph:make_plain_graph", None),  # nothing Pydantic: nothing to gate with
        ("custom_reducer.graph:graph", "TagState"),  # the state is its own input
    ],
)
def test_graphs_whose_state_is_their_input_or_not_pydantic(load, graph, model):
    project = load("--graph", graph)
    module = __import__(graph.split(":")[0], fromlist=["_"])
    expected = None if model is None else getattr(module, model)

    assert project_entry(project) == Entry(project.graph, expected, expected)


def test_run_trace_gates_with_pick_entrys_model_unless_given_its_own(load):
    graph = build_fanout_graph()
    trace = run_trace(graph, {})
    entry = pick_entry(graph)

    assert (trace.options.input_model, trace.options.model) == (entry.model, entry.state)
    assert (entry.model, entry.state) == (AgentState, AgentState)
