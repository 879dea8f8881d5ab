"""The fan-out case in the core API: a Pydantic state whose reducer field `docs` (no default) is
not in the graph's Pydantic `input_schema`. LangGraph runs it (the channel starts empty), so
`run_trace` and `trace_text` run it too, gating with the input schema as the README says."""

from __future__ import annotations

import pytest

from core.project import load_project
from core.trace import run_trace, trace_text
from tests._fanout_docs import FIXTURES, GRAPH, PAYLOAD, TEXT, fixture_module, langgraph_run


@pytest.fixture
def project(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    return load_project(["--graph", GRAPH], {}, ".")


def _rows(trace):
    return [(s.step, s.node, s.update, s.state) for s in trace.steps]


def _outcome(trace):
    return {
        "gate_errors": trace.gate_errors,
        "ran": trace.ran,
        "error": trace.error,
        "output": trace.output,
        "violations": [s.violations for s in trace.steps],
    }


def _langgraph_outcome():
    oracle = langgraph_run()
    clean = [[] for _ in oracle["rows"]]
    return {"gate_errors": [], "ran": True, "error": None, "output": oracle["output"],
            "violations": clean}  # fmt: skip


def test_the_fixture_is_the_fan_out_shape_langgraph_runs():
    module = fixture_module()
    assert set(module.ResearchState.model_fields) - set(module.Question.model_fields) == {
        "docs", "summary"
    }  # fmt: skip
    assert module.ResearchState.model_fields["docs"].is_required()
    assert [row[:2] for row in langgraph_run()["rows"]] == [
        (0, "__start__"), (1, "search_web"), (1, "search_wiki"), (2, "summarise")
    ]  # fmt: skip


def test_run_trace_with_the_projects_model_runs_what_langgraph_runs(project):
    trace = run_trace(project.graph, PAYLOAD, model=project.model)

    assert (_rows(trace), _outcome(trace)) == (langgraph_run()["rows"], _langgraph_outcome())
    assert (trace.options.input_model, trace.options.model) == (
        fixture_module().Question, fixture_module().ResearchState
    )  # fmt: skip


def test_run_trace_on_the_graph_alone_runs_what_langgraph_runs(project):
    trace = run_trace(project.graph, PAYLOAD)

    assert (_rows(trace), _outcome(trace)) == (langgraph_run()["rows"], _langgraph_outcome())


def test_trace_text_of_the_project_runs_what_langgraph_runs(project):
    run = trace_text(TEXT, graph="project", project=project)

    assert (run.syntax, run.json_accepts) == (None, None)
    assert (_rows(run.trace), _outcome(run.trace)) == (
        langgraph_run()["rows"], _langgraph_outcome()
    )  # fmt: skip


def test_the_gate_refuses_only_what_the_input_schema_refuses_placed_in_the_text(project):
    text = '{"topic": ""}'  # Question's min_length; LangGraph itself runs it
    run = trace_text(text, graph="project", project=project)
    direct = run_trace(project.graph, {"topic": ""}, model=project.model, text=text)

    placed = [(e.path, e.type, e.line, e.col) for e in run.trace.gate_errors]
    assert placed == [(e.path, e.type, e.line, e.col) for e in direct.gate_errors]
    assert (placed, run.trace.ran, run.json_accepts) == (
        [("topic", "string_too_short", 1, 11)], False, False
    )  # fmt: skip
    assert langgraph_run({"topic": ""})["output"]["summary"] == "2 sources on "
