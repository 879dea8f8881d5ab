"""The fan-out case on the pages: a reducer field of the state (`docs`, no default) missing
from the graph's Pydantic `input_schema`. The Validate page says LangGraph runs the payload and
your model (the input schema) accepts it; the Trace page's checked run is LangGraph's own run."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests._fanout_docs import GRAPH, TEXT, langgraph_run
from tests.app._editor import editor
from tests.app.test_own_project import configure
from ui import keys

ROOT = Path(__file__).resolve().parents[2]
VALIDATE, TRACE = (str(ROOT / "views" / f"{page}.py") for page in ("validate", "trace"))


@pytest.fixture(autouse=True)
def fanout_project(monkeypatch, tmp_path):
    configure(monkeypatch, tmp_path, "flag", None, GRAPH)


def test_validate_page_says_langgraph_runs_it_and_your_input_schema_accepts_it():
    at = AppTest.from_file(VALIDATE, default_timeout=30).run()
    editor(at, keys.PAYLOAD).input(TEXT).run()

    assert not at.exception
    assert [s.value for s in at.success] == [
        "LangGraph runs this payload. Your model alone accepts it too."
    ]
    comparison = at.session_state[keys.ENTRY_COMPARISON][1]
    assert (comparison.langgraph_accepted, comparison.verdict.first_nodes) == (
        True, ["search_web", "search_wiki"]
    )  # fmt: skip


def test_trace_page_checked_run_is_langgraphs_run():
    at = AppTest.from_file(TRACE, default_timeout=30).run()
    assert (at.radio(key=keys.TRACE_GRAPH).value, at.radio(key=keys.TRACE_MODE).value) == (
        "project", "checked"
    )  # fmt: skip
    at.session_state[keys.PAYLOAD_TEXT] = TEXT
    at.button(key=keys.RUN).click().run()

    assert not at.exception
    oracle = langgraph_run()
    trace = at.session_state[keys.TRACE_RESULT]["trace"]
    assert [(s.step, s.node, s.update, s.state) for s in trace.steps] == oracle["rows"]
    assert (trace.gate_errors, trace.error, trace.output) == ([], None, oracle["output"])
    table = [d.value for d in at.dataframe if "check" in d.value.columns][0]
    assert list(table[["step", "node", "check"]].itertuples(index=False, name=None)) == [
        (step, node, "✓") for step, node, _, _ in oracle["rows"]
    ]
    assert [s.value for s in at.success] == ["LangGraph finished the run without raising."]


def test_trace_page_gate_refuses_what_the_input_schema_refuses():
    at = AppTest.from_file(TRACE, default_timeout=30).run()
    at.session_state[keys.PAYLOAD_TEXT] = '{"topic": ""}'
    at.button(key=keys.RUN).click().run()

    assert not at.exception
    gate = at.dataframe[0].value
    assert gate[["path", "line:col", "type"]].values.tolist() == [
        ["topic", "1:11", "string_too_short"]
    ]
    assert at.session_state[keys.TRACE_RESULT]["trace"].ran is False
