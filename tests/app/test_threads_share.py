"""Threads page share links with AppTest: a link reopens the store, filters, thread, checkpoint."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from core.share import encode_share
from core.stores.demo import DEMO_THREADS, build_demo_store
from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests.app.conftest import shared, token
from ui import keys
from ui.text import plain
from ui.threads.share import THREAD_TABS

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "views" / "threads.py")
FIXTURES = ROOT / "tests" / "fixtures"
SESSION_ID = "test session id"  # AppTest's, for every instance


@pytest.fixture(autouse=True)
def _session_ends(monkeypatch) -> Iterator[None]:
    # No store configured, no writes: the demo store, read-only. One session's demo store is
    # released after each test, as a disconnect releases it.
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    yield
    clear_session_resource_cache(SESSION_ID)


def _open(token: str | None = None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    if token is not None:
        at.query_params["s"] = token
    return at.run()


def _link(at: AppTest) -> dict:
    """Press Share link; what the link it made carries."""
    at.button(key=keys.THREADS_SHARE).click().run()
    return shared(at)


def _shown(at: AppTest) -> dict:
    """What the page shows: the list's filters, the thread, the checkpoint."""
    return {
        "source": at.radio(key=keys.THREADS_SOURCE).value,
        "status": at.selectbox(key=keys.THREADS_STATUS).value,
        "contains": at.text_input(key=keys.THREADS_CONTAINS).value,
        "thread": at.selectbox(key=keys.THREADS_THREAD).value,
        "step": at.select_slider(key=keys.THREADS_STEP).value,
    }


def test_a_link_reopens_the_filters_the_thread_and_the_checkpoint_shown():
    at = _open()
    at.selectbox(key=keys.THREADS_STATUS).select("broken").run()
    at.selectbox(key=keys.THREADS_THREAD).select("fault-negative_amount").run()
    at.select_slider(key=keys.THREADS_STEP).set_value(0).run()
    shown = _shown(at)
    assert shown == {
        "source": "demo",
        "status": "broken",
        "contains": "",
        "thread": "fault-negative_amount",
        "step": 0,  # the input checkpoint, not the blamed one the thread opens at
    }
    link = _link(at)
    assert link == {
        "page": "threads",
        "source": "demo",
        "current": "same",
        "contains": "",
        "status": "broken",
        "page_size": 25,
        "cursors": [""],
        "thread": "fault-negative_amount",
        "step": 0,
        "tab": "Timeline",
    }

    fresh = _open(token(at))  # another session: its own demo store, same threads
    assert not fresh.exception and not fresh.warning
    assert _shown(fresh) == shown
    assert _link(fresh) == link


def test_a_link_to_the_servers_store_on_a_server_without_one_says_so_and_shows_the_demo():
    at = _open(encode_share({"page": "threads", "source": "server", "thread": "clean-1"}))
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The demo store is shown instead [share_store]: this link reads the server's checkpoint "
        "store, and this server is not configured with one. Open the link on the server it was "
        "made on."
    ]
    assert _shown(at)["source"] == "demo"
    assert _shown(at)["thread"] == "clean-1"


def test_a_link_naming_a_thread_the_store_lacks_says_so_and_shows_the_first():
    at = _open(encode_share({"page": "threads", "thread": "gone-42", "step": 3}))
    assert [w.value for w in at.warning] == [
        "The thread this link names is not listed [share_thread]: not on this page with these "
        "filters, so the first thread listed is shown. Its id:"
    ]
    assert "gone-42" in [c.value for c in at.code]
    assert _shown(at)["thread"] == "clean-1"
    at.run()  # said once, for the link that was opened
    assert not at.warning


def test_an_uploaded_store_offers_no_link_and_says_why(tmp_path):
    store = tmp_path / "mine.sqlite"
    build_demo_store(store)
    at = _open()
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(
        ("mine.sqlite", store.read_bytes(), "")
    ).run()
    assert not at.exception
    assert at.selectbox(key=keys.THREADS_THREAD).value == "clean-1"  # the file was read
    assert [b.key for b in at.button if b.key == keys.THREADS_SHARE] == []
    assert (
        "No share link for an uploaded store: the file stays in this session only. The demo "
        "store and the server's store can be shared."
    ) in [c.value for c in at.caption]


def test_a_link_to_the_servers_store_names_it_only_as_the_servers(tmp_path, monkeypatch):
    store = tmp_path / "server.sqlite"
    build_demo_store(store)
    monkeypatch.setenv(STORE_ENV, str(store))
    at = _open()
    at.selectbox(key=keys.THREADS_THREAD).select("interrupted").run()
    link = _link(at)
    assert link == {
        "page": "threads",
        "source": "server",
        "current": "same",
        "contains": "",
        "status": "all",
        "page_size": 25,
        "cursors": [""],
        "thread": "interrupted",
        "step": at.select_slider(key=keys.THREADS_STEP).value,
        "tab": "Timeline",
    }
    assert str(tmp_path) not in str(link)  # the file's path never goes into a link
    fresh = _open(token(at))
    assert not fresh.warning
    assert _shown(fresh) == _shown(at)


def test_a_link_reopens_a_later_page_of_the_list_its_size_and_the_changed_model():
    link = {
        "page": "threads",
        "source": "demo",
        "current": "candidate",  # the demo's CandidateState, offered on the seed order
        "contains": "",
        "status": "all",
        "page_size": 50,
        "cursors": ["", "clean-2"],  # the second page: the threads after clean-2
    }
    at = _open(encode_share(link))
    assert not at.exception and not at.warning
    assert (
        at.radio(key=keys.THREADS_CURRENT).value,
        at.selectbox(key=keys.THREADS_PAGE_SIZE).value,
        at.selectbox(key=keys.THREADS_THREAD).options,
    ) == ("candidate", 50, sorted(DEMO_THREADS)[2:])
    # the page the link names, past the count's one page of 50: numbered on from it
    page = at.selectbox(key=keys.THREADS_PAGE)
    assert (page.format_func(page.value), page.options) == (
        "Page 2 of 2",
        ["Page 1 of 2", "Page 2 of 2"],
    )
    assert "8 threads shown of 10" in [c.value for c in at.caption]
    step = at.select_slider(key=keys.THREADS_STEP).value  # the blamed checkpoint, as opened
    assert _link(at) == link | {"thread": "fault-bad_status_last", "step": step, "tab": "Timeline"}


def test_a_link_checking_a_candidate_on_a_server_without_one_says_so(monkeypatch):
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.setenv("PLAYGROUND_MODEL", "shop.state:ShopState")  # no candidate configured
    monkeypatch.delenv("PLAYGROUND_CANDIDATE", raising=False)
    at = _open(encode_share({"page": "threads", "current": "candidate"}))
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "The stored states are checked against the configured model [share_model]: this link "
        "checks them against a changed model (a candidate), and this server is not configured "
        "with one.",
        # the demo store was written with the seed order's state, not the shop's: said so
        "This store's states do not fit ShopState: none of the 10 threads listed has a state "
        "that fits it, from its first checkpoint on. If they were written with another model, "
        "choose that one (--model, playground.toml or PLAYGROUND_MODEL). The first fields "
        "that differ:",
        "No stored state of this thread fits ShopState, from its first checkpoint on: it was "
        "written with another model, or with an input the model rejects.",
    ]
    assert at.radio(key=keys.THREADS_CURRENT).value == "same"


def test_a_link_with_a_nul_in_its_filter_is_refused_by_name_and_the_page_works():
    at = _open(encode_share({"page": "threads", "contains": "a\x00b", "cursors": ["x"]}))
    assert not at.exception
    assert [c.value for c in at.code if c.value.startswith(("contains", "cursors"))] == [
        "contains, cursors",
        "contains: Value error, holds a NUL character, which a PostgreSQL store cannot be asked "
        "for\ncursors: Value error, the first page's cursor must be the empty text",
    ]
    assert at.selectbox(key=keys.THREADS_THREAD).value == "clean-1"


def test_no_link_is_offered_for_a_view_its_link_would_refuse():
    at = _open()
    at.text_input(key=keys.THREADS_CONTAINS).input("x" * 201).run()  # a link holds 200 at most
    assert not at.exception
    assert [b.key for b in at.button if b.key == keys.THREADS_SHARE] == []
    reason = plain("contains (String should have at most 200 characters)")  # as Markdown shows
    assert f"No share link for this view: a link cannot carry its {reason}." in [
        c.value for c in at.caption
    ]


def test_a_link_reopens_the_thread_tool_that_was_open():
    """The thread's tools are tabs (Timeline, Audit, Migrate, Unbrick): a link made with
    the Audit open reopens it, in another session; a link without a tab opens the Timeline."""
    at = _open()
    assert [tab.label for tab in at.tabs] == list(THREAD_TABS)
    assert at.session_state[keys.THREADS_TAB] == "Timeline"
    at.session_state[keys.THREADS_TAB] = "Audit"  # what a click on the tab sets
    at.run()
    link = _link(at)
    assert (link["thread"], link["tab"]) == ("clean-1", "Audit")
    fresh = _open(token(at))
    assert not fresh.exception and not fresh.warning
    assert (fresh.session_state[keys.THREADS_TAB], _shown(fresh)["thread"]) == ("Audit", "clean-1")
    older = _open(encode_share({"page": "threads", "thread": "clean-2"}))
    assert older.session_state[keys.THREADS_TAB] == "Timeline"
