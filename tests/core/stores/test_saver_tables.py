"""Our SQL reads the savers' tables only as core.lg_compat.SAVER_TABLES lays them out."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from core.lg_compat import SAVER_TABLES
from core.migrate.states import stored_states
from core.order import AgentState
from core.stores import audit_store, open_store, strict_serde
from core.stores.demo import DEMO_THREADS, run_demo_threads
from core.stores.reader import page_starts, thread_total
from core.stores.threads import list_threads
from core.stores.timeline import thread_timeline

from .conftest import new_store, writer
from .test_send_blame import Jokes, _map_reduce


def _reads(spec: str) -> dict:
    """Everything the playground reads from a store with its own SQL."""
    with open_store(spec, strict_serde([AgentState, Jokes])) as store:
        return {
            "audit": audit_store(store, AgentState, history=True).to_json(),
            "migration": list(stored_states(store, AgentState, history_too=True)),
            "threads": list_threads(store, AgentState),
            "timelines": [thread_timeline(store, t, AgentState) for t in [*DEMO_THREADS, "t"]],
            "total": thread_total(store, "fault-"),
            "pages": page_starts(store, "", 3, 4),
        }


def _reduced_sqlite(full: str, reduced: str) -> str:
    """A copy of the SQLite store `full` holding only the declared tables and columns."""
    with closing(sqlite3.connect(reduced)) as conn:
        conn.execute("ATTACH DATABASE ? AS full", (full,))
        for table, columns in SAVER_TABLES["sqlite"].columns.items():
            conn.execute(f"CREATE TABLE {table} AS SELECT {', '.join(columns)} FROM full.{table}")
        conn.commit()
    return reduced


def _reduced_postgres(full: str) -> str:
    """The Postgres store `full`, read through a schema holding only copies of the declared
    tables and columns (first on the search path: an unqualified name finds the copy)."""
    import psycopg

    with psycopg.connect(full, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA reduced")
        for table, columns in SAVER_TABLES["postgres"].columns.items():
            conn.execute(
                f"CREATE TABLE reduced.{table} AS SELECT {', '.join(columns)} FROM public.{table}"
            )
    return f"{full}?options=-csearch_path%3Dreduced"


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_every_read_gives_the_same_from_the_declared_columns_alone(kind, tmp_path, request):
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    full = new_store(kind, "declared", tmp_path, pg)
    with writer(kind, full) as saver:
        run_demo_threads(saver)
        # a Send: its writer is read from the checkpoint's pending sends
        _map_reduce().compile(checkpointer=saver).invoke(
            {"topics": ["cats", "elephants"]}, {"configurable": {"thread_id": "t"}}
        )
    if kind == "sqlite":
        reduced = _reduced_sqlite(full, str(tmp_path / "reduced.sqlite"))
    else:
        reduced = _reduced_postgres(full)
    whole, declared = _reads(full), _reads(reduced)
    assert declared == whole
    sends = whole["timelines"][-1]
    assert sends is not None
    assert [(c.step, c.node) for c in sends.checkpoints] == [
        (-1, None), (0, "__start__"), (1, "plan"), (2, "write_joke"),
    ]  # fmt: skip
    assert [(s["thread_id"], s["step"], s["node"]) for s in whole["audit"]["invalid"]] == [
        ("fault-bad_status_last", 2, "confirm"), ("fault-negative_amount", 1, "validate_order"),
        ("t", 2, "write_joke"), ("t", 1, "plan"), ("t", 0, "__start__"), ("t", -1, None),
    ]  # fmt: skip
    assert [(row.thread_id, row.label()) for row in whole["threads"].rows] == [
        ("clean-1", "valid"), ("clean-2", "valid"),
        ("fault-bad_status_last", "broken at step 2"),
        ("fault-negative_amount", "broken at step 1"),
        ("fault-node_exception", "interrupted"), ("fault-overwrite_logs", "valid"),
        ("fault-parallel_status", "interrupted"), ("fault-undeclared_key", "valid"),
        ("interrupted", "interrupted"), ("model-change", "valid"),
        ("t", "does not fit the model"),
    ]  # fmt: skip
    assert (whole["total"], whole["pages"]) == (
        6, ["", "fault-bad_status_last", "fault-overwrite_logs", "interrupted"],
    )  # fmt: skip
