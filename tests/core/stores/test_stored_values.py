"""Stored values as users' stores hold them: huge, invalid, role-style, constructed, foreign."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.order import SEED_PAYLOAD, AgentState, LineItem, build_order_graph
from core.project import load_project
from core.stores import audit_store, open_store, strict_serde
from core.stores.threads import list_threads
from core.stores.timeline import thread_timeline

from .conftest import writer

ROOT = Path(__file__).resolve().parents[3]
HUGE = 200 * 1024 * 1024  # the 200 MB value


def _config(thread: str) -> dict:
    return {"configurable": {"thread_id": thread}}


def _store_with(tmp_path: Path, name: str, updates: dict[str, dict]) -> str:
    """A SQLite store of seed runs, each thread then given `updates[thread]` by update_state."""
    spec = str(tmp_path / f"{name}.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread, update in updates.items():
            graph.invoke(SEED_PAYLOAD, _config(thread))
            if update:
                graph.update_state(_config(thread), update, as_node="confirm")
    return spec


def _peak_rss_mb(*args: str) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Peak resident memory of `python -m core audit ARGS` (its own process), in MB."""
    probe = (
        "import resource, subprocess, sys, json;"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True);"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024;"
        "print(json.dumps([peak, done.returncode, done.stdout, done.stderr]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, sys.executable, "-m", "core", "audit", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=ROOT, capture_output=True, text=True,
        timeout=300, check=True,
    )  # fmt: skip
    peak, code, stdout, stderr = json.loads(out.stdout)
    return peak, subprocess.CompletedProcess(args, code, stdout, stderr)


def test_a_200_mb_value_is_skipped_unread_and_memory_follows_the_values_read(tmp_path):
    big = _store_with(tmp_path, "big", {"small": {}, "huge": {"logs": ["x" * HUGE]}})
    control = _store_with(tmp_path, "control", {"small": {}, "huge": {"logs": ["x"]}})
    model = ["--model", "core.order:AgentState", "--json"]
    peak, done = _peak_rss_mb(big, *model)
    control_peak, _ = _peak_rss_mb(control, *model)
    assert done.returncode == 1, done.stderr
    body = json.loads(done.stdout)
    assert (body["threads"], body["invalid"], [(r["thread_id"], r["code"]) for r in body["unreadable"]]) == (
        2, [], [("huge", "row_too_large")],
    )  # fmt: skip
    assert body["unreadable"][0]["message"].startswith(
        "the checkpoint is 200.0 MB, over the 16.0 MB"
    )
    assert len(done.stdout) < 2_000, "the value is never printed"
    # the target: peak memory at most twice the value above the same audit without it
    assert peak - control_peak <= 2 * HUGE / 2**20, (peak, control_peak)


def test_an_invalid_value_is_reported_cut_with_its_size_named(tmp_path):
    spec = _store_with(tmp_path, "invalid", {"long": {"status": "s" * 5_000_000}})
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
    [state] = result.invalid
    [error] = state.errors
    assert (error["type"], error["loc"]) == ("literal_error", ["status"])
    assert error["input"] == "s" * 200 + "… (5,000,000 characters)"
    assert len(json.dumps(result.to_json())) < 2_000


def test_a_thread_started_with_role_style_messages_reads_as_langgraph_wrote_it(tmp_path):
    spec = str(tmp_path / "roles.sqlite")
    payload = {**SEED_PAYLOAD, "messages": [{"role": "user", "content": "hi"}, "a plain string"]}
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        graph.invoke(payload, _config("roles"))
        graph.invoke({"messages": [{"role": "user", "content": "again"}]}, _config("roles"))
        stored = [s for s in saver.list(_config("roles"))]
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState, history=True)
        timeline = thread_timeline(store, "roles", AgentState)
    assert (result.checkpoints, result.invalid, result.unreadable) == (len(stored), [], [])
    inputs = [c for c in timeline.checkpoints if c.source == "input"]
    assert [[type(m).__name__ for m in c.state["messages"]] for c in inputs] == [
        ["HumanMessage", "HumanMessage"],  # both turned into messages, as add_messages does
        ["HumanMessage", "HumanMessage", "AIMessage", "HumanMessage"],  # appended to the thread
    ]
    assert [m.content for m in inputs[1].state["messages"]] == [
        "hi", "a plain string", "Order validated", "again",
    ]  # fmt: skip


def test_a_message_that_no_reducer_can_read_is_an_error_at_its_field(tmp_path):
    spec = str(tmp_path / "no_type.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        with pytest.raises(ValueError):  # LangGraph's add_messages: neither type nor role
            graph.invoke({**SEED_PAYLOAD, "messages": [{"content": "hi"}]}, _config("t"))
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState, history=True)
    [state] = result.invalid
    assert (state.step, [(e["type"], e["loc"]) for e in state.errors]) == (
        -1, [("langgraph_exception", ["messages"])],
    )  # fmt: skip


def test_a_constructed_instance_that_breaks_its_models_rules_is_reported(tmp_path):
    bad = LineItem.model_construct(sku="bad sku", qty=100, unit_price=1.0)
    spec = _store_with(tmp_path, "constructed", {"t": {"items": [bad]}})
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
        page = list_threads(store, AgentState)
    [state] = result.invalid
    assert [(e["type"], e["loc"], e["input"]) for e in state.errors] == [
        ("string_pattern_mismatch", ["items", 0, "sku"], "bad sku"),
        ("less_than_equal", ["items", 0, "qty"], 100),
    ]
    assert [(row.label(), row.detail) for row in page.rows] == [
        ("broken at step 3", "written by no node")  # update_state, not a node's run, wrote it
    ]


def test_a_store_written_with_another_model_does_not_fit_and_is_not_called_broken(tmp_path):
    # threads of the seed order, read as the shop fixture's model: no state ever fit it
    spec = _store_with(tmp_path, "foreign", {"a": {}, "b": {}})
    model = load_project(["--model", "shop.state:ShopState"], {}, ROOT / "tests" / "fixtures").model
    assert model is not None
    with open_store(spec, strict_serde([model])) as store:
        page = list_threads(store, model)
        timeline = thread_timeline(store, "a", model)
    assert [(row.thread_id, row.label()) for row in page.rows] == [
        ("a", "does not fit the model"), ("b", "does not fit the model"),
    ]  # fmt: skip
    assert page.rows[0].detail.startswith("order_id (missing), placed_on (missing), ")
    assert timeline.does_not_fit
    assert timeline.blame_line() == (
        "No stored state of this thread fits the model, from its first checkpoint on "
        "(4 checkpoints read)."
    )
