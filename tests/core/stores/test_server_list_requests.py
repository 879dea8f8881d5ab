"""A real `langgraph dev`'s thread list: which threads it asks the state of, and a thread whose
state the server fails to give listed unreadable with its code, the rest of the list kept."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import BadRequestError, InternalServerError

from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.threads import ThreadStatus
from core.stores.threads.server_list import list_server_threads
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import BROKEN, ROLE, SERVER_GRAPH, STOPPED, VALID, serve_four_threads

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))
OrderState = importlib.import_module("server_graph.graph").OrderState

REFUSED = "10000000-0000-4000-8000-000000000006"  # stopped, then an update it cannot prepare
_REFUSED_SAID = "[server_history_refused] the server refuses its latest state (400)"


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        client = get_sync_client(url=server.url, api_key=None)
        client.threads.create(thread_id=REFUSED)
        lines: Any = [{"sku": "ABC-123", "qty": 2}]
        client.runs.wait(REFUSED, "orders", input={"lines": lines}, interrupt_before=["answer"])
        with pytest.raises(BadRequestError, match="1 validation error for OrderState"):
            client.threads.update_state(REFUSED, {"lines": [{"sku": "bad", "qty": 1}]})
        yield server


def _asked(store: Any, fail: Callable[[str], Exception | None] = lambda _: None) -> list[str]:
    """The threads get_state is asked for, in order, through the SDK client's own method
    (wrapped on this client only, as bench/server_audit.py counts requests); `fail` gives the
    error the client raises in the server's answer's place for a thread (None: the answer)."""
    asked: list[str] = []
    inner = store.client.threads.get_state

    def counted(thread_id: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(thread_id)
        if (error := fail(thread_id)) is not None:
            raise error
        return inner(thread_id, *args, **kwargs)

    store.client.threads.get_state = counted
    return asked


def test_only_a_status_filter_the_answer_can_change_asks_interrupted_threads_their_state(served):
    expected_rows = {
        None: [(VALID, "valid"), (ROLE, "valid"), (STOPPED, "interrupted"), (BROKEN, "broken"),
               (REFUSED, "unreadable")],
        ThreadStatus.VALID: [(VALID, "valid"), (ROLE, "valid")],
        ThreadStatus.BROKEN: [(BROKEN, "broken")],
        ThreadStatus.INTERRUPTED: [(STOPPED, "interrupted")],
        ThreadStatus.UNREADABLE: [(REFUSED, "unreadable")],
        ThreadStatus.WOULD_NOT_RESUME: [],
    }  # fmt: skip
    rows, requests = {}, {}
    with open_any(served.url, strict_serde([OrderState])) as store:
        for status in expected_rows:
            asked = _asked(store)
            page = list_server_threads(store, OrderState, status=status, limit=10)
            rows[status] = [(row.thread_id, row.status.value) for row in page.rows]
            requests[status] = list(asked)  # (a list wrapped again grows on)
    assert rows == expected_rows
    # the broken thread (status error) is broken by its values: no answer changes that
    assert requests == {
        None: [STOPPED, REFUSED],
        ThreadStatus.VALID: [],
        ThreadStatus.BROKEN: [],
        ThreadStatus.INTERRUPTED: [STOPPED, REFUSED],
        ThreadStatus.UNREADABLE: [STOPPED, REFUSED],
        ThreadStatus.WOULD_NOT_RESUME: [],
    }


def _server_error(thread_id: str) -> Exception:
    request = httpx.Request("GET", f"http://server/threads/{thread_id}/state")
    return InternalServerError("boom", response=httpx.Response(500, request=request), body=None)


@pytest.mark.parametrize(
    ("error", "said"),
    [
        pytest.param(
            lambda thread: httpx.ReadTimeout("timed out"),
            "[store_timeout] its latest state was asked for and not given: {label} did not "
            "answer in time; check the server and retry.",
            id="a timeout",
        ),
        pytest.param(
            _server_error,
            "[store_unreadable] its latest state was asked for and not given: {label} failed "
            "while being read (500); check the server's log and retry.",
            id="a 500",
        ),
    ],
)
def test_a_thread_whose_state_the_server_fails_to_give_is_unreadable_and_the_list_stands(
    served, error, said
):
    with open_any(served.url, strict_serde([OrderState])) as store:
        asked = _asked(store, lambda thread: error(thread) if thread == STOPPED else None)
        page = list_server_threads(store, OrderState, limit=10)
        label = store.label
    assert [(row.thread_id, row.status.value, row.detail) for row in page.rows] == [
        (VALID, "valid", ""),
        (ROLE, "valid", ""),
        (STOPPED, "unreadable", said.format(label=label)),
        (BROKEN, "broken", "string_pattern_mismatch at lines[0].sku"),
        (REFUSED, "unreadable", _REFUSED_SAID),
    ]
    assert asked == [STOPPED, REFUSED]
