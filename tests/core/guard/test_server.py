"""The guard on a real `langgraph dev`: docs/guard's project (its langgraph.json names the
guarded checkpointer) with the exported state_guard.py beside it, against the same project
on the server's default checkpointer. The server runs in its own process group, offline."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from core.__main__ import main
from core.guard.inline import ROOT
from tests._langgraph_server import LangGraphServer, langgraph_dev

from .conftest import raw_rows

pytestmark = pytest.mark.server

DOCS = ROOT / "docs" / "guard"
THREAD = "20000000-0000-4000-8000-000000000001"
ASYNC_THREAD = "20000000-0000-4000-8000-000000000002"
PYDANTIC = (
    "1 validation error for Tagged\ntags.1\n  Input should be a valid string [type=string_type, "
    "input_value=None, input_type=NoneType]\n    For further information visit "
    "https://errors.pydantic.dev/2.14/v/string_type"
)
# what the SQLite file holds after a refusal: the input and the state `tag` ran on, no write
# of tag's (the server answers for the thread; the file shows what the saver was given)
HEAD: list[tuple[Any, ...]] = [
    (0, "loop", {"tags": []}, []),
    (-1, "input", {}, [("branch:to:tag", None), ("tags", [])]),
]


def _refusal(thread_id: str) -> str:
    return (
        f"[state_invalid] Thread '{thread_id}': the state at step 1 fails Tagged (tags[1]: "
        "Input should be a valid string [string_type]), written by tag. Nothing of it was "
        "stored: the thread's last valid checkpoint stays its head. Fix what tag returns, or "
        'write a valid value with update_state(config, values, as_node="tag"), then resume.'
    )


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """docs/guard as a user would lay it out: the exported module beside the factory, and
    an `unguarded.json`, the same langgraph.json without its checkpointer."""
    path = tmp_path_factory.mktemp("guard") / "project"
    shutil.copytree(DOCS, path, ignore=shutil.ignore_patterns("__pycache__", "*.md"))
    assert main(["guard", "--export", str(path / "state_guard.py")]) == 0
    config = json.loads((path / "langgraph.json").read_text(encoding="utf-8"))
    del config["checkpointer"]
    (path / "unguarded.json").write_text(json.dumps(config), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def guarded(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[LangGraphServer, Path]]:
    sqlite = tmp_path_factory.mktemp("guarded") / "threads.sqlite"
    with langgraph_dev(project, env={"GUARD_SQLITE": str(sqlite)}) as server:
        yield server, sqlite


def _run(server: LangGraphServer, thread_id: str, body: dict[str, Any]) -> Any:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        client.post("/threads", json={"thread_id": thread_id, "if_exists": "do_nothing"})
        body = {"assistant_id": "tagging", **body}
        return client.post(f"/threads/{thread_id}/runs/wait", json=body).json()


def _history(server: LangGraphServer, thread_id: str) -> tuple[int, Any]:
    answer = httpx.post(f"{server.url}/threads/{thread_id}/history", json={"limit": 10}, timeout=60)
    body = answer.json()
    if answer.status_code != 200:
        return answer.status_code, body
    return 200, [(s["metadata"]["step"], s["values"], s["next"]) for s in body]


def _stored(sqlite: Path, thread_id: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(sqlite, check_same_thread=False)) as conn:
        rows: list[tuple[Any, ...]] = raw_rows(SqliteSaver(conn), thread_id)
        return rows


def test_without_the_guard_the_run_stores_the_bad_state_and_the_history_answers_400(
    project: Path,
) -> None:
    with langgraph_dev(project, config="unguarded.json") as server:
        ran = _run(server, THREAD, {"input": {"tags": []}, "durability": "sync"})
        assert ran == {"__error__": {"error": "ValidationError", "message": PYDANTIC}}
        assert _history(server, THREAD) == (400, {"detail": PYDANTIC})


def test_the_guard_refuses_the_run_with_its_error_and_the_history_answers_200(
    guarded: tuple[LangGraphServer, Path],
) -> None:
    server, sqlite = guarded
    ran = _run(server, THREAD, {"input": {"tags": []}, "durability": "sync"})
    refused = {"error": "InvalidStateError", "message": _refusal(THREAD)}
    assert ran == {"__error__": refused}
    assert _history(server, THREAD) == (200, [(0, {"tags": []}, ["tag"]), (-1, {}, ["__start__"])])
    assert _stored(sqlite, THREAD) == HEAD
    # a fixed value written as `tag` lets the run finish
    with httpx.Client(base_url=server.url, timeout=60) as client:
        update = {"values": {"tags": ["a", "b"]}, "as_node": "tag"}
        assert client.post(f"/threads/{THREAD}/state", json=update).status_code == 200
    assert _run(server, THREAD, {"input": None, "durability": "sync"}) == {
        "tags": ["a", "b", "done"]
    }
    assert _history(server, THREAD) == (
        200,
        [
            (2, {"tags": ["a", "b", "done"]}, []),
            (1, {"tags": ["a", "b"]}, ["finish"]),
            (0, {"tags": []}, ["tag"]),
            (-1, {}, ["__start__"]),
        ],
    )
    assert [row[:3] for row in _stored(sqlite, THREAD)] == [
        (2, "loop", {"tags": ["a", "b", "done"]}),
        (1, "update", {"tags": ["a", "b"]}),
        (0, "loop", {"tags": []}),
        (-1, "input", {}),
    ]


def test_under_the_servers_default_durability_nothing_invalid_is_stored(
    guarded: tuple[LangGraphServer, Path],
) -> None:
    server, sqlite = guarded
    ran = _run(server, ASYNC_THREAD, {"input": {"tags": []}})  # durability "async"
    # LangGraph's own ValidationError (finish reads the state first) or the guard's refusal
    assert ran["__error__"]["error"] in ("ValidationError", "InvalidStateError")
    assert _history(server, ASYNC_THREAD) == (
        200,
        [(0, {"tags": []}, ["tag"]), (-1, {}, ["__start__"])],
    )
    assert _stored(sqlite, ASYNC_THREAD) == HEAD
