"""A server's thread pages read ahead: the next search page is asked for as soon as a full
page arrives, and the audit over several pages reads every thread once, in id order."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future
from typing import Any

import pytest

import core.stores.backends.server as server_backend
from core.stores.reader import audit_any, open_any
from core.stores.serde import strict_serde
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import BROKEN, ROLE, SERVER_GRAPH, STOPPED, VALID, serve_four_threads

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))  # the user's package, as --model names it
OrderState = importlib.import_module("server_graph.graph").OrderState


class _Now(Executor):
    """Runs each call when it is submitted: the order of requests is then the order asked."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller, as an executor does
            done.set_exception(exc)
        return done


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        yield server


def _events(served: LangGraphServer, ahead: Executor | None) -> list[tuple[str, Any]]:
    events: list[tuple[str, Any]] = []
    with open_any(served.url, strict_serde([])) as store:
        search = store.search

        def logged(offset: int, limit: int) -> list[dict[str, Any]]:
            events.append(("search", offset))
            return search(offset, limit)

        store.search = logged
        for thread_id, _ in store.shard_threads(ahead=ahead):
            events.append(("read", thread_id))
    return events


@pytest.mark.parametrize(
    ("limit", "ahead", "expected"),
    [
        (2, True, [("search", 0), ("search", 2), ("read", VALID), ("read", ROLE),
                   ("search", 4), ("read", STOPPED), ("read", BROKEN)]),
        (2, False, [("search", 0), ("read", VALID), ("read", ROLE), ("search", 2),
                    ("read", STOPPED), ("read", BROKEN), ("search", 4)]),
        (3, True, [("search", 0), ("search", 3), ("read", VALID), ("read", ROLE),
                   ("read", STOPPED), ("read", BROKEN)]),
    ],
)  # fmt: skip
def test_the_next_page_is_asked_for_as_soon_as_a_full_page_arrives(
    served, monkeypatch, limit, ahead, expected
):
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", limit)
    assert _events(served, _Now() if ahead else None) == expected


def test_an_audit_over_several_pages_is_the_audit_over_one(served, monkeypatch):
    with open_any(served.url, strict_serde([])) as store:
        one_page = audit_any(store, OrderState).to_json()
    offsets: list[int] = []
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    with open_any(served.url, strict_serde([])) as store:
        search = store.client.threads.search

        def counted(**kwargs: Any) -> Any:
            offsets.append(kwargs["offset"])
            return search(**kwargs)

        store.client.threads.search = counted
        pages = audit_any(store, OrderState).to_json()
    assert (pages, offsets) == (one_page, [0, 2, 4])
    assert (one_page["threads"], [row["thread_id"] for row in one_page["invalid"]]) == (
        4, [BROKEN],
    )  # fmt: skip
