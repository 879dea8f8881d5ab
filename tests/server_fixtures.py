"""Opt-in fixtures: a real `langgraph dev` serving tests/fixtures/server_graph (mark: server)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests._langgraph_server import LangGraphServer, langgraph_dev

__all__ = [
    "SERVER_GRAPH",
    "ServedStore",
    "langgraph_server",
    "serve_server_graph",
    "sqlite_langgraph_server",
]

SERVER_GRAPH = Path(__file__).resolve().parent / "fixtures" / "server_graph"
_SQLITE_ENV = "SERVER_GRAPH_SQLITE"  # read by tests/fixtures/server_graph/checkpointer.py


@dataclass(frozen=True)
class ServedStore:
    """A running server and the SQLite file its checkpointer writes."""

    server: LangGraphServer
    sqlite: Path


@contextmanager
def serve_server_graph(sqlite: Path) -> Iterator[ServedStore]:
    """The server graph under `langgraph dev`, its threads saved by LangGraph's own
    AsyncSqliteSaver to `sqlite` (langgraph.json's `checkpointer` entry)."""
    env = {_SQLITE_ENV: str(sqlite)}
    with langgraph_dev(SERVER_GRAPH, env=env, config="langgraph_sqlite.json") as server:
        yield ServedStore(server, sqlite)


@pytest.fixture(scope="session")
def langgraph_server() -> Iterator[LangGraphServer]:
    """The server graph under `langgraph dev` with its default in-memory checkpointer."""
    with langgraph_dev(SERVER_GRAPH) as server:
        yield server


@pytest.fixture(scope="session")
def sqlite_langgraph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedStore]:
    """The server graph under `langgraph dev`, saving its threads to a SQLite file."""
    with serve_server_graph(tmp_path_factory.mktemp("server") / "threads.sqlite") as served:
        yield served
