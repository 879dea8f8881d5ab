"""A real PostgreSQL 15 for the store tests (one throwaway cluster per session) and stores."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from bench._postgres import PG_PASSWORD, Postgres, free_port, throwaway_postgres
from core.stores.demo import run_demo_threads
from tests.server_fixtures import langgraph_server, sqlite_langgraph_server

# the two server fixtures start `langgraph dev` only for a test that asks for one
__all__ = [
    "PG_PASSWORD",
    "Postgres",
    "free_port",
    "langgraph_server",
    "langgraphs_writer",
    "new_store",
    "sqlite_langgraph_server",
    "superuser_warning",
    "writer",
]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with throwaway_postgres() as cluster:
        yield cluster


@contextmanager
def writer(kind: str, target: str) -> Iterator[BaseCheckpointSaver]:
    """LangGraph's own saver, writable, on a SQLite file or a Postgres DSN."""
    if kind == "sqlite":
        with closing(sqlite3.connect(target, check_same_thread=False)) as conn:
            yield SqliteSaver(conn)
    else:
        with PostgresSaver.from_conn_string(target) as saver:
            saver.setup()
            yield saver


def langgraphs_writer(saver, graph, saved, fields=None) -> str | None:
    """LangGraph's own answer to which node(s) wrote the checkpoint `saved`: the tasks of its
    parent (`graph.get_state`, over `saver`) whose pending writes made it, in the saver's
    order; with `fields`, those that wrote one of them, if any did."""
    if saved.metadata["source"] == "input":
        return None
    parent = saver.get_tuple(saved.parent_config)
    names = {task.id: task.name for task in graph.get_state(saved.parent_config).tasks}
    state_writes = [w for w in parent.pending_writes if ":" not in w[1] and w[1][0] != "_"]
    chosen = [w for w in state_writes if w[1] in (fields or ())] or state_writes
    return ", ".join(dict.fromkeys(names[task_id] for task_id, _, _ in chosen)) or None


def new_store(kind: str, name: str, tmp: Path, postgres: Postgres | None) -> str:
    """An empty checkpoint store's spec: a SQLite file path or a fresh Postgres database."""
    if kind == "sqlite":
        return str(tmp / f"{name}.sqlite")
    assert postgres is not None
    return postgres.create_database(name)


def _demo(kind: str, tmp: Path, postgres: Postgres | None) -> str:
    spec = new_store(kind, "demo", tmp, postgres)
    with writer(kind, spec) as saver:
        run_demo_threads(saver)
    return spec


@pytest.fixture(scope="session")
def postgres_demo(postgres, tmp_path_factory) -> str:
    """The DSN of the demo threads written by real runs through the real PostgresSaver."""
    return _demo("postgres", tmp_path_factory.mktemp("demo"), postgres)


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def demo_store(request, tmp_path_factory) -> tuple[str, str]:
    """(kind, spec) of the demo threads written by real runs through the real saver."""
    if request.param == "postgres":
        return "postgres", request.getfixturevalue("postgres_demo")
    return "sqlite", _demo("sqlite", tmp_path_factory.mktemp("demo"), None)


def superuser_warning(kind: str, label: str) -> str:
    """The warning line the audit prints first on a Postgres store read as a superuser (the
    throwaway cluster's `postgres` role)."""
    if kind != "postgres":
        return ""
    return (
        f"warning: [store_role_superuser] {label}: the playground reads as a superuser, who "
        "may do anything on the database server; connect as a role that may only SELECT "
        "them (README: an audit role).\n"
    )
