"""Apply a plan to real stores: one fork per fixed thread through LangGraph's update_state,
every existing row kept byte for byte, and LangGraph itself the judge of the forks."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from typing import Any

import psycopg
import pytest
from langgraph.errors import InvalidUpdateError
from langgraph.types import Command
from pydantic_core import to_jsonable_python

from core.migrate.apply import apply_plan
from core.migrate.graph import with_state
from core.migrate.plan import Plan
from core.migrate.preview import preview_migration
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV, UnbrickCode, UnbrickError

from .conftest import Stored, saver_on
from .oracle import checkpoint_id, plain, root, saved_states


def _serde(stored: Stored):
    return strict_serde([stored.case.model, stored.case.candidate])


def _rows(stored: Stored) -> dict[str, set[str]]:
    """Every row of every table, each as JSON text of its columns (bytes as hex)."""
    if stored.kind == "sqlite":
        with closing(sqlite3.connect(stored.spec)) as conn:
            conn.row_factory = sqlite3.Row
            tables = [row[0] for row in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")]  # fmt: skip
            return {table: {json.dumps({key: row[key].hex() if isinstance(row[key], bytes)
                                        else row[key] for key in row.keys()}, sort_keys=True)
                            for row in conn.execute(f"SELECT * FROM {table}")}
                    for table in tables}  # fmt: skip
    with psycopg.connect(stored.spec) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")]  # fmt: skip
        return {table: {row[0] for row in conn.execute(
            f"SELECT row_to_json(r)::text FROM {table} r")} for table in tables}  # fmt: skip


# LangGraph's get_state cannot read this thread: it applies the pending writes of the two
# nodes START leads to, which collide on `status` (the run's own InvalidUpdateError). Both
# nodes are what runs next.
_NEXT_UNREADABLE = {"fault-parallel_status": ("validate_order", "audit")}


def _before_the_fork(stored: Stored) -> dict[str, tuple[str, tuple[str, ...], dict[str, Any]]]:
    """Thread the plan fixes -> its latest checkpoint, what LangGraph's get_state says runs
    next (through the graph that wrote it) and its state as the saver reads it."""
    found = {}
    with saver_on(stored.kind, stored.spec, _serde(stored)) as saver:
        states = {thread: state for thread, _, state in saved_states(saver, history=False)}
        for thread in stored.case.fixed:
            graph = stored.case.graph_for(thread).builder.compile(checkpointer=saver)
            latest = checkpoint_id(saver.get_tuple(root(thread)).config)
            if thread in _NEXT_UNREADABLE:
                with pytest.raises(InvalidUpdateError):
                    graph.get_state(root(thread))
                found[thread] = (latest, _NEXT_UNREADABLE[thread], states[thread])
            else:
                found[thread] = (latest, graph.get_state(root(thread)).next, states[thread])
    return found


def _changed_fields(stored: Stored, state: dict[str, Any]) -> list[str]:
    """The fields the plan gives a new value (a field dropped or renamed away has none)."""
    after = apply_plan(stored.case.plan, state).state
    return sorted(key for key in after if key not in state
                  or to_jsonable_python(after[key]) != to_jsonable_python(state[key]))  # fmt: skip


def _new_rows(before: dict[str, set[str]], after: dict[str, set[str]]) -> list[tuple[str, Any]]:
    assert all(before[table] <= after[table] for table in before), "an existing row changed"
    added = sorted(
        (table, row) for table in after for row in after[table] - before.get(table, set())
    )
    return [(table, json.loads(row)) for table, row in added]


def test_apply_forks_each_fixed_thread_once_and_keeps_every_row(own_store, monkeypatch):
    stored, case = own_store, own_store.case
    before, latest = _rows(stored), _before_the_fork(stored)
    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_migration(stored.spec, case.model, case.candidate, case.plan,
                              case.graph_for, _serde(stored))  # fmt: skip
    assert [(w.thread_id, w.from_checkpoint_id) for w in written] == [
        (thread, latest[thread][0]) for thread in case.fixed
    ]
    after = _rows(stored)
    new = _new_rows(before, after)
    with saver_on(stored.kind, stored.spec, _serde(stored)) as saver:
        forks = {w.thread_id: saver.get_tuple(root(w.thread_id)) for w in written}
    # each fork is its thread's newest checkpoint, a child of the former latest
    assert {thread: (checkpoint_id(fork.config), checkpoint_id(fork.parent_config))
            for thread, fork in forks.items()} == {
        w.thread_id: (w.new_checkpoint_id, w.from_checkpoint_id) for w in written
    }  # fmt: skip
    checkpoint_rows = [(row["thread_id"], row["checkpoint_id"], row["parent_checkpoint_id"])
                       for table, row in new if table == "checkpoints"]  # fmt: skip
    assert sorted(checkpoint_rows) == [
        (w.thread_id, w.new_checkpoint_id, w.from_checkpoint_id) for w in written
    ]
    # Beside each fork, LangGraph's update_state files the update's writes under the
    # checkpoint it builds on (one task: the fields the plan changed, and the branch to
    # each node due next), and Postgres keeps the fork's new channel versions as blobs.
    filed: dict[str, set[tuple[str, str]]] = {}
    tasks: dict[str, set[str]] = {}
    blobs = []
    for table, row in new:
        if table in ("writes", "checkpoint_writes"):
            filed.setdefault(row["thread_id"], set()).add((row["checkpoint_id"], row["channel"]))
            tasks.setdefault(row["thread_id"], set()).add(row["task_id"])
        elif table == "checkpoint_blobs":
            versions = forks[row["thread_id"]].checkpoint["channel_versions"]
            blobs.append(versions.get(row["channel"]) == row["version"])
        else:
            assert table == "checkpoints"
    assert filed == {
        w.thread_id: {(w.from_checkpoint_id, channel) for channel in [
            *_changed_fields(stored, latest[w.thread_id][2]),
            *(f"branch:to:{node}" for node in latest[w.thread_id][1])]}
        for w in written
    }  # fmt: skip
    assert ([len(ids) for ids in tasks.values()], blobs) == (
        [1] * len(written),
        [True] * len(blobs),
    )

    again = write_migration(stored.spec, case.model, case.candidate, case.plan,
                            case.graph_for, _serde(stored))  # fmt: skip
    assert (again, _rows(stored)) == ([], after)


def test_langgraph_reads_each_fork_with_the_candidate_and_continues_the_run(own_store, monkeypatch):
    stored, case = own_store, own_store.case
    latest = _before_the_fork(stored)
    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_migration(stored.spec, case.model, case.candidate, case.plan,
                              case.graph_for, _serde(stored))  # fmt: skip
    seen, held, ran, extra = {}, {}, {}, {}
    with saver_on(stored.kind, stored.spec, _serde(stored)) as saver:
        for fork in written:
            thread = fork.thread_id
            graph = with_state(case.graph_for(thread), case.candidate).compile(checkpointer=saver)
            state = graph.get_state(root(thread))
            newest = next(iter(graph.get_state_history(root(thread))))
            case.candidate.model_validate(state.values)
            seen[thread] = (checkpoint_id(state.config), checkpoint_id(newest.config),
                            checkpoint_id(state.parent_config), state.metadata["source"],
                            state.next)  # fmt: skip
            held[thread] = to_jsonable_python(state.values)
            # the fork as the saver itself reads it: no field the candidate lacks
            values = saver.get_tuple(root(thread)).checkpoint["channel_values"]
            fields = [k for k in values if not k.startswith("__") and ":" not in k]
            extra[thread] = sorted(set(fields) - set(case.candidate.model_fields))
            case.candidate.model_validate(plain({k: values[k] for k in fields}))
            try:
                # a thread waiting on `interrupt()` is answered; any other continues as is
                asked = (stored.outcome[thread] or "").startswith("asked")
                graph.invoke(Command(resume="yes") if asked else None, root(thread))
                after = graph.get_state(root(thread))
                case.candidate.model_validate(after.values)
                ran[thread] = after.next
            except Exception as exc:  # noqa: BLE001 - the same raise as the run the thread had
                ran[thread] = type(exc).__name__
    assert seen == {
        fork.thread_id: (fork.new_checkpoint_id, fork.new_checkpoint_id, fork.from_checkpoint_id,
                         "update", latest[fork.thread_id][1])
        for fork in written
    }  # fmt: skip
    assert extra == {fork.thread_id: [] for fork in written}
    # the fork holds the migrated state: each field the plan changed replaced, not merged
    # by its reducer (an `operator.add` list written as LangGraph's Overwrite)
    assert held == {fork.thread_id: to_jsonable_python(
        apply_plan(case.plan, plain(latest[fork.thread_id][2])).state) for fork in written}  # fmt: skip
    # a thread that finished, was interrupted or is answered finishes; one whose run raised
    # raises again
    assert ran == {
        fork.thread_id: (stored.outcome[fork.thread_id] or "").partition(":")[0]
        if _raised(stored.outcome[fork.thread_id])
        else ()
        for fork in written
    }


def _raised(outcome: str | None) -> bool:
    return outcome is not None and not outcome.startswith(("interrupted", "asked"))


def test_after_apply_only_the_threads_the_plan_could_not_fix_are_broken(own_store, monkeypatch):
    stored, case = own_store, own_store.case
    monkeypatch.setenv(WRITES_ENV, "1")
    write_migration(stored.spec, case.model, case.candidate, case.plan, case.graph_for,
                    _serde(stored))  # fmt: skip
    with open_any(stored.spec, _serde(stored)) as store:
        audit = preview_migration(store, case.candidate, case.candidate, Plan())
    assert [broken.thread_id for broken in audit.still_broken] == sorted(
        set(stored.outcome) - set(case.fixed)
    )


def test_apply_is_refused_unless_writes_are_enabled(own_store, monkeypatch):
    stored, case = own_store, own_store.case
    monkeypatch.delenv(WRITES_ENV, raising=False)
    before = _rows(stored)
    with pytest.raises(UnbrickError) as refused:
        write_migration(stored.spec, case.model, case.candidate, case.plan, case.graph_for,
                        _serde(stored))  # fmt: skip
    assert (refused.value.code, _rows(stored)) == (UnbrickCode.WRITES_DISABLED, before)
