"""The Threads page on a real `langgraph dev`: the list, a refused history, the audit, links."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from langgraph_sdk import get_sync_client
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from core.share import decode_share
from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests._langgraph_server import LangGraphServer
from tests.app._editor import editor
from tests.app.conftest import SESSION_ID, table_rows
from tests.server_fixtures import BROKEN, ROLE, SERVER_GRAPH, STOPPED, VALID, serve_four_threads
from ui import keys

pytestmark = pytest.mark.server

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "threads.py")


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        yield server


@pytest.fixture
def open_page(monkeypatch) -> Iterator[Callable[[str], AppTest]]:
    """Opens the page with a server as its store and the server graph's model configured."""

    def run(url: str) -> AppTest:
        monkeypatch.setenv(STORE_ENV, url)
        return AppTest.from_file(PAGE, default_timeout=90).run()

    monkeypatch.setenv("PLAYGROUND_MODEL", "server_graph.graph:OrderState")
    monkeypatch.delenv(WRITES_ENV, raising=False)
    monkeypatch.chdir(SERVER_GRAPH.parent)  # where the model's package is
    monkeypatch.setattr(sys, "argv", ["streamlit"])
    yield run
    clear_session_resource_cache(SESSION_ID)


@pytest.fixture
def at(served, open_page) -> AppTest:
    """The page on the module's server (read only: no test writes to it)."""
    return open_page(served.url)


def test_the_servers_threads_are_listed_with_what_the_server_gives_and_short_ids(at, served):
    assert not at.exception
    assert at.code[0].value == served.url  # under "Reading:": the URL, never a key
    (table,) = [t for t in at.dataframe if t.key == keys.THREADS_TABLE]
    # the list fits its pane: id, status, detail; the open thread's time is said under it,
    # and nothing the server does not give (it counts no checkpoints and gives no step)
    assert list(table.value.columns) == ["thread_id", "status", "detail"]
    # (said as plain text: Markdown's marks escaped, which the reader does not see)
    captions = [c.value.replace("\u2060", "").replace("\\", "") for c in at.caption]
    (said,) = [c for c in captions if c.startswith("The open thread: ")]
    assert said.startswith("The open thread: last written ") and "checkpoint" not in said
    assert [(row[0], row[1]) for row in table_rows(at, "thread_id")] == [
        ("10000000…0001", "valid"), ("10000000…0002", "valid"),
        ("10000000…0003", "interrupted"), ("10000000…0004", "broken"),
    ]  # fmt: skip
    assert "4 threads shown of 4" in [c.value for c in at.caption]  # threads.count
    page = at.selectbox(key=keys.THREADS_PAGE)
    assert (page.format_func(page.value), page.options) == ("Page 1 of 1", ["Page 1 of 1"])
    # the whole id: the Thread picker's options, and the open thread's box (copy button)
    assert at.selectbox(key=keys.THREADS_THREAD).options == [VALID, ROLE, STOPPED, BROKEN]
    assert VALID in [c.value for c in at.code]


def test_a_thread_whose_history_is_refused_shows_its_values_the_note_and_the_servers_answer(at):
    at.selectbox(key=keys.THREADS_THREAD).set_value(BROKEN).run()
    assert not at.exception
    assert [e.value for e in at.error][:1] == ["This thread's latest state fails OrderState."]
    # Pydantic's message is said once, in the checkpoint's error table: the history's note
    # and get_state's answer say that the server refused, not its words again
    assert not [c.value for c in at.code if "String should match pattern" in c.value]
    refused = [c.value for c in at.code if "answered 400" in c.value]
    assert [c.split("; shown: ")[0] for c in refused] == [
        "[server_history_refused] The server answered 400 for this thread's history: a stored "
        "state fails the graph's model, as the checkpoint below shows",
        "The server's get_state answered 400, the refusal its history gave (the note above).",
    ]
    assert [(r[0], r[3]) for r in table_rows(at, "path")] == [
        ("lines[0].sku", "string_pattern_mismatch")
    ]


def test_the_audit_of_a_server_finds_the_broken_thread_and_names_the_refused_history(at):
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert not at.exception
    said = [t.value for t in at.text]
    assert "4 threads, 4 checkpoints audited; 1 invalid state in 1 thread" in said
    assert [
        (r[0], r[2], r[4], r[5])
        for r in table_rows(at, "thread_id", "checkpoint_id", "step", "node")
    ] == [(BROKEN, "", "string_pattern_mismatch", "lines[0].sku")]
    at.checkbox(key=keys.THREADS_AUDIT_HISTORY).check().run()
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert not at.exception
    assert [r[:4] for r in table_rows(at, "thread_id", "checkpoint_id", "step", "code")] == [
        (BROKEN, "", "", "server_history_refused")
    ]


def test_a_share_link_names_the_store_only_as_server(at):
    at.selectbox(key=keys.THREADS_THREAD).set_value(ROLE).run()
    at.button(key=keys.THREADS_SHARE).click().run()
    assert not at.exception
    link = next(c.value for c in at.code if "?s=" in c.value)
    state = decode_share(link.split("?s=")[1])
    assert (state["source"], state["thread"]) == ("server", ROLE)
    assert "127.0.0.1" not in str(state)


@pytest.fixture
def own_server() -> Iterator[LangGraphServer]:
    """A server of its own: the unbrick writes to its BROKEN thread (the module's is read)."""
    with serve_four_threads() as server:
        yield server


def test_unbrick_on_a_server_dry_runs_the_fork_then_writes_it_through_the_api(
    own_server, open_page, monkeypatch
):
    monkeypatch.setenv(WRITES_ENV, "1")
    at = open_page(own_server.url)
    at.selectbox(key=keys.THREADS_THREAD).set_value(BROKEN).run()
    text = editor(at, keys.THREADS_UNBRICK_TEXT)
    assert text.args()["marks"] == [
        {"line": 4, "col": 14, "severity": "error",
         "message": "lines[0].sku: String should match pattern '^[A-Z]{3}-[0-9]{3}$'"},
    ]  # fmt: skip
    text.input(text.value.replace('"bad"', '"ABC-123"')).run()
    assert text.args()["marks"] == []
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert not at.exception
    assert at.success[-1].value.startswith("Valid. This is exactly what will be written")
    dry_run = json.loads(at.json[-1].value)
    base = dry_run.pop("fork_from_checkpoint")
    # the update that broke it was made outside the graph: no node is named, and only the
    # changed field is written (lines has no reducer: nothing is replaced whole)
    assert dry_run == {
        "thread_id": BROKEN,
        "as_node": None,
        "values": {"lines": [{"sku": "ABC-123", "qty": 1}]},
        "replaced whole, not merged by the field's reducer": [],
    }
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not at.exception
    state = get_sync_client(url=own_server.url, api_key=None).threads.get_state(BROKEN)
    assert [s.value for s in at.success if s.value.startswith("Written.")] == [
        "Written. The thread's new latest checkpoint (the list above includes it):"
    ]
    written = [json.loads(j.value) for j in at.json if "configurable" in json.loads(j.value)]
    assert written == [{"configurable": state["checkpoint"]}]
    # LangGraph is the oracle: the new head is the fix, forked from the planned checkpoint
    assert (state["values"]["lines"], state["parent_checkpoint"]["checkpoint_id"]) == (
        [{"sku": "ABC-123", "qty": 1}], base,
    )  # fmt: skip
    assert at.select_slider(key=keys.THREADS_STEP).value == 5  # the stepper is on the new head
