"""A server audit's invalid row names the checkpoint and step of the state it checked, at
one get_state request per invalid thread and none per valid one."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from pydantic import ValidationError

from core.stores.reader import audit_any, open_any
from core.stores.serde import strict_serde
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import BROKEN, SERVER_GRAPH, serve_four_threads

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))  # the user's package, as --model names it
OrderState = importlib.import_module("server_graph.graph").OrderState
UPDATED = "10000000-0000-4000-8000-000000000005"  # a valid run, then an update with a bad line


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        client = get_sync_client(url=server.url, api_key=None)
        client.threads.create(thread_id=UPDATED)
        client.runs.wait(UPDATED, "orders", input={"lines": [{"sku": "ABC-123", "qty": 2}]})
        client.threads.update_state(UPDATED, {"lines": [{"sku": "bad", "qty": 1}]})
        yield server


def _json_errors(values: Any) -> list[dict[str, Any]]:
    """The oracle: Pydantic's own JSON-mode errors for what the server sent."""
    try:
        OrderState.model_validate_json(json.dumps(values))
    except ValidationError as exc:
        return json.loads(exc.json(include_url=False))
    return []


def _counted(owner: Any, method: str, calls: list[tuple[str, Any]]) -> None:
    inner = getattr(owner, method)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append((method, args[0] if args else kwargs.get("thread_id")))
        return inner(*args, **kwargs)

    setattr(owner, method, counted)


def test_an_invalid_row_names_its_checkpoint_and_step_at_one_request_a_thread(served):
    client = get_sync_client(url=served.url, api_key=None)
    state = client.threads.get_state(UPDATED)  # the oracle: the server's own latest state
    calls: list[tuple[str, Any]] = []
    with open_any(served.url, strict_serde([OrderState])) as store:
        for method in ("get_state", "get_history", "get"):
            _counted(store.client.threads, method, calls)
        report = audit_any(store, OrderState).to_json()
    broken = client.threads.get(BROKEN)["values"]
    assert report == {
        "threads": 5,
        "checkpoints": 5,
        "invalid": [
            {"thread_id": BROKEN, "checkpoint_id": "", "step": None, "node": None,
             "errors": _json_errors(broken)},
            {"thread_id": UPDATED, "checkpoint_id": state["checkpoint"]["checkpoint_id"],
             "step": state["metadata"]["step"], "node": None,
             "errors": _json_errors(state["values"])},
        ],
        "unreadable": [],
    }  # fmt: skip
    assert (state["metadata"]["step"], [e["type"] for e in report["invalid"][1]["errors"]]) == (
        3, ["string_pattern_mismatch"],  # input -1, start 0, merge_lines 1, answer 2, update 3
    )  # fmt: skip
    assert sorted(calls) == [("get_state", BROKEN), ("get_state", UPDATED)]


def test_one_thread_is_audited_alone_by_its_id(served):
    client = get_sync_client(url=served.url, api_key=None)
    state = client.threads.get_state(UPDATED)
    with open_any(served.url, strict_serde([OrderState])) as store:
        one = audit_any(store, OrderState, thread=UPDATED).to_json()
        none = audit_any(store, OrderState, thread="20000000-0000-4000-8000-000000000009")
    assert one == {
        "threads": 1, "checkpoints": 1,
        "invalid": [{"thread_id": UPDATED, "checkpoint_id": state["checkpoint"]["checkpoint_id"],
                     "step": 3, "node": None, "errors": _json_errors(state["values"])}],
        "unreadable": [],
    }  # fmt: skip
    assert (none.threads, none.checkpoints, none.invalid, none.unreadable) == (0, 0, [], [])
