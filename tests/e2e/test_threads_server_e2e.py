"""Threads page in Chromium on a real `langgraph dev`: a refused history, then an unbrick."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from langgraph_sdk import get_sync_client
from langgraph_sdk.errors import BadRequestError
from playwright.sync_api import expect

from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests._langgraph_server import LangGraphServer
from tests.e2e._browser import (
    NOTE_DRAWN,
    cut_off,
    editor_frame,
    grid_with,
    new_context,
    open_app,
    rerun,
    validate_and_write_fork,
)
from tests.e2e._server import Server, streamlit_server
from tests.e2e.conftest import VIEWPORT
from tests.server_fixtures import (
    BROKEN,
    ROLE,
    SERVER_GRAPH,
    STOPPED,
    VALID,
    serve_four_threads,
)
from ui.threads.listing import short_ids

pytestmark = [pytest.mark.e2e, pytest.mark.server]

API_KEY = "lg-Secret-key-1"
MODEL = "server_graph.graph:OrderState"


def _app_env(store: str, **extra: str) -> dict[str, str]:
    """The app's environment: the server as its store, the server graph's model, importable
    from tests/fixtures (the app itself runs from the repository, with its .streamlit/)."""
    path = os.pathsep.join(p for p in (str(SERVER_GRAPH.parent), os.environ.get("PYTHONPATH")) if p)
    return {STORE_ENV: store, "PLAYGROUND_MODEL": MODEL, "PYTHONPATH": path, **extra}


@pytest.fixture(scope="module")
def keyed() -> Iterator[tuple[LangGraphServer, Server]]:
    """A server that answers only requests carrying API_KEY as x-api-key, and the app
    given that key in LANGGRAPH_API_KEY, writes off."""
    with (
        serve_four_threads(api_key=API_KEY) as served,
        streamlit_server(env=_app_env(served.url, LANGGRAPH_API_KEY=API_KEY, **{WRITES_ENV: "0"}))
        as app,
    ):  # fmt: skip
        yield served, app


@pytest.fixture(scope="module")
def writable() -> Iterator[tuple[LangGraphServer, Server]]:
    """A server of its own (its BROKEN thread gets written) and the app with writes on."""
    with (
        serve_four_threads() as served,
        streamlit_server(env=_app_env(served.url, **{WRITES_ENV: "1"})) as app,
    ):
        yield served, app


EMPTY = "10000000-0000-4000-8000-000000000005"  # created, nothing run on it
REFUSED = "10000000-0000-4000-8000-000000000006"  # its newest state the server cannot prepare


@pytest.fixture(scope="module")
def listed() -> Iterator[tuple[LangGraphServer, Server]]:
    """The four threads and two more: one created and never run, and one stopped before
    `answer` whose state an update then broke (the server stores the update, answers 400
    for it, and lists the thread with the values it had before), the app with writes off."""
    with serve_four_threads() as served:
        client = get_sync_client(url=served.url, api_key=None)
        client.threads.create(thread_id=EMPTY)
        client.threads.create(thread_id=REFUSED)
        lines: Any = [{"sku": "ABC-123", "qty": 2}]
        client.runs.wait(REFUSED, "orders", input={"lines": lines}, interrupt_before=["answer"])
        with pytest.raises(BadRequestError, match="1 validation error for OrderState"):
            client.threads.update_state(REFUSED, {"lines": [{"sku": "bad", "qty": 1}]})
        with streamlit_server(env=_app_env(served.url, **{WRITES_ENV: "0"})) as app:
            yield served, app


def _pick(page: Any, thread: str) -> None:
    """Choose `thread` in the Thread selectbox as a user does: focus it, type, pick (a click
    in the thread list before keeps the first click on the box)."""
    page.locator(".st-key-threads_thread input").click()
    page.keyboard.type(thread)
    with rerun(page):
        page.get_by_role("option").filter(has_text=thread).click()


def test_a_servers_threads_and_its_refused_history_read_with_a_key_the_page_never_shows(
    browser, keyed
) -> None:
    served, app = keyed
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{app.url}/threads")
    try:
        expect(page.get_by_text(served.url, exact=True)).to_be_visible()  # under "Reading:"
        rows = grid_with(page, "thread_id").locator("[role='row']")
        expect(rows).to_have_count(5)  # the header, then the four threads in the server's order
        # each id by its ends (uuids that differ only there), the whole one in the thread's box
        ids = short_ids([VALID, ROLE, STOPPED, BROKEN])
        listed = list(zip(ids, ["valid", "valid", "interrupted", "broken"], strict=True))
        assert ids[0] == "10000000…0001"
        for index, (thread, status) in enumerate(listed, start=1):
            cells = rows.nth(index).locator("[role='gridcell']")
            expect(cells.nth(0)).to_have_text(thread)
            expect(cells.nth(1)).to_have_text(status)

        _pick(page, BROKEN)
        blame = page.locator(".st-key-threads_blame")
        expect(blame.locator("[data-testid='stAlert']")).to_have_text(
            "This thread's latest state fails OrderState."
        )
        expect(blame.locator("[data-testid='stCode']")).to_have_text([
            "First invalid at step 3, written by no node (the input, or a write made outside "
            "the graph).",
            re.compile(r"^\[server_history_refused\] The server answered 400 for this thread's "
                       r"history: a stored state fails the graph's model, as the checkpoint "),
            "The server's get_state answered 400, the refusal its history gave (the note "
            "above).",
        ])  # fmt: skip
        # Pydantic's message once: in the checkpoint's table, not in the note or get_state's
        errors = grid_with(page, "path")  # the blamed checkpoint's, beside its values
        errors.scroll_into_view_if_needed()
        expect(errors.locator("[role='row']")).to_have_count(2)  # the header and one error
        # the path and the whole message in the thread's pane (the type a swipe away: the
        # grid draws only the columns in view)
        expect(errors.locator("[role='columnheader']").nth(1)).to_have_text("message")
        error = errors.locator("[role='row']").nth(1).locator("[role='gridcell']")
        expect(error.nth(0)).to_have_text("lines[0].sku")
        expect(error.nth(1)).to_have_text(re.compile(r"^String should match pattern "))
        assert page.locator("[data-testid='stException']").count() == 0
        # the server let every request in, so each carried the key; it is shown nowhere
        assert API_KEY not in page.content()
        assert API_KEY not in app.output()
    finally:
        page.context.close()


def test_unbrick_on_a_server_writes_the_fix_through_its_api_and_the_thread_runs_again(
    browser, writable
) -> None:
    served, app = writable
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{app.url}/threads")
    try:
        _pick(page, BROKEN)
        with rerun(page):
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Unbrick").click()
        frame = editor_frame(page, "threads_unbrick_text")
        mark = frame.locator(".cm-lintRange-error")
        expect(mark).to_have_text('"bad"')  # the SKU the update broke, marked where it is
        mark.click()
        page.keyboard.press("End")
        page.keyboard.press("Shift+Home")  # the line: "sku": "bad",
        line = frame.locator(".cm-activeLine").inner_text()
        page.keyboard.insert_text(line.replace('"bad"', '"ABC-123"'))
        expect(mark).to_have_count(0)
        validate_and_write_fork(page)
        written = page.locator("[data-testid='stJson']").filter(has_text='"configurable"')
        expect(written).to_be_visible()
        head = written.inner_text()
        # the thread is read again and the stepper (its Timeline) opens on the checkpoint
        # just written
        with rerun(page):
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Timeline").click()
        stepper = page.locator(".st-key-threads_step")
        expect(stepper.get_by_role("slider")).to_have_attribute(
            "aria-valuetext", "checkpoint 6 of 6 · step 3 · update"
        )
        expect(page.get_by_text("Valid — this stored state passes the model.")).to_be_visible()
        assert page.locator("[data-testid='stException']").count() == 0

        # LangGraph is the oracle: the server reads the thread again, at the head the page
        # wrote and shows, and runs on it finish
        client = get_sync_client(url=served.url, api_key=None)
        state = client.threads.get_state(BROKEN)
        assert state["values"]["lines"] == [{"sku": "ABC-123", "qty": 1}]
        assert state["checkpoint"]["checkpoint_id"] in head
        client.runs.wait(BROKEN, "orders", input=None)  # nothing is due at the fork: no node runs
        assert client.threads.get(BROKEN)["status"] == "idle"
        # the input whose run failed on the broken state now runs the whole graph
        again = client.runs.wait(BROKEN, "orders", input={"notes": ["again"]})
        assert (again["lines"], again["status"], again["notes"]) == (
            [{"sku": "ABC-123", "qty": 1}], "answered", ["1 lines", "again", "1 lines"],
        )  # fmt: skip
        assert client.threads.get(BROKEN)["status"] == "idle"
    finally:
        page.context.close()


def _main_text(page: Any) -> str:
    """The page's words outside its data grids (whose cells are read as drawn)."""
    return str(
        page.evaluate(
            """() => {
              const main = document.querySelector("[data-testid='stMain']").cloneNode(true);
              main.querySelectorAll("[data-testid='stDataFrame']").forEach(g => g.remove());
              return main.innerText;
            }"""
        )
    )


def test_a_servers_list_draws_only_what_the_server_gives_short_ids_and_each_error_once(
    browser: Any, listed: tuple[LangGraphServer, Server]
) -> None:
    served, app = listed
    context = new_context(browser, viewport={"width": 1400, "height": 900})
    context.add_init_script(f"({NOTE_DRAWN})()")
    page = open_app(context, f"{app.url}/threads")
    try:
        grid = grid_with(page, "thread_id", "status", "detail")
        expect(grid.locator("[role='row']")).to_have_count(7)  # the header and six threads
        page.wait_for_function(
            "g => g.__drawn && Object.keys(g.__drawn).includes('detail')", arg=grid.element_handle()
        )
        ids = [VALID, ROLE, STOPPED, BROKEN, EMPTY, REFUSED]
        listed_rows = [
            (short, status, detail)
            for short, (status, detail) in zip(
                short_ids(ids),
                [
                    ("valid", ""),
                    ("valid", ""),
                    ("interrupted", "the server's status: interrupted"),
                    ("broken", "string_pattern_mismatch at lines[0].sku"),
                    ("valid", "no checkpoint yet: created, nothing has run on it"),
                    # the server lists the values it had before the update it cannot
                    # prepare; asked, it refuses the thread's state
                    (
                        "unreadable",
                        "[server_history_refused] the server refuses its latest state (400)",
                    ),
                ],
                strict=True,
            )
        ]
        drawn = set(grid.evaluate("g => Object.keys(g.__drawn)"))
        # the columns the server gives, each drawn: no count or step it does not give
        headers = grid.locator("[role='columnheader']").all_inner_texts()
        assert [h for h in headers if h] == ["thread_id", "status", "detail"]
        assert {"thread_id", "status", "detail"} <= drawn
        assert not {"None", "checkpoints", "last step", "last_step", "nan"} & drawn
        # each id by its ends, drawn whole; no whole uuid on the canvas
        cells = [texts for texts in (
            grid.locator("[role='row']").nth(i).locator("[role='gridcell']").all_inner_texts()
            for i in range(1, 7))]  # fmt: skip
        assert [tuple(row[-3:]) for row in cells] == listed_rows
        assert {short for short, _, _ in listed_rows} <= drawn
        assert all(len(short) == len("10000000…0001") for short, _, _ in listed_rows)
        assert not set(ids) & drawn
        assert cut_off(grid, [short for short, _, _ in listed_rows]) == {}
        # the broken thread, opened: its whole id with a copy button; its error drawn once, in the checkpoint's table; the note and
        # get_state say that the server refused, not Pydantic's message again
        _pick(page, BROKEN)
        opened = page.locator("[data-testid='stCode']").filter(has_text=BROKEN)
        expect(opened).to_be_visible()
        expect(opened.locator("button")).to_have_count(1)  # its copy button
        blame = page.locator(".st-key-threads_blame")
        expect(blame.locator("[data-testid='stCode']")).to_have_text([
            "First invalid at step 3, written by no node (the input, or a write made outside "
            "the graph).",
            re.compile(r"^\[server_history_refused\] The server answered 400 for this thread's "
                       r"history: a stored state fails the graph's model, as the checkpoint "
                       r"below shows; shown: those before the run that failed at "),
            "The server's get_state answered 400, the refusal its history gave (the note "
            "above).",
        ])  # fmt: skip
        errors = grid_with(page, "path", "message")
        errors.scroll_into_view_if_needed()
        expect(errors.locator("[role='row']")).to_have_count(2)
        page.wait_for_function(
            "g => g.__drawn && Object.keys(g.__drawn).some(t => t.startsWith('String should'))",
            arg=errors.element_handle(),
        )
        drawn_errors = errors.evaluate("g => Object.keys(g.__drawn)")
        # the checkpoint's table: the one place it is said (wrapped: its first line once)
        assert len([t for t in drawn_errors if t.startswith("String should")]) == 1, drawn_errors
        said = _main_text(page)
        assert "validation error for OrderState" not in said
        assert "String should match pattern" not in said
        assert page.locator("[data-testid='stException']").count() == 0

        # the thread whose newest state the server refuses: that checkpoint is unreadable,
        # the server's message once, in the note (the values it lists are not judged valid)
        _pick(page, REFUSED)
        expect(blame.locator("[data-testid='stAlert']")).to_have_text(
            "The latest checkpoint of this thread cannot be read."
        )
        expect(blame.locator("[data-testid='stCode']").nth(1)).to_contain_text(
            "; shown: those before its state was last written, at "
        )
        said = _main_text(page)
        assert said.count("1 validation error for OrderState lines.0.sku") == 1
        assert "is valid under OrderState" not in said

        # the thread with no checkpoint opens as its empty state, said so
        _pick(page, EMPTY)
        expect(
            blame.get_by_text(
                "The server holds no checkpoint of this thread yet: it was created and nothing "
                "has run on it."
            )
        ).to_be_visible()
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        context.close()
