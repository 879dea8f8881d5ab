"""A server's thread pages read ahead: the next search page is asked for as soon as a full
page arrives, and the audit over several pages reads every thread once, in id order. A
server answering pages longer than asked, a non-object in a thread's place, or failing the
request read ahead is played by a client answering so (our loop against a hostile answer)."""

from __future__ import annotations

import importlib
import itertools
import sys
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import httpx
import pytest

import core.stores.backends.server as server_backend
from core.stores.audit.server_audit import audit_server
from core.stores.backends.server import RemoteStore
from core.stores.errors import StoreError
from core.stores.reader import audit_any, open_any
from core.stores.serde import strict_serde
from core.stores.threads.stored import server_states
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


_VALUES = {"lines": [{"sku": "ABC-123", "qty": 1}], "status": "new"}  # valid for OrderState


def _hostile(answer: Callable[[int, int], list[Any]], offsets: list[int]) -> RemoteStore:
    """A store whose search is answered by `answer(offset, limit)`, each offset noted."""

    def search(*, offset: int, limit: int, **_: Any) -> list[Any]:
        offsets.append(offset)
        return answer(offset, limit)

    return RemoteStore(SimpleNamespace(threads=SimpleNamespace(search=search)), "http://x:1")


@pytest.mark.parametrize("ahead", [None, "pool", "now"])
def test_pages_longer_than_asked_are_cut_and_each_thread_read_once(
    monkeypatch: pytest.MonkeyPatch, ahead: str | None
) -> None:
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    held = [{"thread_id": f"t{n}", "values": _VALUES} for n in range(7)]
    offsets: list[int] = []
    store = _hostile(lambda offset, limit: held[offset : offset + limit + 1], offsets)
    with ThreadPoolExecutor(1) as pool:
        executor = {"pool": pool, "now": _Now(), None: None}[ahead]
        # at most 20 read: a loop that never ends fails here instead of hanging
        read = [t for t, _ in itertools.islice(store.shard_threads(ahead=executor), 20)]
    assert (read, offsets) == ([f"t{n}" for n in range(7)], [0, 2, 4, 6])


@pytest.mark.parametrize("history_too", [False, True])
def test_the_audit_reads_a_non_object_in_a_threads_place_as_an_unreadable_row(
    monkeypatch: pytest.MonkeyPatch, history_too: bool
) -> None:
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    held = [{"thread_id": "a", "values": _VALUES}, ["not", "a", "thread"], "b", 7,
            {"thread_id": "c", "values": _VALUES}]  # fmt: skip
    offsets: list[int] = []
    store = _hostile(lambda offset, limit: held[offset : offset + limit + 1], offsets)
    store.client.threads.get_history = lambda thread_id, **_: [
        {"values": _VALUES, "metadata": {"step": 0}, "tasks": [], "parent_checkpoint": None,
         "checkpoint": {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": "c1"}}
    ]  # fmt: skip

    def row(kind: str) -> dict[str, Any]:
        said = f"The server answered {kind} where a thread belongs."
        return {"thread_id": "", "checkpoint_id": "", "step": None,
                "code": "row_not_a_checkpoint", "message": said}  # fmt: skip

    audited = audit_server(store, OrderState, history_too=history_too).to_json()
    assert (audited, offsets) == (
        {"threads": 5, "checkpoints": 5, "invalid": [],
         "unreadable": [row("a list"), row("text"), row("a number")]},
        [0, 2, 4],
    )  # fmt: skip


def test_a_failed_read_ahead_surfaces_its_coded_error_and_leaves_no_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)

    def answer(offset: int, limit: int) -> list[Any]:
        if offset >= 2:
            raise httpx.ReadTimeout("slow")
        return [{"thread_id": "a", "values": _VALUES}, {"thread_id": "b", "values": _VALUES}]

    offsets: list[int] = []
    read: list[str] = []
    with pytest.raises(StoreError) as raised:
        with ThreadPoolExecutor(1, thread_name_prefix="ahead-test") as pool:
            read.extend(t for t, _ in _hostile(answer, offsets).shard_threads(ahead=pool))
    with pytest.raises(StoreError) as audited:
        audit_server(_hostile(answer, []), OrderState)
    said = "[store_timeout] http://x:1 did not answer in time; check the server and retry."
    left = [t.name for t in threading.enumerate() if t.name.startswith(("ahead-test", "audit-"))]
    assert (read, offsets, str(raised.value), str(audited.value), left) == (
        ["a", "b"], [0, 2], said, said, [],
    )  # fmt: skip


@pytest.mark.parametrize("ahead", [None, "now"])
def test_a_server_answering_the_same_page_at_every_offset_is_refused_not_read_forever(
    monkeypatch: pytest.MonkeyPatch, ahead: str | None
) -> None:
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    offsets: list[int] = []
    store = _hostile(lambda offset, limit: ["x", {"thread_id": "a"}, 3], offsets)
    read: list[str] = []
    with pytest.raises(StoreError) as raised:
        executor = _Now() if ahead else None
        read.extend(t for t, _ in itertools.islice(store.shard_threads(ahead=executor), 20))
    assert (read, offsets, str(raised.value)) == (
        ["", "a"], [0, 2],
        "[not_a_checkpoint_store] http://x:1 answers the same threads at offsets 0 and 2: it is not "
        "a LangGraph server; give the URL `langgraph dev` or your deployment serves.",
    )  # fmt: skip


def test_a_search_answered_with_no_list_is_refused() -> None:
    store = _hostile(lambda offset, limit: {"threads": []}, [])  # type: ignore[arg-type,return-value]
    with pytest.raises(StoreError) as raised:
        list(store.shard_threads())
    assert str(raised.value) == (
        "[not_a_checkpoint_store] http://x:1 answers its thread search with no list: it is not a "
        "LangGraph server; give the URL `langgraph dev` or your deployment serves."
    )


def test_the_stored_states_of_a_server_read_a_non_object_as_an_unreadable_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # core.stores.threads.stored.server_states (what migrate reads) called .get on it
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    held = [{"thread_id": "a", "values": _VALUES}, None, {"thread_id": "c", "values": _VALUES}]
    store = _hostile(lambda offset, limit: held[offset : offset + limit], [])
    read = list(server_states(store, OrderState))
    assert [
        (type(r).__name__, r.thread_id, getattr(r, "code", None), getattr(r, "message", None))
        for r in read
    ] == [
        ("StoredState", "a", None, None),
        ("Unreadable", "", "row_not_a_checkpoint",
         "The server answered null where a thread belongs."),
        ("StoredState", "c", None, None),
    ]  # fmt: skip


def _history_store(page: list[Any], asked: list[Any]) -> RemoteStore:
    """A store whose get_history answers `page` whatever it is asked, each `before` noted."""

    def get_history(thread_id: str, *, limit: int, before: Any = None) -> list[Any]:
        asked.append(before)
        if len(asked) > 10:  # a loop that never ends fails here instead of hanging
            raise AssertionError(f"still asking after {len(asked)} pages")
        return page

    client = SimpleNamespace(threads=SimpleNamespace(get_history=get_history))
    return RemoteStore(client, "http://x:1")


def _state(checkpoint_id: Any) -> dict[str, Any]:
    return {"checkpoint": {"checkpoint_id": checkpoint_id}, "values": {}, "metadata": {}}


def test_a_history_answered_again_whatever_before_says_is_refused_not_read_forever(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    asked: list[Any] = []
    store = _history_store([_state("c2"), _state("c1")], asked)
    with pytest.raises(StoreError) as refused:
        list(store.thread_rows("t"))
    assert (refused.value.code, asked) == (
        "not_a_checkpoint_store",
        [None, {"configurable": {"checkpoint_id": "c1"}}],
    )


def test_a_full_history_page_ending_in_no_checkpoint_id_is_not_paged_from_the_start_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # its last id None: the next page was asked `before=None`, the first page again, forever
    monkeypatch.setattr(server_backend, "PAGE_LIMIT", 2)
    asked: list[Any] = []
    store = _history_store([_state("c2"), _state(None)], asked)
    with pytest.raises(TypeError, match="names no checkpoint id"):
        list(store.thread_rows("t"))
    assert asked == [None]
