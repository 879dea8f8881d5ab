"""Unbrick on real SQLite and Postgres stores: a fork through update_state, then the run resumes."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import psycopg
import pytest
from pydantic_core import to_jsonable_python

from core.order import AgentState, build_order_graph
from core.stores import open_store, strict_serde
from core.stores.demo import CandidateState, run_demo_threads
from core.stores.timeline import thread_timeline
from core.stores.unbrick import (
    WRITES_ENV,
    UnbrickCode,
    UnbrickError,
    plan_unbrick,
    write_unbrick,
    writes_enabled,
)

from .conftest import new_store, writer
from .test_audit import _root

_TABLES = {
    "sqlite": ("checkpoints", "writes"),
    "postgres": ("checkpoints", "checkpoint_blobs", "checkpoint_writes"),
}


@pytest.fixture(params=["sqlite", "postgres"])
def own_demo(request, tmp_path) -> tuple[str, str]:
    """A demo store of this test's own (it is written to)."""
    if request.param == "sqlite":
        spec = new_store("sqlite", "demo", tmp_path, None)
    else:
        spec = new_store("postgres", "unbrick", tmp_path, request.getfixturevalue("postgres"))
    with writer(request.param, spec) as saver:
        run_demo_threads(saver)
    return request.param, spec


def _rows(kind: str, spec: str) -> set[tuple]:
    if kind == "sqlite":
        with closing(sqlite3.connect(spec)) as conn:
            return {(t, *r) for t in _TABLES[kind] for r in conn.execute(f"SELECT * FROM {t}")}
    with psycopg.connect(spec) as conn:  # each row whole, as text (JSONB columns are dicts)
        query = "SELECT row_to_json(r)::text FROM {} r"
        return {(t, *r) for t in _TABLES[kind] for r in conn.execute(query.format(t))}


def _edited(spec: str, thread: str, **fix) -> tuple:
    with open_store(spec, strict_serde([AgentState])) as store:
        timeline = thread_timeline(store, thread, AgentState)
    return timeline, {**to_jsonable_python(timeline.checkpoints[-1].state), **fix}


def test_writes_are_off_unless_the_server_enables_them(monkeypatch, tmp_path):
    monkeypatch.delenv(WRITES_ENV, raising=False)
    assert not writes_enabled()
    monkeypatch.setenv(WRITES_ENV, "yes")
    assert not writes_enabled()
    spec = str(tmp_path / "demo.sqlite")
    with writer("sqlite", spec) as saver:
        run_demo_threads(saver)
    graph = build_order_graph(["negative_amount"])
    timeline, edited = _edited(spec, "fault-negative_amount", amount=99)
    plan = plan_unbrick(timeline, edited, AgentState, graph)  # a dry run needs no writes
    before = _rows("sqlite", spec)
    with pytest.raises(UnbrickError) as refused:
        write_unbrick(spec, plan, graph, strict_serde([AgentState]))
    assert refused.value.code == UnbrickCode.WRITES_DISABLED
    assert refused.value.message == (
        f"writes to {spec} are off; start the server with PLAYGROUND_STORE_WRITES=1 to unbrick "
        "threads."
    )
    assert _rows("sqlite", spec) == before


def test_an_edit_that_is_still_invalid_or_unchanged_is_refused(own_demo):
    timeline, edited = _edited(own_demo[1], "fault-negative_amount")
    graph = build_order_graph(["negative_amount"])
    with pytest.raises(UnbrickError) as invalid:
        plan_unbrick(timeline, edited, AgentState, graph)
    with pytest.raises(UnbrickError) as not_object:
        plan_unbrick(timeline, [edited], AgentState, graph)
    base = to_jsonable_python(timeline.checkpoints[-2].state)
    with pytest.raises(UnbrickError) as unchanged:
        plan_unbrick(timeline, base, AgentState, graph)
    with open_store(own_demo[1], strict_serde([CandidateState])) as store:
        changed = thread_timeline(store, "model-change", CandidateState)  # invalid from input
    with pytest.raises(UnbrickError) as no_fork:
        plan_unbrick(changed, {**edited, "amount": 400}, CandidateState, build_order_graph())
    assert [e.value.code for e in (invalid, not_object, unchanged, no_fork)] == [
        UnbrickCode.INVALID_EDIT, UnbrickCode.NOT_AN_OBJECT, UnbrickCode.NOTHING_TO_WRITE,
        UnbrickCode.NO_FORK_POINT,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("thread", "faults", "fix", "dry_run_values", "replaced", "as_node"),
    [
        (
            "fault-negative_amount", ["negative_amount"], {"amount": 99},
            {"status": "validated", "logs": ["amount=99.0 items=1"]}, ["logs", "messages"],
            "validate_order",
        ),
        (
            "fault-bad_status_last", ["bad_status_last"], {"status": "confirmed"},
            {"status": "confirmed", "logs": ["amount=99.0 items=1", "confirmed"]}, ["logs"],
            "confirm",
        ),
    ],
)  # fmt: skip
def test_unbrick_forks_the_thread_and_it_resumes(
    own_demo, monkeypatch, thread, faults, fix, dry_run_values, replaced, as_node
):
    kind, spec = own_demo
    monkeypatch.setenv(WRITES_ENV, "1")
    graph = build_order_graph(faults)
    timeline, edited = _edited(spec, thread, **fix)
    plan = plan_unbrick(timeline, edited, AgentState, graph)
    dry_run = plan.dry_run()
    assert {k: v for k, v in dry_run["values"].items() if k != "messages"} == dry_run_values
    assert dry_run["fork_from_checkpoint"] == timeline.blamed.parent_id
    assert (dry_run["as_node"], dry_run["replaced_whole (reducer bypassed with Overwrite)"]) == (
        as_node, replaced,
    )  # fmt: skip
    before = _rows(kind, spec)

    written = write_unbrick(spec, plan, graph, strict_serde([AgentState]))

    after = _rows(kind, spec)
    assert before <= after, "no existing row was changed or deleted"
    new_id = written["configurable"]["checkpoint_id"]
    added = after - before
    assert {row[0] for row in added} >= {"checkpoints"}
    assert all(new_id in str(row) for row in added if row[0] == "checkpoints")
    with writer(kind, spec) as saver:
        resumable = graph.builder.compile(checkpointer=saver)
        state = resumable.get_state(_root(thread))
        assert state.config["configurable"]["checkpoint_id"] == new_id
        assert state.metadata["source"] == "update"
        assert state.parent_config["configurable"]["checkpoint_id"] == plan.checkpoint_id
        assert AgentState.model_validate(state.values).amount == 99
        output = resumable.invoke(None, {**_root(thread), "recursion_limit": 10})
    assert (output["status"], output["logs"]) == ("confirmed", ["amount=99.0 items=1", "confirmed"])
    with open_store(spec, strict_serde([AgentState])) as store:
        assert thread_timeline(store, thread, AgentState).blamed is None
