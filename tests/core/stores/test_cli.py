"""`audit` on the command line: exit codes 0/1/2, the --json contract, --shard, the env store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.__main__ import main
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde

from .conftest import PG_PASSWORD, writer

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
def no_project(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no playground.toml here
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)


def _expected(spec: str, model=AgentState, **options) -> dict:
    with open_store(spec, strict_serde([model])) as store:
        return audit_store(store, model, **options).to_json()


def _cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "core", "audit", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_a_store_of_valid_states_exits_0(no_project, tmp_path, capsys):
    spec = str(tmp_path / "clean.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("a", "b"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    assert main(["audit", spec]) == 0
    assert capsys.readouterr().out == "2 threads, 2 checkpoints audited: 0 invalid, 0 unreadable\n"
    assert main(["audit", spec, "--history", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "threads": 2, "checkpoints": 8, "invalid": [], "unreadable": [],
    }  # fmt: skip


def test_invalid_states_exit_1_with_the_json_contract(no_project, demo_store, capsys):
    spec = demo_store[1]
    assert main(["audit", spec, "--json", "--history"]) == 1
    body = json.loads(capsys.readouterr().out)
    assert body == _expected(spec, history=True)
    assert list(body) == ["threads", "checkpoints", "invalid", "unreadable"]
    assert {tuple(state) for state in body["invalid"]} == {
        ("thread_id", "checkpoint_id", "step", "node", "errors")
    }
    assert {(e["type"], tuple(e["loc"])) for s in body["invalid"] for e in s["errors"]} == {
        ("literal_error", ("status",)),
        ("greater_than_equal", ("amount",)),
    }


def test_the_text_report_names_thread_step_node_and_error(no_project, demo_store, capsys):
    spec = demo_store[1]
    assert main(["audit", spec]) == 1
    ids = {s["thread_id"]: s["checkpoint_id"] for s in _expected(spec)["invalid"]}
    assert capsys.readouterr().out.splitlines() == [
        "10 threads, 10 checkpoints audited: 2 invalid, 0 unreadable",
        f"fault-bad_status_last  step 2  node confirm  {ids['fault-bad_status_last']}",
        "    status: literal_error: Input should be 'pending', 'validated' or 'confirmed'",
        f"fault-negative_amount  step 1  node validate_order  {ids['fault-negative_amount']}",
        "    amount: greater_than_equal: Input should be greater than or equal to 0",
    ]


def test_a_candidate_model_and_a_graph_resolve_like_the_other_commands(
    no_project, demo_store, capsys
):
    spec = demo_store[1]
    assert main(["audit", spec, "--json", "--model", "core.stores.demo:CandidateState"]) == 1
    from core.stores.demo import CandidateState

    assert json.loads(capsys.readouterr().out) == _expected(spec, CandidateState)
    assert main(["audit", spec, "--json", "--graph", "core.order:build_order_graph"]) == 1
    assert json.loads(capsys.readouterr().out) == _expected(spec)


def test_shards_merge_into_the_whole_audit(no_project, demo_store, capsys):
    spec = demo_store[1]
    parts = []
    for shard in ("0/2", "1/2"):
        main(["audit", spec, "--json", "--history", "--shard", shard])
        parts.append(json.loads(capsys.readouterr().out))
    whole = _expected(spec, history=True)
    assert sum(p["threads"] for p in parts) == whole["threads"]
    assert sum(p["checkpoints"] for p in parts) == whole["checkpoints"]
    key = lambda s: (s["thread_id"], s["checkpoint_id"])  # noqa: E731
    assert sorted((s for p in parts for s in p["invalid"]), key=key) == sorted(
        whole["invalid"], key=key
    )


@pytest.mark.parametrize("shard", ["2/2", "1", "a/b", "-1/2"])
def test_a_bad_shard_is_a_usage_error(no_project, shard, capsys):
    with pytest.raises(SystemExit) as caught:
        main(["audit", "x.sqlite", f"--shard={shard}"])
    assert caught.value.code == 2
    assert f"argument --shard: {shard!r} is not a shard" in capsys.readouterr().err


def test_an_unreadable_store_exits_2_with_one_line(no_project, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just words " * 20)
    done = _cli(str(text))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"[not_a_database] {text} is not a SQLite database (file is not a database); point "
        "at the file your SqliteSaver writes.\n"
    )


def test_a_dsn_from_the_environment_is_audited_and_its_password_never_shown(
    no_project, postgres, postgres_demo
):
    spec = postgres_demo
    done = _cli("--json", env={"PLAYGROUND_STORE": spec})
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout) == _expected(spec)
    wrong = spec.replace(PG_PASSWORD, "Not-The-Pass-99")
    refused = _cli(env={"PLAYGROUND_STORE": wrong})
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == (
        f"[store_login_refused] postgresql://postgres@127.0.0.1:{postgres.port}/demo refused the "
        "login (wrong user or password); check the DSN's credentials in PLAYGROUND_STORE or the "
        "server configuration.\n"
    )
    assert "Not-The-Pass-99" not in refused.stderr and PG_PASSWORD not in done.stderr
