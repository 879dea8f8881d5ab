"""Threads written by a real `langgraph dev` (SQLite checkpointer): what the stored values name."""

from __future__ import annotations

import importlib
import json
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ormsgpack
import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import BadRequestError

from core.__main__ import main
from core.stores.open import open_store
from core.stores.serde import find_refused, strict_serde
from tests.server_fixtures import SERVER_GRAPH, serve_server_graph

pytestmark = pytest.mark.server

# The playground imports a user's model by its own name ("pkg.mod:Attr", beside the config)
sys.path.insert(0, str(SERVER_GRAPH.parent))
user_graph = importlib.import_module("server_graph.graph")

VALID = "00000000-0000-4000-8000-00000000000a"
ROLE = "00000000-0000-4000-8000-00000000000b"
INVALID = "00000000-0000-4000-8000-00000000000c"
CASES = {VALID: "valid", ROLE: "role", INVALID: "invalid"}
BAD_SKU_ERROR = (
    "1 validation error for OrderState\nlines.0.sku\n  String should match pattern "
    "'^[A-Z]{3}-[0-9]{3}$' [type=string_pattern_mismatch, input_value='bad', "
    "input_type=str]\n    For further information visit "
    "https://errors.pydantic.dev/2.14/v/string_pattern_mismatch"
)


@dataclass(frozen=True)
class Written:
    """The SQLite file the server wrote, and what its API answered about the threads."""

    sqlite: Path
    statuses: dict[str, str]  # threads.search: case -> status
    runs: dict[str, list[str]]  # runs.list: case -> run statuses, newest first
    failed_run: dict[str, Any]  # runs.wait's body for the run that failed
    state_error: tuple[int, Any]  # threads.get_state on the invalid thread: code and body


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Written]:
    sqlite = tmp_path_factory.mktemp("server") / "threads.sqlite"
    with serve_server_graph(sqlite) as served:
        client = get_sync_client(url=served.server.url)
        for thread_id, case in CASES.items():
            client.threads.create(thread_id=thread_id, metadata={"case": case})
        lines = [{"sku": "ABC-123", "qty": 2}, {"sku": "ABC-123", "qty": 1}]
        client.runs.wait(VALID, "orders", input={"lines": lines})
        role_input = {"messages": [{"role": "user", "content": "hi"}], "lines": lines[:1]}
        client.runs.wait(ROLE, "orders", input=role_input)
        client.runs.wait(INVALID, "orders", input={"lines": [{"sku": "DEF-456", "qty": 1}]})
        client.threads.update_state(INVALID, {"lines": [{"sku": "bad", "qty": 1}]})
        failed = client.runs.wait(INVALID, "orders", input={"notes": ["again"]}, raise_error=False)
        try:
            client.threads.get_state(INVALID)
        except BadRequestError as error:
            state_error = (error.response.status_code, error.response.json())
        yield Written(
            sqlite=sqlite,
            statuses={t["metadata"]["case"]: t["status"] for t in client.threads.search()},
            runs={
                case: [run["status"] for run in client.runs.list(thread_id)]
                for thread_id, case in CASES.items()
            },
            failed_run=failed,
            state_error=state_error,
        )


def _named(payload: bytes) -> set[tuple[int, str, str]]:
    """(ext code, module, name) of every typed value in one msgpack payload: nothing imported."""
    found: set[tuple[int, str, str]] = set()

    def hook(code: int, data: bytes) -> None:
        inner = ormsgpack.unpackb(data, ext_hook=hook, option=ormsgpack.OPT_NON_STR_KEYS)
        found.add((code, inner[0], inner[1]))

    ormsgpack.unpackb(payload, ext_hook=hook, option=ormsgpack.OPT_NON_STR_KEYS)
    return found


def _stored_names(sqlite: Path) -> dict[str, set[tuple[int, str, str]]]:
    rows = "SELECT thread_id, type, checkpoint FROM checkpoints UNION ALL SELECT thread_id, type, value FROM writes"
    names: dict[str, set[tuple[int, str, str]]] = {case: set() for case in CASES.values()}
    with closing(sqlite3.connect(sqlite)) as conn:
        for thread_id, type_, payload in conn.execute(rows):
            if type_ == "msgpack":
                names[CASES[thread_id]] |= _named(payload)
    return names


def test_the_server_stores_the_graph_files_models_under_a_module_named_after_its_path(written):
    line = (5, "__graph", "Line")  # EXT_PYDANTIC_V2; "./graph.py" -> "__graph"
    ai = (5, "langchain_core.messages.ai", "AIMessage")
    human = (5, "langchain_core.messages.human", "HumanMessage")
    assert _stored_names(written.sqlite) == {
        "valid": {line, ai},
        "role": {line, ai, human},
        "invalid": {line, ai},
    }


def test_the_server_reports_the_thread_whose_state_no_longer_validates_as_error(written):
    assert written.statuses == {"valid": "idle", "role": "idle", "invalid": "error"}
    assert written.runs == {
        "valid": ["success"],
        "role": ["success"],
        "invalid": ["error", "success"],
    }
    assert written.failed_run == {
        "__error__": {"error": "ValidationError", "message": BAD_SKU_ERROR}
    }
    # get_state prepares the next task, whose input is the state validated by the model
    assert written.state_error == (400, {"detail": BAD_SKU_ERROR})


def _refusals(
    sqlite: Path, serde: SerializerProtocol
) -> dict[str, list[tuple[str, int, list[Any]]]]:
    found: dict[str, list[tuple[str, int, list[Any]]]] = {case: [] for case in CASES.values()}
    with open_store(str(sqlite), serde) as store:
        for saved in store.saver.list(None):
            case = CASES[saved.config["configurable"]["thread_id"]]
            values = saved.checkpoint["channel_values"]
            found[case].append(
                (saved.metadata["source"], saved.metadata["step"], find_refused(values))
            )
    return found


def test_the_users_own_lines_stored_under_the_server_name_are_read_as_the_models(written):
    # the stored values name "__graph" (the server's name for ./graph.py), not
    # "server_graph.graph": read with the model given, they are its own Line, not refused
    model = user_graph.OrderState
    clean = [("loop", 2, []), ("loop", 1, []), ("loop", 0, []), ("input", -1, [])]
    assert _refusals(written.sqlite, strict_serde([model])) == {
        "valid": clean,
        "role": clean,
        "invalid": [("loop", 5, []), ("input", 4, []), ("update", 3, []), *clean],
    }
    with open_store(str(written.sqlite), strict_serde([model])) as store:
        saved = store.saver.get_tuple({"configurable": {"thread_id": VALID, "checkpoint_ns": ""}})
    assert saved.checkpoint["channel_values"] == {
        "lines": [user_graph.Line(sku="ABC-123", qty=3)],
        "status": "answered",
        "notes": ["1 lines"],
        "messages": [AIMessage("1 lines noted", id="answer-1")],
    }


def test_the_audit_of_the_server_written_store_finds_the_bad_line_and_reads_role_input(
    written, monkeypatch, capsys
):
    monkeypatch.chdir(SERVER_GRAPH.parent)  # where the user's package is
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)
    model = "server_graph.graph:OrderState"
    assert main(["audit", str(written.sqlite), "--model", model, "--history", "--json"]) == 1
    body = json.loads(capsys.readouterr().out)
    sku = ("string_pattern_mismatch", ["lines", 0, "sku"], "bad")
    assert (body["threads"], body["checkpoints"], body["unreadable"]) == (3, 15, [])
    assert [
        (CASES[s["thread_id"]], s["step"], [(e["type"], e["loc"], e["input"]) for e in s["errors"]])
        for s in body["invalid"]
    ] == [("invalid", 5, [sku]), ("invalid", 4, [sku]), ("invalid", 3, [sku])]
