"""The thread list over a server search that answers something else in a thread's place:
that row is listed under its own placeholder, and the page opens only the real threads."""

from __future__ import annotations

from typing import Any

from streamlit.testing.v1 import AppTest

from ui import keys

_VALUES = {"lines": [{"sku": "ABC-123", "qty": 1}], "status": "new"}


def _script(answers: list[object]) -> None:
    # The search's answers are crafted: a real `langgraph dev` lists only threads, and what
    # is under test is our reading of what a server may answer (as RemoteStore reads it).
    from types import SimpleNamespace

    import streamlit as st

    from core.stores.backends.server import RemoteStore
    from tests.fixtures.server_graph.graph import OrderState
    from ui.threads.listing import thread_list

    def search(*, offset: int, limit: int, **_: object) -> list[object]:
        return answers[offset : offset + limit]

    threads = SimpleNamespace(search=search, count=lambda **_: len(answers))
    store = RemoteStore(SimpleNamespace(threads=threads), "http://127.0.0.1:1")
    st.session_state["picked"] = thread_list(store, OrderState, None)


def _listed(answers: list[Any]) -> AppTest:
    return AppTest.from_function(_script, args=(answers,), default_timeout=30).run()


def test_rows_that_are_not_threads_are_listed_apart_and_never_opened() -> None:
    at = _listed([
        ["not", "a", "thread"],
        {"thread_id": "t-1", "values": _VALUES, "status": "idle", "updated_at": ""},
        None,
        {"thread_id": "t-2", "values": _VALUES, "status": "idle", "updated_at": ""},
    ])  # fmt: skip
    assert not at.exception
    table = at.dataframe[0].value
    assert table.to_dict("records") == [
        {"thread_id": "(not a thread: #1)", "status": "unreadable",
         "detail": "[row_not_a_checkpoint] The server's thread list holds a list where a "
                   "thread belongs."},
        {"thread_id": "t-1", "status": "valid", "detail": ""},
        {"thread_id": "(not a thread: #3)", "status": "unreadable",
         "detail": "[row_not_a_checkpoint] The server's thread list holds null where a "
                   "thread belongs."},
        {"thread_id": "t-2", "status": "valid", "detail": ""},
    ]  # fmt: skip
    # the first thread listed is opened, and its row marked; the box offers threads only
    assert at.session_state["picked"] == "t-1"
    assert at.selectbox(key=keys.THREADS_THREAD).options == ["t-1", "t-2"]
    assert at.session_state[keys.THREADS_TABLE]["selection"]["rows"] == [1]


def test_a_page_of_answers_none_a_thread_opens_nothing() -> None:
    at = _listed([["x"], "y"])
    assert not at.exception
    assert list(at.dataframe[0].value["thread_id"]) == [
        "(not a thread: #1)", "(not a thread: #2)",
    ]  # fmt: skip
    assert at.session_state["picked"] is None
    assert [box.key for box in at.selectbox if box.key == keys.THREADS_THREAD] == []
