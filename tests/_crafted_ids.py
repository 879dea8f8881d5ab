"""A SQLite checkpoint store whose thread ids are of any storage class SQLite holds (TEXT,
BLOB, INTEGER, REAL), as a crafted file or another writer may leave them: real runs of the
seed graph through LangGraph's own saver, their ids rewritten afterwards."""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Mapping
from contextlib import closing
from pathlib import Path

from core.order import SEED_PAYLOAD, build_order_graph
from tests.core.stores.conftest import writer

__all__ = ["crafted_id_store"]

# SqliteSaver's tables, but with no type on thread_id: a column without one keeps each
# value's own storage class (a TEXT column would turn 42 into '42')
_TABLES = (
    "CREATE TABLE checkpoints (thread_id NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', "
    "checkpoint_id TEXT NOT NULL, parent_checkpoint_id TEXT, type TEXT, checkpoint BLOB, "
    "metadata BLOB, PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id))",
    "CREATE TABLE writes (thread_id NOT NULL, checkpoint_ns TEXT NOT NULL DEFAULT '', "
    "checkpoint_id TEXT NOT NULL, task_id TEXT NOT NULL, task_path TEXT NOT NULL DEFAULT '', "
    "idx INTEGER NOT NULL, channel TEXT NOT NULL, type TEXT, value BLOB, "
    "PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx))",
)
_CLASS = {str: "text", bytes: "blob", int: "integer", float: "real"}


def crafted_id_store(
    path: Path, ids: Mapping[str, str | bytes | int | float], broken: Collection[str] = ()
) -> str:
    """The spec of a SQLite store at `path` holding one finished seed-graph run per name of
    `ids`, its rows then moved (both tables) to the thread id `ids` gives that name.

    A str id is stored as its bytes cast to TEXT (a lone surrogate from `surrogateescape`
    stands for a byte that is not UTF-8); the runs named in `broken` end on a state the model
    refuses (the `bad_status_last` fault).
    """
    spec = str(path)
    with closing(sqlite3.connect(spec)) as conn:
        for table in _TABLES:
            conn.execute(table)
        conn.commit()
    with writer("sqlite", spec) as saver:
        for name in ids:
            graph = build_order_graph(["bad_status_last"] if name in broken else [])
            graph.builder.compile(checkpointer=saver).invoke(
                SEED_PAYLOAD, {"configurable": {"thread_id": name}}
            )
    with closing(sqlite3.connect(spec)) as conn:
        for name, value in ids.items():
            if value == name:
                continue  # run under its own id already
            new = "CAST(? AS TEXT)" if isinstance(value, str) else "?"
            stored = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
            for table in ("checkpoints", "writes"):
                conn.execute(
                    f"UPDATE {table} SET thread_id = {new} WHERE thread_id = ?", (stored, name)
                )
        conn.commit()
        kinds = conn.execute("SELECT DISTINCT typeof(thread_id) FROM checkpoints").fetchall()
    assert sorted(k for (k,) in kinds) == sorted({_CLASS[type(v)] for v in ids.values()})
    return spec
