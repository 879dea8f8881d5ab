"""Opt-in fixtures: a real `langgraph dev` serving tests/fixtures/server_graph (mark: server)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests._langgraph_server import LangGraphServer, langgraph_dev

__all__ = [
    "BROKEN",
    "ROLE",
    "SERVER_GRAPH",
    "STOPPED",
    "VALID",
    "ServedStore",
    "langgraph_server",
    "serve_four_threads",
    "serve_server_graph",
    "sqlite_langgraph_server",
]

SERVER_GRAPH = Path(__file__).resolve().parent / "fixtures" / "server_graph"
_SQLITE_ENV = "SERVER_GRAPH_SQLITE"  # read by tests/fixtures/server_graph/checkpointer.py
_API_KEY_ENV = "SERVER_GRAPH_API_KEY"  # read by tests/fixtures/server_graph/auth.py


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


VALID = "10000000-0000-4000-8000-000000000001"
ROLE = "10000000-0000-4000-8000-000000000002"
STOPPED = "10000000-0000-4000-8000-000000000003"
BROKEN = "10000000-0000-4000-8000-000000000004"
_LINES = [{"sku": "ABC-123", "qty": 2}]


@contextmanager
def serve_four_threads(
    env: dict[str, str] | None = None, *, api_key: str | None = None
) -> Iterator[LangGraphServer]:
    """A server of its own (a test asserts its thread list whole) holding four threads: a
    valid run, one started with role-style messages, one stopped before `answer`, and one
    whose state an update made invalid, after which its next run failed (status `error`).

    With `api_key`, the server answers only requests whose `x-api-key` header is that key
    (langgraph_auth.json; any other request is a 401), so a client is seen to send it."""
    from langgraph_sdk import get_sync_client

    config = "langgraph.json"
    if api_key is not None:
        env, config = {**(env or {}), _API_KEY_ENV: api_key}, "langgraph_auth.json"
    with langgraph_dev(SERVER_GRAPH, env=env, config=config) as server:
        client = get_sync_client(url=server.url, api_key=api_key)
        for thread in (VALID, ROLE, STOPPED, BROKEN):
            client.threads.create(thread_id=thread)
        client.runs.wait(VALID, "orders", input={"lines": _LINES})
        role = {"lines": _LINES, "messages": [{"role": "user", "content": "hi"}]}
        client.runs.wait(ROLE, "orders", input=role)
        client.runs.wait(STOPPED, "orders", input={"lines": _LINES}, interrupt_before=["answer"])
        client.runs.wait(BROKEN, "orders", input={"lines": _LINES})
        client.threads.update_state(BROKEN, {"lines": [{"sku": "bad", "qty": 1}]})
        client.runs.wait(BROKEN, "orders", input={"notes": ["again"]}, raise_error=False)
        yield server
