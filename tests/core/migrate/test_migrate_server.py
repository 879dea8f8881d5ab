"""A migration previewed and applied through a real `langgraph dev`'s API (mark: server).

The served threads (tests/server_fixtures.py) were written by runs over `OrderState`; the
candidate no longer allows the status "answered" ("done" now); the plan maps it. What the
server holds afterwards is read back with the SDK itself: the oracle is the server's own
answer.
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import pytest
from langgraph_sdk import get_sync_client
from pydantic import BaseModel, Field, ValidationError

from core.migrate.plan import parse_plan
from core.migrate.preview import preview_migration
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import BROKEN, ROLE, SERVER_GRAPH, STOPPED, VALID, serve_four_threads

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))
served_graph = importlib.import_module("server_graph.graph")
OrderState, Line = served_graph.OrderState, served_graph.Line


class DoneOrder(BaseModel):
    """The served order with "answered" renamed "done"."""

    lines: list[Line] = Field(default_factory=list)
    status: Literal["new", "counted", "done"] = "new"
    notes: Annotated[list[str], lambda a, b: a + b] = Field(default_factory=list)
    messages: list[Any] = Field(default_factory=list)


PLAN = parse_plan("""
[[step]]
path = "status"
action = "map"
from = "answered"
to = "done"
""")


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        yield server


def _heads(client: Any) -> dict[str, tuple[str, list[str], str]]:
    """Each thread's latest checkpoint id, its next nodes and its status value, as the
    server's get_state answers."""
    heads = {}
    for thread in (VALID, ROLE, STOPPED, BROKEN):
        try:
            state = client.threads.get_state(thread)
        except Exception as exc:  # noqa: BLE001 - the broken thread's state is refused
            heads[thread] = ("refused", [], type(exc).__name__)
            continue
        heads[thread] = (state["checkpoint"]["checkpoint_id"], list(state["next"]),
                         state["values"].get("status"))  # fmt: skip
    return heads


def _valid(values: dict[str, Any]) -> bool:
    try:
        DoneOrder.model_validate_json(json.dumps(values))
    except ValidationError:
        return False
    return True


def test_a_servers_threads_are_previewed_then_forked_once_each_through_its_api(served, monkeypatch):
    client = get_sync_client(url=served.url, api_key=None)
    serde = strict_serde([OrderState, DoneOrder])
    with open_any(served.url, serde) as store:
        preview = preview_migration(store, OrderState, DoneOrder, PLAN).to_json()
    assert {key: preview[key] for key in ("threads", "checkpoints", "broken_before", "fixed")} == {
        "threads": 4, "checkpoints": 4, "broken_before": 3, "fixed": 2,
    }  # fmt: skip
    assert preview["steps"] == [{"plan": None, "path": "status", "action": "map", "changed": 3,
                                 "fixed": 3, "to_answer": False}]  # fmt: skip
    # the broken thread's bad line stays broken; its status is mapped all the same
    assert [(s["thread_id"], [e["loc"] for e in s["errors"]]) for s in preview["still_broken"]] == [
        (BROKEN, [["lines", 0, "sku"]])
    ]
    before = _heads(client)

    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_migration(served.url, OrderState, DoneOrder, PLAN, lambda _: None, serde)
    assert sorted((w.thread_id, w.from_checkpoint_id) for w in written) == sorted(
        (thread, before[thread][0]) for thread in (VALID, ROLE)
    )
    after = _heads(client)
    # one new head per migrated thread, its parent the old head, its next nodes unchanged
    assert after == {
        **before,
        **{w.thread_id: (w.new_checkpoint_id, before[w.thread_id][1], "done") for w in written},
    }
    for fork in written:
        newest, parent = client.threads.get_history(fork.thread_id, limit=2)
        assert (newest["checkpoint"]["checkpoint_id"], parent["checkpoint"]["checkpoint_id"],
                newest["parent_checkpoint"]["checkpoint_id"], _valid(newest["values"]),
                _valid(parent["values"])) == (
            fork.new_checkpoint_id, fork.from_checkpoint_id, fork.from_checkpoint_id, True,
            False)  # fmt: skip
        # the fork replaced the status only: every other value is the old head's
        assert {k: v for k, v in newest["values"].items() if k != "status"} == {
            k: v for k, v in parent["values"].items() if k != "status"
        }
    # a second apply finds nothing to do and writes nothing
    assert write_migration(served.url, OrderState, DoneOrder, PLAN, lambda _: None, serde) == []
    assert _heads(client) == after
