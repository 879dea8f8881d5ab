"""`python -m core trace --graph` on the fan-out case: a reducer field of the state (`docs`,
no default) missing from the Pydantic `input_schema`. LangGraph runs the payload; so does
the command line, gating with the input schema (as `validate` and the pages do)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.__main__ import main
from tests._fanout_docs import FIXTURES, GRAPH, TEXT, langgraph_run

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def payload(monkeypatch, tmp_path):
    monkeypatch.chdir(FIXTURES)
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH"):
        monkeypatch.delenv(name, raising=False)
    path = tmp_path / "payload.json"
    path.write_text(TEXT, encoding="utf-8")
    return str(path)


def test_trace_json_runs_the_graph_as_langgraph_does_and_exits_0(payload, capsys):
    assert main(["trace", "--json", "--graph", GRAPH, payload]) == 0
    body = json.loads(capsys.readouterr().out)
    oracle = langgraph_run()

    rows = [(s["step"], s["node"], s["update"], s["state"]) for s in body.pop("steps")]
    assert rows == oracle["rows"]
    assert body == {
        "gate_errors": [],
        "ran": True,
        "error": None,
        "output": oracle["output"],
        "output_model": oracle["output"],  # ResearchState(**output), dumped
    }


def test_trace_prints_one_row_per_node_langgraph_ran_and_exits_0(payload, capsys):
    assert main(["trace", "--graph", GRAPH, payload]) == 0
    lines = capsys.readouterr().out.splitlines()

    assert lines[0].split()[:2] == ["step", "node"]
    assert [line.split()[:2] for line in lines[1:]] == [
        [str(step), node] for step, node, _, _ in langgraph_run()["rows"]
    ]


def test_trace_gate_closed_lists_the_input_schemas_errors_and_exits_1(payload, capsys):
    Path(payload).write_text('{"topic": ""}', encoding="utf-8")
    assert main(["trace", "--graph", GRAPH, payload]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "gate closed: 1 error, the graph would not run",
        "line:col  path   type              message                                  input",
        '1:11      topic  string_too_short  String should have at least 1 character  ""   ',
    ]


def test_validate_says_langgraph_runs_it_and_the_input_schema_accepts_it(payload, capsys):
    assert main(["validate", "--graph", GRAPH, payload]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "langgraph: runs (first node: search_web, search_wiki)",
        "your model alone: the payload is valid",
    ]


def test_the_command_as_a_new_user_types_it(payload):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLAYGROUND_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "core", "trace", payload, "--graph", GRAPH],
        cwd=FIXTURES, env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip

    assert (done.returncode, done.stderr) == (0, "")
    assert [line.split()[:2] for line in done.stdout.splitlines()[1:]] == [
        [str(step), node] for step, node, _, _ in langgraph_run()["rows"]
    ]
