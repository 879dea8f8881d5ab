"""load_project: flag, playground.toml and environment; every load error with its code."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.order import AgentState
from core.project import ProjectSpec, load_project
from core.project.checks import ProjectError, graph_caveats, load_model
from core.trace import run_trace
from core.trace.diagram import graph_dot
from core.trace.errors import explain_run_error
from core.trace.reducers import graph_reducers, model_reducers

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
SHOP = ("shop.state:ShopState", "shop.graph:builder")


def _codes(project):
    return [error.code for error in project.errors], [note.code for note in project.notes]


def test_flags_load_a_nested_model_and_compile_a_builder():
    project = load_project(["--model", SHOP[0], "--graph", SHOP[1]], {}, FIXTURES)

    assert project.spec == ProjectSpec(*SHOP, "flag", "flag")
    assert (project.model.__qualname__, project.errors, project.notes) == ("ShopState", (), ())
    assert sorted(project.graph.get_graph().nodes) == [
        "__end__", "__start__", "price", "review", "ship"
    ]  # fmt: skip


def test_playground_toml_in_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))
    (tmp_path / "playground.toml").write_text(
        '[playground]\nmodel = "shop.state:ShopState"\ngraph = "shop.graph:builder"\n'
    )
    project = load_project([], {}, tmp_path)

    assert project.spec == ProjectSpec(*SHOP, "playground.toml", "playground.toml")
    assert _codes(project) == ([], [])


def test_environment_variables_and_a_compiled_graph():
    env = {"PLAYGROUND_GRAPH": "custom_reducer.graph:graph"}
    project = load_project([], env, FIXTURES)

    assert project.spec == ProjectSpec(None, "custom_reducer.graph:graph", "default", "environment")
    assert project.model.__qualname__ == "TagState"  # the graph's own Pydantic state
    assert _codes(project) == ([], [])


def test_flag_beats_the_file_and_the_file_beats_the_environment(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))
    (tmp_path / "playground.toml").write_text('[playground]\ngraph = "shop.graph:builder"\n')
    env = {"PLAYGROUND_MODEL": "nope.mod:X", "PLAYGROUND_GRAPH": "nope.mod:Y"}
    project = load_project(["--model", SHOP[0], "-q", "tests/x.py"], env, tmp_path)

    assert project.spec == ProjectSpec(*SHOP, "flag", "playground.toml")
    assert _codes(project) == ([], [])


def test_a_candidate_model_comes_from_the_flag_the_file_or_the_environment(tmp_path):
    candidate = "candidates.order_v2:OrderV2"
    flag = load_project(["--candidate", candidate], {}, FIXTURES)
    (tmp_path / "playground.toml").write_text(f'[playground]\ncandidate = "{candidate}"\n')
    from_file = load_project([], {}, tmp_path)
    from_env = load_project([], {"PLAYGROUND_CANDIDATE": candidate}, FIXTURES)

    assert [(p.spec, p.model, p.candidate.__qualname__, p.errors, p.notes)
            for p in (flag, from_file, from_env)] == [
        (ProjectSpec(candidate=candidate, candidate_from=source), AgentState, "OrderV2", (), ())
        for source in ("flag", "playground.toml", "environment")
    ]  # fmt: skip


def test_a_candidate_that_does_not_load_is_a_note_and_the_rest_of_the_project_loads():
    for spec, code, message in [
        ("candidates.nope:OrderV2", "module_not_found",
         "candidate module 'candidates.nope' was not found. Run the playground from the "
         "directory that holds it (or install it), and check the spelling."),
        ("candidates.order_v2:not_a_model", "not_a_model",
         "candidate 'candidates.order_v2:not_a_model' is a dict value, not a Pydantic "
         "BaseModel subclass; point --candidate at a class that subclasses pydantic.BaseModel."),
    ]:  # fmt: skip
        project = load_project(["--candidate", spec, "--graph", SHOP[1]], {}, FIXTURES)

        assert (project.model.__qualname__, project.candidate, project.errors) == (
            "ShopState",
            None,
            (),
        )
        assert [(n.code, n.message) for n in project.notes] == [(code, message)]


def test_nothing_configured_is_the_seed_order_and_unknown_arguments_are_ignored():
    project = load_project(["-q", "--maxfail=1", "tests/app"], {}, FIXTURES)

    assert (project.spec, project.model, project.graph) == (ProjectSpec(), AgentState, None)
    assert project.seed_model


def test_a_factory_with_a_typeddict_state_uses_its_pydantic_input_schema():
    project = load_project(["--graph", "typed_state.graph:make_graph"], {}, FIXTURES)

    assert project.model.__qualname__ == "TicketIn"
    assert [str(note) for note in project.notes] == [
        "[state_not_pydantic] the graph's state TicketState is a TypedDict: LangGraph validates "
        "nothing between nodes. The gate and the per-step checks validate TicketIn's fields only."
    ]


ERRORS = [
    (["--model", "shop"], "bad_spec",
     "model 'shop' (from flag) is not of the form 'package.module:Attribute'; write the module "
     "path, a colon, then the name, e.g. 'shop.state:OrderState'."),
    (["--model", "nope.mod:X"], "module_not_found",
     "model module 'nope.mod' was not found. Run the playground from the directory that holds "
     "it (or install it), and check the spelling."),
    (["--model", "broken.raises:X"], "module_import_failed",
     "model module 'broken.raises' raised RuntimeError on import: DATABASE_URL is not set. Fix "
     "the module so that importing it succeeds."),
    (["--graph", "broken.missing_dep:graph"], "module_import_failed",
     "graph module 'broken.missing_dep' raised ModuleNotFoundError on import: No module named "
     "'playground_fixture_dependency_not_installed'. Fix the module so that importing it succeeds."),
    (["--model", "shop.state:Nope"], "attribute_missing",
     "model module 'shop.state' has no attribute 'Nope'; check the name after the colon."),
    (["--model", "broken.kinds:Plain"], "not_a_model",
     "model 'broken.kinds:Plain' is a TypedDict, not a Pydantic BaseModel subclass; point "
     "--model at a class that subclasses pydantic.BaseModel."),
    (["--model", "broken.kinds:instance"], "not_a_model",
     "model 'broken.kinds:instance' is a Counter value, not a Pydantic BaseModel subclass; "
     "point --model at a class that subclasses pydantic.BaseModel."),
    (["--graph", "broken.kinds:Counter"], "not_a_graph",
     "graph 'broken.kinds:Counter' is the class Counter; point --graph at a StateGraph builder, "
     "a compiled graph, or a zero-argument function returning one."),
    (["--graph", "broken.kinds:settings"], "not_a_graph",
     "graph 'broken.kinds:settings' is a dict value; point --graph at a StateGraph builder, a "
     "compiled graph, or a zero-argument function returning one."),
    (["--graph", "broken.kinds:factory_raises"], "graph_factory_failed",
     "graph factory 'broken.kinds:factory_raises' raised ValueError: no API key configured. A "
     "factory must take no arguments and return a StateGraph or a compiled graph."),
    (["--graph", "broken.kinds:needs_args"], "graph_factory_failed",
     "graph factory 'broken.kinds:needs_args' raised TypeError: <lambda>() missing 1 required "
     "positional argument: 'size'. A factory must take no arguments and return a StateGraph or "
     "a compiled graph."),
    (["--graph", "broken.kinds:empty_builder"], "graph_compile_failed",
     "graph 'broken.kinds:empty_builder' did not compile: ValueError: Graph must have an "
     "entrypoint: add at least one edge from START to another node. Fix the builder."),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "code", "message"), ERRORS, ids=[e[1] for e in ERRORS])
def test_each_load_error_has_its_code_and_falls_back_to_the_seed_order(argv, code, message):
    other = ["--graph", SHOP[1]] if argv[0] == "--model" else ["--model", SHOP[0]]
    project = load_project(argv + other, {}, FIXTURES)  # the good half is dropped too

    assert [(e.code, e.message) for e in project.errors] == [(code, message)]
    assert (project.model, project.graph, project.notes) == (AgentState, None, ())


def test_a_bad_config_file_is_an_error_with_what_to_write(tmp_path):
    (tmp_path / "playground.toml").write_text("[playground]\nmodel = 3\n")
    project = load_project([], {}, tmp_path)

    assert [str(e) for e in project.errors] == [
        f"[bad_config_file] {tmp_path / 'playground.toml'}: write a [playground] table with "
        'string entries model = "pkg.mod:Model" and graph = "pkg.mod:builder" (and optionally '
        'candidate = "pkg.mod:NewModel").'
    ]
    (tmp_path / "playground.toml").write_text("[playground\n")
    assert [e.code for e in load_project([], {}, tmp_path).errors] == ["bad_config_file"]


NOTES = [
    ("broken.kinds:plain_graph", "state_not_pydantic", None,
     "the graph's state Plain is a TypedDict: LangGraph validates nothing between nodes. No "
     "Pydantic model is checked: pass --model (or an input_schema) to validate."),
    ("broken.kinds:with_checkpointer", "graph_checkpointer_replaced", "Counter",
     "the graph was compiled with a checkpointer; every run here uses its own fresh in-memory "
     "checkpointer instead, so your store is never read or written."),
    ("broken.kinds:with_context", "graph_needs_context", "Counter",
     "the graph declares context_schema Context; runs here pass no context, so nodes reading "
     "runtime.context get None."),
    ("broken.kinds:with_interrupt", "graph_interrupts", "Counter",
     "the graph interrupts at bump; a run here stops there and is not resumed. Compile a "
     "variant without interrupt_before/after."),
    ("broken.kinds:reads_config", "graph_reads_config", "Counter",
     "node read_user takes config or runtime; runs here pass only a thread_id and no context, "
     "so keys your nodes expect there are missing."),
]  # fmt: skip


@pytest.mark.parametrize(("graph", "code", "model", "message"), NOTES, ids=[n[1] for n in NOTES])
def test_graphs_that_need_more_than_a_payload_load_with_a_note(graph, code, model, message):
    project = load_project(["--graph", graph], {}, FIXTURES)

    assert (project.errors, [(note.code, note.message) for note in project.notes]) == (
        (),
        [(code, message)],
    )
    assert (project.model.__qualname__ if project.model else None) == model


def test_a_value_that_is_not_a_class_is_named_with_the_article_its_type_takes():
    with pytest.raises(ProjectError) as caught:
        load_model("core.jsontext.payload:MAX_DEPTH")

    assert (caught.value.code, caught.value.message) == (
        "not_a_model",
        "model 'core.jsontext.payload:MAX_DEPTH' is an int value, not a Pydantic BaseModel "
        "subclass; point --model at a class that subclasses pydantic.BaseModel.",
    )


def test_a_graph_that_reads_config_fails_at_run_time_and_the_hint_says_why():
    project = load_project(["--graph", "broken.kinds:reads_config"], {}, FIXTURES)
    trace = run_trace(project.graph, {})

    assert str(trace.error) == "[node_error] step 1, node read_user: KeyError: 'user_id'"
    assert explain_run_error("KeyError: 'configurable'").startswith(
        'The graph reads config["configurable"]; the playground passes only a thread_id.'
    )
    assert explain_run_error("ValueError: bad amount") is None


def test_custom_reducers_are_shown_by_function_name():
    project = load_project(["--graph", "custom_reducer.graph:graph"], {}, FIXTURES)

    expected = {"text": "last value", "tags": "custom_reducer.graph.union_tags", "summary": "last value"}  # fmt: skip
    assert graph_reducers(project.graph) == expected
    assert model_reducers(project.model) == expected


def test_the_diagram_draws_the_conditional_edge():
    project = load_project(["--graph", SHOP[1]], {}, FIXTURES)
    edges = [line for line in graph_dot(project.graph).splitlines() if "->" in line]

    assert edges == [
        '  "__start__" -> "price";',
        '  "price" -> "review" [style=dashed];',  # LangGraph labels a branch only when
        '  "price" -> "ship" [style=dashed];',  # its key differs from the node's name
        '  "review" -> "__end__";',
        '  "ship" -> "__end__";',
    ]


SHOP_ORDER = {
    "order_id": "550e8400-e29b-41d4-a716-446655440000",
    "placed_on": "2024-05-01",
    "customer": {
        "id": "6fa459ea-ee8a-3ca4-894e-db77e160355e",
        "name": "Ada",
        "address": {"street": "1 Main St", "city": "Oslo", "postcode": "01234"},
    },
    "lines": [{"sku": "KET-001", "qty": 5, "price": "30.00"}],
}
STREAM_CASES = [
    ("shop.graph:builder", SHOP_ORDER),
    ("shop.graph:builder", SHOP_ORDER | {"lines": [{"sku": "KET-001", "qty": 1, "price": 9.5}]}),
    ("custom_reducer.graph:graph", {"text": "refund for a broken kettle", "tags": ["support"]}),
    ("broken.kinds:with_checkpointer", {"n": 0}),
    ("typed_state.graph:make_graph", {"title": "disk full", "severity": "high"}),
]


@pytest.mark.parametrize(("graph", "payload"), STREAM_CASES)
def test_run_trace_states_equal_langgraph_stream_values(graph, payload):
    compiled = load_project(["--graph", graph], {}, FIXTURES).graph
    trace = run_trace(compiled, payload)
    states = {step.step: step.state for step in trace.steps if step.committed}
    config = {"configurable": {"thread_id": "oracle"}, "recursion_limit": 25}

    assert trace.error is None
    assert list(states.values()) == list(compiled.stream(payload, config, stream_mode="values"))


def test_the_conditional_edge_routes_by_total():
    compiled = load_project(["--graph", SHOP[1]], {}, FIXTURES).graph
    nodes = [step.node for step in run_trace(compiled, SHOP_ORDER).steps]
    cheap = SHOP_ORDER | {"lines": [{"sku": "KET-001", "qty": 1, "price": 9.5}]}

    assert nodes == ["__start__", "price", "review"]
    assert [step.node for step in run_trace(compiled, cheap).steps] == [
        "__start__",
        "price",
        "ship",
    ]


def test_two_nodes_that_read_config_are_named_in_the_plural():
    from langchain_core.runnables import RunnableConfig
    from langgraph.graph import END, START, StateGraph
    from pydantic import BaseModel

    class Counter(BaseModel):
        n: int = 0

    def first(state: Counter, config: RunnableConfig) -> dict:
        return {}

    def second(state: Counter, config: RunnableConfig) -> dict:
        return {}

    builder = StateGraph(Counter).add_node("first", first).add_node("second", second)
    builder.add_edge(START, "first").add_edge("first", "second").add_edge("second", END)

    assert [(n.code, n.message) for n in graph_caveats(builder.compile(), Counter)] == [
        (
            "graph_reads_config",
            "nodes first, second take config or runtime; runs here pass only a thread_id and "
            "no context, so keys your nodes expect there are missing.",
        )
    ]


def test_a_state_of_a_plain_class_is_called_one():
    from langgraph.graph import END, START, StateGraph

    class Plain:
        n: int

    builder = StateGraph(Plain).add_node("bump", lambda state: {})
    builder.add_edge(START, "bump").add_edge("bump", END)

    assert [(n.code, n.message) for n in graph_caveats(builder.compile(), None)] == [
        (
            "state_not_pydantic",
            "the graph's state Plain is a plain class: LangGraph validates nothing between "
            "nodes. No Pydantic model is checked: pass --model (or an input_schema) to validate.",
        )
    ]
