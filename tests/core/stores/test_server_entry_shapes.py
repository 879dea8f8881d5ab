"""A server's history entries of every odd shape are read as coded outcomes, never raised."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from core.stores.backends.server import PAGE_LIMIT, RemoteStore, ServerRefusal, server_row
from core.stores.decode.rows import Unreadable
from core.stores.threads.server_entry import ServerEntry, read_entry
from core.stores.threads.server_history import history, read_history, source_of, step_at
from core.stores.threads.server_list import NotAThread, list_server_threads
from core.stores.threads.server_timeline import server_timeline
from tests.fixtures.server_graph.graph import OrderState

THREAD = "t-1"
_GOOD: dict[str, Any] = {
    "values": {"lines": [{"sku": "ABC-123", "qty": 1}], "status": "new"},
    "next": ["merge_lines"],
    "tasks": [],
    "metadata": {"step": 0, "source": "loop"},
    "created_at": "2026-12-05T22:49:16+00:00",
    "checkpoint": {"thread_id": THREAD, "checkpoint_ns": "", "checkpoint_id": "c2"},
    "parent_checkpoint": {"thread_id": THREAD, "checkpoint_ns": "", "checkpoint_id": "c1"},
    "interrupts": [],
}


def _unreadable(checkpoint_id: str, code: str, message: str) -> Unreadable:
    return Unreadable(THREAD, checkpoint_id, None, code, message)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        pytest.param(
            [1, 2],
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's history holds a list where a checkpoint's state belongs.")),
            id="a list",
        ),
        pytest.param(
            None,
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's history holds null where a checkpoint's state belongs.")),
            id="null",
        ),
        pytest.param(
            True,
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's history holds true where a checkpoint's state belongs.")),
            id="true",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": None},
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's checkpoint state cannot be read: its checkpoint is null, not an "
                "object.")),
            id="a null checkpoint",
        ),
        pytest.param(
            {key: value for key, value in _GOOD.items() if key != "checkpoint"},
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's checkpoint state cannot be read: it names no checkpoint.")),
            id="no checkpoint",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": {"thread_id": THREAD}},
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's checkpoint state cannot be read: its checkpoint names no id.")),
            id="a checkpoint without its id",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": {"checkpoint_id": ""}},
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's checkpoint state cannot be read: its checkpoint id is empty.")),
            id="an empty checkpoint id",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": {"checkpoint_id": 5}},
            ("", None, None, "", {}, _unreadable(
                "", "row_not_a_checkpoint",
                "The server's checkpoint state cannot be read: its checkpoint id is a number, "
                "not text.")),
            id="a numeric checkpoint id",
        ),
        pytest.param(
            {**_GOOD, "metadata": "loop"},
            ("c2", None, None, "", {}, _unreadable(
                "c2", "row_bad_metadata",
                "The server's checkpoint state cannot be read: its metadata is text, not an "
                "object.")),
            id="metadata text",
        ),
        pytest.param(
            {**_GOOD, "metadata": ["step", 0]},
            ("c2", None, None, "", {}, _unreadable(
                "c2", "row_bad_metadata",
                "The server's checkpoint state cannot be read: its metadata is a list, not an "
                "object.")),
            id="metadata a list",
        ),
        pytest.param(
            {**_GOOD, "values": None},
            ("c2", "c1", 0, "loop", {}, Unreadable(
                THREAD, "c2", 0, "row_missing_value",
                "The server gives no values for this checkpoint.")),
            id="no values",
        ),
        pytest.param(
            {**_GOOD, "metadata": None, "parent_checkpoint": "c1", "next": "x", "tasks": {}},
            ("c2", None, None, "", _GOOD["values"], None),
            id="odd optional parts read as absent",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": {"checkpoint_id": "c2", "thread_id": 7}},
            ("c2", "c1", 0, "loop", _GOOD["values"], None),
            id="a numeric thread id in the checkpoint: not read",
        ),
        pytest.param(
            {**_GOOD, "checkpoint": {"checkpoint_id": "c2", "thread_id": None},
             "parent_checkpoint": {}},
            ("c2", None, 0, "loop", _GOOD["values"], None),
            id="a null thread id, an empty parent",
        ),
        pytest.param(
            {**_GOOD, "parent_checkpoint": {"checkpoint_id": None}},
            ("c2", None, 0, "loop", _GOOD["values"], None),
            id="a parent with a null id",
        ),
        pytest.param(
            {**_GOOD, "parent_checkpoint": {"checkpoint_id": 5, "thread_id": 5}},
            ("c2", None, 0, "loop", _GOOD["values"], None),
            id="a parent with a numeric id",
        ),
        pytest.param(
            {**_GOOD, "values": ["lines"], "metadata": {"step": True, "source": 3}},
            ("c2", "c1", None, "", {}, None),
            id="values a list: for the model to judge",
        ),
    ],
)  # fmt: skip
def test_an_oddly_shaped_history_entry_is_read_with_a_coded_problem(
    answer: Any, expected: tuple[Any, ...]
) -> None:
    entry = read_entry(answer, THREAD)
    assert isinstance(entry, ServerEntry)
    assert (
        entry.checkpoint_id, entry.parent_id, entry.step, entry.source, entry.values,
        entry.problem,
    ) == expected  # fmt: skip
    assert isinstance(entry.state, dict)


def test_a_well_shaped_entry_is_read_as_the_server_gave_it() -> None:
    entry = read_entry(_GOOD, THREAD)
    assert entry == ServerEntry(
        "c2", "c1", 0, "loop", "2026-12-05T22:49:16+00:00", _GOOD["values"], _GOOD, None
    )
    assert entry.state == _GOOD


@pytest.mark.parametrize(
    "state", [{"metadata": "m"}, {"metadata": None}, {"metadata": [1]}, None, [], "text"]
)
def test_step_and_source_of_an_odd_answer_are_none_and_empty(state: Any) -> None:
    assert (step_at(state), source_of(state)) == (None, "")


class _Answers:
    """A server whose get_history answers `pages` as given (shapes no real server sends,
    which the SDK would hand over as they came): the reading under test is ours."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def history_page(self, thread_id: str, limit: int, before: str | None = None) -> Any:
        return self.page

    def thread_rows(self, thread_id: str, *, before: str | None = None) -> Any:
        for state in self.page:  # as RemoteStore.thread_rows reads a page
            yield server_row(thread_id, state)

    def failed_runs(self, thread_id: str) -> list[dict[str, Any]]:
        return []

    def thread(self, thread_id: str) -> dict[str, Any]:
        raise ServerRefusal(404, "not found")


def test_a_timeline_of_oddly_shaped_answers_holds_each_with_its_code_and_no_traceback() -> None:
    page = [
        {**_GOOD, "checkpoint": {"checkpoint_id": "c4"}, "values": {"lines": "x"},
         "parent_checkpoint": {"checkpoint_id": "c3"}},
        {**_GOOD, "checkpoint": {"checkpoint_id": "c3"}, "metadata": "loop"},
        {**_GOOD, "checkpoint": None},
        "not a state",
    ]  # fmt: skip
    store: Any = _Answers(page)
    assert history(store, THREAD) == page  # server_row cannot page on: the page as given
    timeline = server_timeline(store, THREAD, OrderState)
    assert timeline is not None
    assert [
        (c.checkpoint_id, c.parent_id, c.source, c.unreadable.code if c.unreadable else None,
         [(e["type"], e["loc"]) for e in c.errors])
        for c in timeline.checkpoints
    ] == [
        ("", None, "", "row_not_a_checkpoint", []),
        ("", None, "", "row_not_a_checkpoint", []),
        ("c3", None, "", "row_bad_metadata", []),
        ("c4", "c3", "loop", None, [("list_type", ["lines"])]),
    ]  # fmt: skip
    assert timeline.blamed is timeline.checkpoints[-1]
    assert timeline.note is None


def test_a_thread_without_checkpoints_is_one_empty_state_with_a_note() -> None:
    class Empty(_Answers):
        def thread(self, thread_id: str) -> dict[str, Any]:
            return {"thread_id": thread_id, "values": None, "created_at": "2026-12-05"}

    timeline = server_timeline(Empty([]), THREAD, OrderState)  # type: ignore[arg-type]
    assert timeline is not None
    assert [(c.checkpoint_id, c.source, c.time, c.state, c.errors, c.unreadable)
            for c in timeline.checkpoints] == [("", "no checkpoint yet", "2026-12-05", {}, [], None)]  # fmt: skip
    assert (timeline.blamed, timeline.note) == (
        None,
        "The server holds no checkpoint of this thread yet: it was created and nothing has "
        "run on it.",
    )


def test_the_thread_list_reads_an_empty_thread_and_an_odd_answer_without_a_traceback() -> None:
    answered = [
        {"thread_id": "empty", "values": None, "status": "idle", "updated_at": "2026-12-05"},
        ["not", "a", "thread"],
        {"thread_id": "valid", "values": _GOOD["values"], "status": "idle", "updated_at": ""},
        None,
    ]

    class Search:
        def search(self, offset: int, limit: int) -> list[Any]:
            return answered[offset : offset + limit]

    page = list_server_threads(Search(), OrderState)  # type: ignore[arg-type]
    assert [(r.thread_id, r.status.value, r.detail, r.last_time) for r in page.rows] == [
        ("empty", "valid", "no checkpoint yet: created, nothing has run on it", "2026-12-05"),
        ("(not a thread: #2)", "unreadable", "[row_not_a_checkpoint] The server's thread list "
         "holds a list where a thread belongs.", ""),
        ("valid", "valid", "", ""),
        ("(not a thread: #4)", "unreadable", "[row_not_a_checkpoint] The server's thread list "
         "holds null where a thread belongs.", ""),
    ]  # fmt: skip
    # each odd answer under an id of its own that no thread can be opened by
    assert [isinstance(r.thread_id, NotAThread) for r in page.rows] == [False, True, False, True]
    assert (page.next_after, page.scanned) == (None, 4)


def _paged_store(pages: dict[str | None, list[Any]], asked: list[str | None]) -> RemoteStore:
    """A RemoteStore whose SDK client's get_history answers `pages` by the checkpoint id it
    is asked before (crafted answers: a real server never sends an odd state)."""

    def get_history(thread_id: str, *, limit: int, before: Any = None) -> list[Any]:
        key = before["configurable"]["checkpoint_id"] if before else None
        asked.append(key)
        return pages[key]

    client = SimpleNamespace(threads=SimpleNamespace(get_history=get_history))
    return RemoteStore(client, "http://127.0.0.1:1")


def _at(number: int) -> dict[str, Any]:
    return {**_GOOD, "checkpoint": {"checkpoint_id": f"c{number:05}"}}


@pytest.mark.parametrize("full", [True, False], ids=["a full page", "the last page"])
def test_an_odd_state_on_a_later_page_keeps_the_pages_read_before_it(full: bool) -> None:
    first = [_at(n) for n in range(2 * PAGE_LIMIT, PAGE_LIMIT, -1)]  # newest first
    second = [_at(n) for n in range(PAGE_LIMIT, 1 if full else 5, -1)] + ["odd"]
    asked: list[str | None] = []
    store = _paged_store({None: first, "c01001": second}, asked)
    read = read_history(store, THREAD)
    assert read.states == first + second
    assert asked == [None, "c01001", "c01001"]  # its page asked again, to be kept as given
    assert read.note() == (
        "[row_not_a_checkpoint] The server's history holds a state that names no checkpoint, "
        "so the checkpoints older than its page could not be asked for; shown: those up to "
        "that page."
        if full
        else None
    )
    assert history(store, THREAD) == first + second


def test_an_odd_state_on_the_first_page_keeps_that_page_as_given() -> None:
    page = [_at(3), None, _at(1)]
    asked: list[str | None] = []
    read = read_history(_paged_store({None: page}, asked), THREAD)
    assert (read.states, read.note(), asked) == (page, None, [None, None])
