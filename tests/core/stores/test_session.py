"""One store session for the command line and the pages: the same store, the same verdicts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.order import AgentState, build_order_graph
from core.project import load_project
from core.stores.config import ServerStore
from core.stores.demo import CandidateState, build_demo_store
from core.stores.session import allowed_types, store_session
from tests.app.conftest import table_rows
from ui.threads.listing import short_ids

ROOT = Path(__file__).resolve().parents[3]
THREADS = str(ROOT / "views" / "threads.py")


def test_the_command_line_reads_the_store_playground_toml_names_as_the_page_does(
    tmp_path, monkeypatch
):
    store = tmp_path / "runs.sqlite"
    build_demo_store(store)
    (tmp_path / "playground.toml").write_text(f"[playground]\nstore = {str(store)!r}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PLAYGROUND_")}
    cli = subprocess.run(
        [sys.executable, "-m", "core", "audit", "--model", "core.order:AgentState", "--json"],
        cwd=tmp_path, env=env | {"PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip
    assert (cli.returncode, cli.stderr) == (1, "")
    said = json.loads(cli.stdout)
    # the page shows each checkpoint id as its start and end (short_ids, over the table's ids)
    ids = list(dict.fromkeys(row["checkpoint_id"] for row in said["invalid"]))
    shown = dict(zip(ids, short_ids(ids), strict=True))
    by_cli = sorted(
        (row["thread_id"], shown[row["checkpoint_id"]], str(row["step"]), row["node"],
         error["type"])
        for row in said["invalid"]
        for error in row["errors"]
    )  # fmt: skip

    for name in [k for k in os.environ if k.startswith("PLAYGROUND_")]:
        monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    at = AppTest.from_file(THREADS, default_timeout=60).run()
    assert at.radio(key="threads_source").value == "server"
    at.button(key="threads_audit_run").click().run()
    assert not at.exception
    by_page = sorted(row[:5] for row in table_rows(at, "thread_id", "checkpoint_id"))

    assert by_cli == by_page
    assert [t for t, *_ in by_cli] == ["fault-bad_status_last", "fault-negative_amount"]
    assert (said["threads"], said["checkpoints"], said["unreadable"]) == (10, 10, [])


def test_a_store_argument_wins_over_the_configuration_and_keeps_its_assistant(tmp_path):
    (tmp_path / "playground.toml").write_text(
        '[playground]\nstore = "configured.sqlite"\nassistant = "orders"\n'
    )
    project = load_project([], {}, tmp_path)
    env = {"PLAYGROUND_STORE": "from-env.sqlite"}
    assert store_session(project, env, tmp_path).store == ServerStore(
        "configured.sqlite", "playground.toml", "orders"
    )
    assert store_session(project, env, tmp_path, store="given.sqlite").store == ServerStore(
        "given.sqlite", "argument", "orders"
    )
    given = store_session(project, env, tmp_path, store="x.db", assistant="billing")
    assert given.store == ServerStore("x.db", "argument", "billing")
    assert store_session(project, {}, "/nonexistent").store is None


def test_the_types_read_are_the_models_and_every_schema_the_graph_declares():
    graph = build_order_graph()
    assert allowed_types(AgentState, CandidateState, graph) == (AgentState, CandidateState)
    assert allowed_types(AgentState, None, None) == (AgentState,)
    project = load_project(["--graph", "core.order:build_fanout_graph"], {}, ".")
    session = store_session(project, {}, "/nonexistent")
    assert session.model is AgentState
    assert session.allowed == (AgentState,)
    assert ("core.order", "LineItem") in session.serde().allowed
