"""Real savers for the guard's tests: LangGraph's own on SQLite files and on a throwaway
PostgreSQL 15 cluster (one per session, as tests/core/stores starts it), sync and async."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver

from bench._postgres import Postgres, throwaway_postgres
from core.guard.ledger import state_channels

KINDS = ("sqlite", "postgres")
_names = (f"guard{n}" for n in itertools.count())


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with throwaway_postgres() as cluster:
        yield cluster


@pytest.fixture(params=KINDS)
def store(request, tmp_path) -> tuple[str, str]:
    """(kind, spec) of an empty store of this test's own: a SQLite file or a new database."""
    if request.param == "sqlite":
        return "sqlite", str(tmp_path / "threads.sqlite")
    return "postgres", request.getfixturevalue("postgres").create_database(next(_names))


@contextmanager
def saver_on(kind: str, spec: str) -> Iterator[BaseCheckpointSaver[Any]]:
    """LangGraph's own sync saver on the store."""
    if kind == "sqlite":
        with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
            yield SqliteSaver(conn)
        return
    with PostgresSaver.from_conn_string(spec) as saver:
        saver.setup()
        yield saver


@asynccontextmanager
async def async_saver_on(kind: str, spec: str) -> AsyncIterator[BaseCheckpointSaver[Any]]:
    """LangGraph's own async saver on the store."""
    if kind == "sqlite":
        async with AsyncSqliteSaver.from_conn_string(spec) as saver:
            yield saver
        return
    async with AsyncPostgresSaver.from_conn_string(spec) as saver:
        await saver.setup()
        yield saver


def raw_rows(saver: BaseCheckpointSaver[Any], thread_id: str) -> list[tuple[Any, ...]]:
    """What the saver's own `list` holds for a thread, newest first: (step, source, state
    channels, [(channel, value) of each pending write], sorted: parallel tasks write in any
    order)."""
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    return [_raw_row(saved) for saved in saver.list(config)]


async def araw_rows(saver: BaseCheckpointSaver[Any], thread_id: str) -> list[tuple[Any, ...]]:
    """`raw_rows` through the saver's `alist`."""
    config = {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}
    return [_raw_row(saved) async for saved in saver.alist(config)]


def _raw_row(saved: Any) -> tuple[Any, ...]:
    return (
        saved.metadata["step"],
        saved.metadata["source"],
        state_channels(saved.checkpoint["channel_values"]),
        sorted(((c, v) for _, c, v in saved.pending_writes or ()), key=repr),
    )
