"""A write on a real `langgraph dev` from the Threads page: after the unbrick, the call it
shows (the SDK's runs.wait, with the thread's own assistant) runs the thread on the server."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests._langgraph_server import LangGraphServer
from tests.app._editor import editor
from tests.app.conftest import SESSION_ID, table_rows
from tests.server_fixtures import BROKEN, SERVER_GRAPH, serve_four_threads
from ui import keys
from ui.text import plain
from ui.threads.listing import short_ids

pytestmark = pytest.mark.server

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "threads.py")
FIXED = [{"sku": "ABC-123", "qty": 1}]


@pytest.fixture
def server() -> Iterator[LangGraphServer]:
    """A server of its own: the unbrick writes to its BROKEN thread."""
    with serve_four_threads() as served:
        yield served


@pytest.fixture
def at(server: LangGraphServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.setenv(STORE_ENV, server.url)
    monkeypatch.setenv("PLAYGROUND_MODEL", "server_graph.graph:OrderState")
    monkeypatch.setenv(WRITES_ENV, "1")
    monkeypatch.chdir(SERVER_GRAPH.parent)  # where the model's package is
    monkeypatch.setattr(sys, "argv", ["streamlit"])
    yield AppTest.from_file(PAGE, default_timeout=90).run()
    clear_session_resource_cache(SESSION_ID)


def test_after_an_unbrick_on_a_server_the_call_shown_runs_the_thread_there(at, server):
    at.selectbox(key=keys.THREADS_THREAD).set_value(BROKEN).run()
    text = editor(at, keys.THREADS_UNBRICK_TEXT)
    state = json.loads(text.value)
    state["lines"] = FIXED
    text.input(json.dumps(state, indent=2)).run()
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    forked_from = json.loads(at.json[-1].value)["fork_from_checkpoint"]
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not at.exception
    client = get_sync_client(url=server.url, api_key=None)
    head = client.threads.get_state(BROKEN)
    # the checkpoint ids as their start and end, as the timeline shows them
    assert table_rows(at, "thread", "from checkpoint", "new checkpoint") == [
        (BROKEN, *short_ids([forked_from, head["checkpoint"]["checkpoint_id"]]))
    ]
    box = at.main.get_by_key(keys.THREADS_WRITE_NEXT)
    # the update was made outside the graph: nothing is due, the next input runs it again
    assert (head["next"], box.caption[0].value) == ([], plain(
        "Next: no node is due at the new checkpoint, so the thread's run is complete; its "
        "next input starts a new run from the repaired state:"
    ))  # fmt: skip
    code = box.code[0].value
    assert code == (
        "from langgraph_sdk import get_sync_client\n\n"
        f'client = get_sync_client(url="{server.url}")\n'
        f'client.runs.wait("{BROKEN}", "orders", input=new_input)'
    )  # the graph that ran the thread, read from the server
    # the server is the oracle: the call shown runs the repaired thread to its end
    scope: dict[str, Any] = {"new_input": {"notes": ["resumed"]}}
    exec(code, scope)  # the page's own text, run as a user would
    values = client.threads.get_state(BROKEN)["values"]
    assert (values["status"], values["lines"], values["notes"][-1]) == (
        "answered", FIXED, "1 lines"
    )  # fmt: skip
