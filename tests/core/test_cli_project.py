"""python -m core with your own model and graph: flags, playground.toml, env, load errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.__main__ import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TAGS = {"text": "refund for a broken kettle", "tags": ["support"]}


@pytest.fixture
def in_fixtures(monkeypatch):
    monkeypatch.chdir(FIXTURES)
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    monkeypatch.delenv("PLAYGROUND_GRAPH", raising=False)


def _write(tmp_path, value):
    path = tmp_path / "payload.json"
    path.write_text(value if isinstance(value, str) else json.dumps(value), encoding="utf-8")
    return str(path)


def _rows(out):
    return [line.split()[:2] for line in out.splitlines()[1:]]


def test_validate_with_model_flag_reports_nested_paths(in_fixtures, tmp_path, capsys):
    payload = {"order_id": "x", "placed_on": "2024-01-31", "lines": []}
    assert main(["validate", "--model", "shop.state:ShopState", _write(tmp_path, payload)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "langgraph: raises before the first node: ValidationError: 3 errors: order_id "
        "(uuid_parsing), customer (missing), lines (too_short)",
        "your model alone: 3 errors",
        "line:col  path      type          message                                                       input                                                    ",
        '1:14      order_id  uuid_parsing  Input should be a valid UUID, invalid character: found `x` a  "x"                                                      ',
        '1:1       customer  missing       Field required                                                {"order_id": "x", "placed_on": "2024-01-31", "lines": []}',
        "1:55      lines     too_short     List should have at least 1 item after validation, not 0      []                                                       ",
    ]


def test_trace_with_graph_flag_runs_the_custom_reducer_graph(in_fixtures, tmp_path, capsys):
    assert main(["trace", "--graph", "custom_reducer.graph:graph", _write(tmp_path, TAGS)]) == 0
    out = capsys.readouterr().out
    assert _rows(out) == [
        ["0", "__start__"],
        ["1", "tag_mood"],
        ["1", "tag_topic"],
        ["2", "summarise"],
    ]
    assert "tags: custom_reducer.graph.union_tags" in out.splitlines()[2]


def test_trace_json_with_a_typeddict_graph_and_its_input_schema(in_fixtures, tmp_path, capsys):
    path = _write(tmp_path, {"title": "disk full", "severity": "high"})
    assert main(["trace", "--json", "--graph", "typed_state.graph:make_graph", path]) == 0
    captured = capsys.readouterr()
    steps = json.loads(captured.out)["steps"]
    assert [(s["node"], s["state"]) for s in steps] == [
        ("__start__", {"title": "disk full", "severity": "high"}),  # a TypedDict: no defaults
        ("triage", {"title": "disk full", "severity": "high", "queue": "oncall"}),
    ]
    assert captured.err.startswith("note: [state_not_pydantic] the graph's state TicketState")


def test_trace_gate_closed_for_your_model_exits_1(in_fixtures, tmp_path, capsys):
    path = _write(tmp_path, {"text": "hi"})
    assert main(["trace", "--graph", "custom_reducer.graph:graph", path]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "gate closed: 1 error, the graph would not run"
    )


def test_playground_toml_and_environment_configure_the_cli(tmp_path, monkeypatch, capsys):
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    (tmp_path / "playground.toml").write_text(
        '[playground]\ngraph = "custom_reducer.graph:graph"\n'
    )
    monkeypatch.setenv("PLAYGROUND_MODEL", "custom_reducer.graph:TagState")
    path = _write(tmp_path, TAGS)

    assert main(["validate", path]) == 0  # the model from the environment
    assert main(["trace", path]) == 0  # the graph from the file
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        "langgraph: runs (first node: tag_mood, tag_topic)",
        "your model alone: the payload is valid",
    ]
    assert _rows("\n".join(out.splitlines()[2:])) == [
        ["0", "__start__"], ["1", "tag_mood"], ["1", "tag_topic"], ["2", "summarise"]
    ]  # fmt: skip


ERRORS = [
    (["validate", "--model", "broken.raises:X"],
     "[module_import_failed] model module 'broken.raises' raised RuntimeError on import: "
     "DATABASE_URL is not set. Fix the module so that importing it succeeds.\n"),
    (["trace", "--graph", "broken.kinds:settings"],
     "[not_a_graph] graph 'broken.kinds:settings' is a dict value; point --graph at a "
     "StateGraph builder, a compiled graph, or a zero-argument function returning one.\n"),
    (["trace", "--graph", "custom_reducer.graph:graph", "--fault", "node_exception"],
     "[faults_seed_only] --fault applies to the seed order graph only\n"),
    (["trace", "--model", "custom_reducer.graph:TagState"],
     "[no_graph] trace runs your model only through your graph: pass --graph too\n"),
    (["validate", "--graph", "broken.kinds:plain_graph"],
     "note: [state_not_pydantic] the graph's state Plain is a TypedDict: LangGraph validates "
     "nothing between nodes. No Pydantic model is checked: pass --model (or an input_schema) "
     "to validate.\n[no_model] the graph's state is not a Pydantic model: pass --model\n"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "err"), ERRORS)
def test_configuration_errors_exit_2_with_the_code_on_stderr(
    in_fixtures, tmp_path, capsys, argv, err
):
    assert main([*argv, _write(tmp_path, TAGS)]) == 2
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", err)


def test_validate_closes_the_gate_where_the_graphs_python_mode_gate_refuses_valid_json(
    tmp_path, monkeypatch, capsys
):
    (tmp_path / "strict_state.py").write_text(
        "from uuid import UUID\n"
        "from pydantic import BaseModel, ConfigDict\n\n\n"
        "class Strict(BaseModel):\n"
        "    model_config = ConfigDict(strict=True)\n"
        "    user_id: UUID\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    path = _write(tmp_path, '{"user_id": "550e8400-e29b-41d4-a716-446655440000"}')

    assert main(["validate", "--model", "strict_state:Strict", path]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines()[:3] == [
        "langgraph: raises before the first node: ValidationError: 1 error: user_id "
        "(is_instance_of)",
        "your model alone: the payload is valid",
        "langgraph's entry: 1 error",
    ]
    assert out.splitlines()[4].split()[:3] == ["1:13", "user_id", "is_instance_of"]
    assert err == (
        "note: the JSON text is valid for this model, but LangGraph builds the first node's "
        "input from the parsed dict in Python mode, where it fails (strict types JSON cannot "
        "hold)\n"
    )


def _run_cli(*argv: str, payload: str) -> subprocess.CompletedProcess[str]:
    """`python -m core` in a fresh process: a module prints on import only the first time."""
    env = {k: v for k, v in os.environ.items() if k not in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH")}
    env["PYTHONPATH"] = str(FIXTURES.parents[1])
    return subprocess.run(
        [sys.executable, "-m", "core", *argv, "-"],
        input=payload,
        cwd=FIXTURES,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_json_output_stays_json_when_your_modules_print_on_import_and_while_running():
    done = _run_cli(
        "validate", "--json", "--model", "noisy.graph:NoisyState", payload='{"text": ""}'
    )
    error = {
        "type": "string_too_short",
        "loc": ["text"],
        "msg": "String should have at least 1 character",
        "input": "",
        "ctx": {"min_length": 1},
        "url": "https://errors.pydantic.dev/2.14/v/string_too_short",
        "line": 1,
        "col": 10,
    }
    assert (done.returncode, json.loads(done.stdout)) == (
        1,
        {
            "ok": False,
            "errors": [error],
            "langgraph": {  # the smallest graph over --model: no node of the module runs
                "runs": False,
                "first_nodes": [],
                "error": "ValidationError: 1 error: text (string_too_short)",
                "dropped": [],
                "errors": [error],
            },
        },
    )
    assert done.stderr == "noisy: importing the graph module\n"

    done = _run_cli("trace", "--json", "--graph", "noisy.graph:graph", payload='{"text": "a b"}')
    steps = json.loads(done.stdout)["steps"]
    assert (done.returncode, [(s["node"], s["state"]) for s in steps]) == (
        0,
        [("__start__", {"text": "a b"}), ("count", {"text": "a b", "words": 2})],  # raw channels
    )
    assert done.stderr == "noisy: importing the graph module\nnoisy: counting 'a b'\n"
