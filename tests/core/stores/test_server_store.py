"""A real `langgraph dev` read as a store: list, timeline and audit against the SDK and Pydantic."""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from threading import Thread
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from pydantic import ValidationError

from core.__main__ import main
from core.stores.errors import StoreError
from core.stores.reader import audit_any, get_state_said, open_any, thread_page, timeline_of
from core.stores.serde import strict_serde
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import (
    BROKEN,
    ROLE,
    SERVER_GRAPH,
    STOPPED,
    VALID,
    serve_four_threads,
)

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))  # the user's package, as --model names it
OrderState = importlib.import_module("server_graph.graph").OrderState


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        yield server


def _client(server: LangGraphServer) -> Any:
    return get_sync_client(url=server.url, api_key=None)


def _json_errors(values: Any) -> list[dict[str, Any]]:
    """The oracle: Pydantic's own JSON-mode errors for what the server sent."""
    try:
        OrderState.model_validate_json(json.dumps(values))
    except ValidationError as exc:
        return json.loads(exc.json(include_url=False))
    return []


def test_the_thread_list_has_each_threads_status_from_its_values_and_the_server(served):
    with open_any(served.url, strict_serde([OrderState])) as store:
        page = thread_page(store, OrderState, limit=10)
        total = store.count()
    search = {t["thread_id"]: t for t in _client(served).threads.search(limit=10)}
    failed = search[BROKEN]["error"]
    assert (total, page.next_after) == (4, None)
    assert [(row.thread_id, row.label(), row.detail, row.last_time) for row in page.rows] == [
        (VALID, "valid", "", search[VALID]["updated_at"]),
        (ROLE, "valid", "", search[ROLE]["updated_at"]),
        (STOPPED, "interrupted", "the server's status: interrupted", search[STOPPED]["updated_at"]),
        # The broken row says what fails, once; the run's own failure is the thread's to say.
        (BROKEN, "broken", "string_pattern_mismatch at lines[0].sku", search[BROKEN]["updated_at"]),
    ]  # fmt: skip
    assert failed["error"]  # the server keeps the failed run's error: the thread view shows it
    assert _json_errors(search[BROKEN]["values"]) != []  # the server's values fail the model


def test_a_threads_timeline_is_its_history_with_the_node_each_task_names(served):
    history = _client(served).threads.get_history(ROLE, limit=100)[::-1]
    with open_any(served.url, strict_serde([OrderState])) as store:
        timeline = timeline_of(store, ROLE, OrderState)
        said = get_state_said(store, None, timeline)
    by_id = {s["checkpoint"]["checkpoint_id"]: s for s in history}
    expected = []
    for state in history:
        parent = by_id.get((state.get("parent_checkpoint") or {}).get("checkpoint_id"))
        names = [t["name"] for t in (parent or {}).get("tasks", []) if t.get("result")]
        expected.append((
            state["checkpoint"]["checkpoint_id"],
            (state.get("parent_checkpoint") or {}).get("checkpoint_id"),
            state["metadata"]["step"], state["metadata"]["source"], state["values"],
            sorted(state["next"]), ", ".join(names) or None if state["metadata"]["source"] != "input" else None,
        ))  # fmt: skip
    assert [
        (c.checkpoint_id, c.parent_id, c.step, c.source, c.values, c.pending, c.node)
        for c in timeline.checkpoints
    ] == expected
    assert [c.errors for c in timeline.checkpoints] == [[]] * len(history)
    # the input checkpoint's role-style message is written through add_messages, as LangGraph does
    assert [type(m).__name__ for m in timeline.checkpoints[0].state["messages"]] == ["HumanMessage"]
    assert (timeline.blamed, timeline.note, said) == (
        None, None, "The server's get_state answered 200 with the state.",
    )  # fmt: skip


def test_a_thread_whose_history_the_server_refuses_shows_what_it_returns_and_why(served):
    client = _client(served)
    [failed] = client.runs.list(BROKEN, status="error")
    with open_any(served.url, strict_serde([OrderState])) as store:
        timeline = timeline_of(store, BROKEN, OrderState)
        said = get_state_said(store, None, timeline)
    # the window before the failed run: the update that wrote the bad line is its newest
    latest = timeline.checkpoints[-1]
    update = client.threads.get_state(BROKEN, checkpoint_id=latest.checkpoint_id)
    assert (latest.source, latest.values) == ("update", update["values"])
    assert latest.errors == _json_errors(update["values"])
    assert [(e["type"], e["loc"], e["input"]) for e in latest.errors] == [
        ("string_pattern_mismatch", ["lines", 0, "sku"], "bad")
    ]
    # the checkpoint shown holds the error the server refused with: the note and get_state's
    # answer say that it refused, Pydantic's words are the checkpoint's to show
    assert timeline.note == (
        "[server_history_refused] The server answered 400 for this thread's history: a stored "
        "state fails the graph's model, as the checkpoint below shows; shown: those before the "
        f"run that failed at {failed['created_at']}."
    )
    assert said == (
        "The server's get_state answered 400, the refusal its history gave (the note above)."
    )
    assert timeline.blamed is latest


def test_the_audit_reads_every_thread_and_names_the_refused_history(served):
    client = _client(served)
    thread = client.threads.get(BROKEN)
    with open_any(served.url, strict_serde([OrderState])) as store:
        latest = audit_any(store, OrderState).to_json()
        every = audit_any(store, OrderState, history=True).to_json()
    invalid = {"thread_id": BROKEN, "checkpoint_id": "", "step": None, "node": None,
               "errors": _json_errors(thread["values"])}  # fmt: skip
    # the latest values, as the thread list gave them; the invalid thread's state is asked
    # for its checkpoint, which the server refuses for this one (it cannot prepare it)
    assert latest == {"threads": 4, "checkpoints": 4, "invalid": [invalid], "unreadable": []}
    # every checkpoint: the histories, and the one the server refuses named with its code
    refused = every["unreadable"][0]["message"]
    counts = {t: len(client.threads.get_history(t, limit=100)) for t in (VALID, ROLE, STOPPED)}
    assert every == {
        "threads": 4, "checkpoints": sum(counts.values()) + 1, "invalid": [invalid],
        "unreadable": [{"thread_id": BROKEN, "checkpoint_id": "", "step": None,
                        "code": "server_history_refused", "message": refused}],
    }  # fmt: skip
    assert refused.startswith("the server answered 400 for this thread's history (1 validation")
    assert refused.endswith("its latest values, from the thread list, are audited instead.")


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("http://127.0.0.1:9", "store_unreachable"),
        ("https://app:Pw-1@127.0.0.1:9/x?key=Pw-1", "store_unreachable"),
    ],
)
def test_a_server_that_cannot_be_read_is_a_coded_error_without_its_secrets(url, code):
    with pytest.raises(StoreError) as refused:
        with open_any(url, strict_serde([OrderState])):
            pass
    assert refused.value.code == code and "Pw-1" not in str(refused.value)


def _cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(SERVER_GRAPH.parent)
    for name in (
        "PLAYGROUND_MODEL",
        "PLAYGROUND_GRAPH",
        "PLAYGROUND_STORE",
        "PLAYGROUND_ASSISTANT",
    ):
        monkeypatch.delenv(name, raising=False)
    code = main(["audit", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_cli_audits_a_server_with_the_same_json_and_exit_codes(served, monkeypatch, capsys):
    model = ["--model", "server_graph.graph:OrderState"]
    with open_any(served.url, strict_serde([OrderState])) as store:
        expected = audit_any(store, OrderState).to_json()
    code, out, err = _cli(monkeypatch, capsys, served.url, *model, "--json")
    assert (code, json.loads(out), err) == (1, expected, "")
    code, out, _ = _cli(monkeypatch, capsys, served.url, *model, "--json", "--assistant", "orders")
    assert (code, json.loads(out)) == (1, expected)
    code, out, err = _cli(monkeypatch, capsys, served.url, *model, "--assistant", "refunds")
    assert (code, out, err) == (
        2, "", f"[store_missing] {served.url} has no assistant or graph named 'refunds'; it "
        "serves: orders.\n",
    )  # fmt: skip


class _Answer(BaseHTTPRequestHandler):
    """A web server that is not a LangGraph server: one status for every request."""

    status = 401

    def _answer(self) -> None:
        self.send_response(self.status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"detail": "no"}')

    do_GET = do_POST = _answer

    def log_message(self, *_: Any) -> None:  # quiet
        pass


@pytest.mark.parametrize(
    ("status", "said"),
    [
        (401, "[store_login_refused] {url} refused the request (401); set LANGGRAPH_API_KEY (or "
              "LANGSMITH_API_KEY) in the playground's environment to a key the server accepts."),
        (403, "[store_login_refused] {url} refused the request (403); set LANGGRAPH_API_KEY (or "
              "LANGSMITH_API_KEY) in the playground's environment to a key the server accepts."),
        (404, "[not_a_checkpoint_store] {url} answers 404 to threads.count: it is not a LangGraph "
              "server; give the URL `langgraph dev` or your deployment serves."),
    ],
)  # fmt: skip
def test_a_server_that_refuses_or_is_not_langgraph_exits_2_with_one_coded_line(
    status, said, monkeypatch, capsys
):
    handler = type("Answer", (_Answer,), {"status": status})
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as web:
        Thread(target=web.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{web.server_port}"
        monkeypatch.setenv("LANGGRAPH_API_KEY", "lg-key-Secret-1")
        code, out, err = _cli(monkeypatch, capsys, f"http://user:Pw-1@127.0.0.1:{web.server_port}",
                              "--model", "server_graph.graph:OrderState")  # fmt: skip
        web.shutdown()
    assert (code, out, err) == (2, "", said.format(url=url) + "\n")
    assert "lg-key-Secret-1" not in err and "Pw-1" not in err


def test_an_unreachable_server_exits_2_naming_it_without_credentials(monkeypatch, capsys):
    code, out, err = _cli(monkeypatch, capsys, "https://app:Pw-1@127.0.0.1:9/api?key=Pw-1",
                          "--model", "server_graph.graph:OrderState")  # fmt: skip
    assert (code, out, err) == (
        2, "", "[store_unreachable] cannot connect to https://127.0.0.1:9/api (server down, or "
        "wrong host or port); start the server (langgraph dev) or correct the URL.\n",
    )  # fmt: skip
