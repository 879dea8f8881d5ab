"""LangGraph's own saver on a store with writes allowed: the one writer the unbrick and the
migration use (each refuses first unless writes are enabled)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.base import SerializerProtocol

from core.stores.backends.spec import parse_store_spec

__all__ = ["open_writable"]


@contextmanager
def open_writable(spec: str, serde: SerializerProtocol) -> Iterator[BaseCheckpointSaver[Any]]:
    """LangGraph's saver on the file or database `spec` names, on a connection that may
    write, reading through `serde`; the tables must be there (nothing is set up)."""
    parsed = parse_store_spec(spec)
    if parsed.kind == "postgres":
        import psycopg
        from langgraph.checkpoint.postgres import PostgresSaver
        from psycopg.rows import dict_row

        with psycopg.connect(
            parsed.target, autocommit=True, prepare_threshold=0, row_factory=dict_row
        ) as conn:
            yield PostgresSaver(conn, serde=serde)
        return
    from langgraph.checkpoint.sqlite import SqliteSaver

    with closing(sqlite3.connect(parsed.target, check_same_thread=False)) as conn:
        saver = SqliteSaver(conn, serde=serde)
        saver.is_setup = True  # the tables are there; setup() would also change the journal
        yield saver
