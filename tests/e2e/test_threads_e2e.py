"""Threads page in Chromium: the demo store opens, the broken thread and its blamed node."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from bench.audit import build_store
from core.stores.demo import DEMO_THREADS, build_demo_store
from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests.core.stores.conftest import PG_PASSWORD, postgres, postgres_demo  # noqa: F401
from tests.e2e._browser import (
    editor_frame,
    grid_with,
    new_context,
    open_app,
    rerun,
    validate_and_write_fork,
)
from tests.e2e._server import Server, streamlit_server
from tests.e2e.conftest import VIEWPORT
from tests.e2e.test_layout_e2e import NOTE_LINES, cells_not_whole, overflow
from ui.threads.source import MAX_UPLOAD_BYTES, SOURCES

pytestmark = pytest.mark.e2e

# The thread list is a canvas grid; its accessible grid DOM carries the cell text.
THREAD_GRID = "[data-testid='stDataFrame']:has([role='columnheader']:text-is('thread_id'))"


def test_the_demo_stores_broken_thread_shows_the_node_that_wrote_it(new_page) -> None:
    page = new_page("threads")
    expect(page.get_by_role("heading", name="Threads").first).to_be_visible()
    grid = page.locator(THREAD_GRID)
    row = grid.locator("[role='row']").filter(has_text="fault-negative_amount")
    expect(row.locator("[role='gridcell']").nth(1)).to_have_text("broken at step 1")

    search = page.locator(".st-key-threads_contains input")
    search.fill("negative")
    search.press("Enter")  # the list keeps that one thread, and it is the one shown
    expect(grid.locator("[role='row']")).to_have_count(2)  # the header and the thread
    expect(page.locator(".st-key-threads_thread input")).to_have_value("fault-negative_amount")

    blame = page.locator(".st-key-threads_blame")
    expect(blame.locator("[data-testid='stAlert']")).to_have_text(
        "This thread's latest state fails AgentState."
    )
    expect(blame.locator("[data-testid='stCode']")).to_have_text([
        "First invalid at step 1, written by validate_order.",
        re.compile(r"^LangGraph's get_state raised ValidationError: 1 validation error for "
                   r"AgentState amount Input should be greater than or equal to 0 "),
    ])  # fmt: skip


def _store_within(path: Path, size: int) -> Path:
    """The demo store padded with a table of blobs to the most whole pages `size` bytes hold."""
    build_demo_store(path)
    with closing(sqlite3.connect(path)) as conn:
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        target = size // page

        def pages() -> int:
            return int(conn.execute("PRAGMA page_count").fetchone()[0])

        conn.execute("CREATE TABLE padding (blob BLOB)")
        # one blob fills all but a few dozen pages (an overflow page holds page - 4 bytes),
        # then rows of half a page add one leaf page each until the size is reached
        conn.execute(
            "INSERT INTO padding VALUES (zeroblob(?))", ((target - pages() - 64) * (page - 4),)
        )
        conn.commit()
        while pages() < target:
            conn.execute("INSERT INTO padding VALUES (zeroblob(?))", (page // 2,))
            conn.commit()
    assert size - page < path.stat().st_size <= size
    return path


def test_a_store_of_the_upload_limit_opens_and_a_byte_more_gets_the_pages_own_message(
    new_page, tmp_path
) -> None:
    page = new_page("threads")
    with rerun(page):
        page.locator(".st-key-threads_source").get_by_text(SOURCES["upload"]).click()
    uploader = page.locator(".st-key-threads_upload")
    # the page's limit, not the cap Streamlit's drop zone would state (twice it)
    expect(
        uploader.get_by_text("SQLite checkpoint store (.sqlite, .db, .sqlite3; up to 50 MB)")
    ).to_be_visible()
    expect(uploader.get_by_test_id("stFileUploaderDropzoneInstructions")).to_be_hidden()
    chooser = uploader.locator("input[type='file']")
    at_limit = _store_within(tmp_path / "at-limit.sqlite", MAX_UPLOAD_BYTES)
    with rerun(page):
        chooser.set_input_files(at_limit)
    expect(page.get_by_text("uploaded file at-limit.sqlite", exact=True)).to_be_visible()
    rows = page.locator(THREAD_GRID).locator("[role='row']")
    expect(rows).to_have_count(1 + len(DEMO_THREADS))  # the header, then every thread

    over = tmp_path / "over.sqlite"
    data = at_limit.read_bytes()
    over.write_bytes(data + bytes(MAX_UPLOAD_BYTES + 1 - len(data)))  # one byte over the limit
    with rerun(page):
        chooser.set_input_files(over)
    expect(
        page.locator("[data-testid='stAlert']").filter(has_text="upload_too_large")
    ).to_have_text(
        "The file is not read [upload_too_large]: it is 50.1 MB, and the limit is 50 MB. "
        "Audit a larger store from the command line, or start the server with it as its "
        "store (--store or PLAYGROUND_STORE):"
    )
    expect(page.get_by_test_id("stCode").last).to_have_text(
        "python -m core audit STORE --model pkg.mod:Model"
    )
    expect(page.locator(THREAD_GRID)).to_have_count(0)  # nothing of the earlier file is left
    expect(uploader).to_contain_text("over.sqlite")
    expect(uploader).not_to_contain_text("must be")  # not refused by Streamlit's own check
    assert page.locator("[data-testid='stException']").count() == 0


@pytest.fixture(scope="module")
def big_store_server(tmp_path_factory) -> Iterator[Server]:
    """The app started with PLAYGROUND_STORE on a store of 3,000 threads / 30,000
    checkpoints (real seed-graph runs, rows copied: bench/audit.py's build, ~2 s), so an
    audit of every checkpoint takes long enough for its progress and Cancel to be seen."""
    spec = str(tmp_path_factory.mktemp("big") / "store.sqlite")
    assert build_store("sqlite", spec, 3_000, 30_000)[0] == 3_000
    with streamlit_server(env={STORE_ENV: spec}) as server:  # the server's store only
        yield server


# The audit's progress bar (the Migrate section's counts threads previewed)
AUDIT_PROGRESS = "[data-testid='stProgress']:has-text('threads checked')"


def open_tab(page: Any, label: str) -> None:
    """Open one of the open thread's tools (a tab: Timeline, Audit, Migrate, Unbrick)."""
    with rerun(page):
        page.locator(".st-key-threads_tab [role='tab']").filter(has_text=label).click()


def _threads_checked(page) -> int:
    text = page.locator(AUDIT_PROGRESS).inner_text()
    found = re.fullmatch(r"([\d,]+) threads checked so far", text.strip())
    assert found, text
    return int(found.group(1).replace(",", ""))


def test_the_audit_streams_its_results_with_progress_and_cancel_stops_it(
    browser, big_store_server
) -> None:
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{big_store_server.url}/threads")
    try:
        # the server's store opens first: the Store radio has it selected
        expect(page.get_by_role("radio", name="The server's store")).to_be_checked()
        expect(page.locator(THREAD_GRID)).to_be_visible()
        # the box's run settled first (the page previews the migration in it): a click on a
        # busy machine could otherwise meet the page mid-run
        with rerun(page, timeout_ms=120_000):
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Audit").click()
        with rerun(page, timeout_ms=120_000):
            page.locator(".st-key-threads_audit_history").get_by_text("Every checkpoint").click()
        page.locator(".st-key-threads_audit_run").get_by_role("button").click()

        progress = page.locator(AUDIT_PROGRESS)
        expect(progress).to_have_text(re.compile(r"^[1-9][\d,]* threads checked so far$"))
        # results stream in: the counts so far, before the audit is done
        so_far = page.get_by_text(re.compile(r"^[1-9][\d,]* threads?, [\d,]+ checkpoints? "
                                             r"audited; .*\(so far\)$"))  # fmt: skip
        expect(so_far).to_be_visible()
        page.locator(".st-key-threads_audit_cancel").get_by_role("button").click()
        expect(page.locator(".st-key-threads_audit_cancel")).to_have_count(0)
        stopped = _threads_checked(page)
        expect(page.get_by_text(f"Audit cancelled: the counts below cover the {stopped:,} "
                                "threads checked before Cancel.")).to_be_visible()  # fmt: skip
        page.wait_for_timeout(3_000)  # an audit still running would finish a part by now
        assert _threads_checked(page) == stopped < 3_000
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def writes_server() -> Iterator[Server]:
    """The app with writes enabled (never in the hosted demo), on each session's demo store."""
    with streamlit_server(env={WRITES_ENV: "1"}) as server:
        yield server


def test_unbrick_marks_the_broken_field_and_writing_the_fix_makes_the_thread_valid(
    browser, writes_server
) -> None:
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{writes_server.url}/threads")
    try:
        search = page.locator(".st-key-threads_contains input")
        search.fill("bad_status")
        search.press("Enter")
        expect(page.locator(".st-key-threads_thread input")).to_have_value("fault-bad_status_last")
        open_tab(page, "Unbrick")
        frame = editor_frame(page, "threads_unbrick_text")
        mark = frame.locator(".cm-lintRange-error")
        expect(mark).to_have_text('"shipped"')  # the field confirm broke, marked where it is
        mark.click()
        page.keyboard.press("End")
        page.keyboard.press("Shift+Home")  # the line: "status": "shipped",
        line = frame.locator(".cm-activeLine").inner_text()
        page.keyboard.insert_text(line.replace('"shipped"', '"confirmed"'))
        expect(mark).to_have_count(0)  # checked as typed: nothing left to mark
        validate_and_write_fork(page)
        # the editor shows the new head's state once the page settles (its frame, moved down
        # by the written rows, was remounted and stayed blank until another tab was opened)
        expect(frame.locator(".cm-line").filter(has_text='"status": "confirmed",')).to_have_count(
            1, timeout=5_000
        )
        expect(frame.locator(".cm-lintRange-error")).to_have_count(0)
        # the thread is read again and the stepper opens on the checkpoint just written...
        open_tab(page, "Timeline")
        stepper = page.locator(".st-key-threads_step")
        expect(stepper.get_by_role("slider")).to_have_attribute(
            "aria-valuetext", "checkpoint 5 of 5 · step 2 · update"
        )
        expect(stepper.get_by_test_id("stSliderThumbValue")).to_have_text(
            "checkpoint 5 of 5 · step 2 · update"
        )
        # ...and the panels show that checkpoint: the fixed state, valid
        expect(page.get_by_text("Valid — this stored state passes the model.")).to_be_visible()
        expect(page.get_by_text(re.compile(r"^Invalid — "))).to_have_count(0)
        values = page.locator("[data-testid='stJson']").first  # the stored channel values
        expect(values).to_contain_text('"status":"confirmed"')
        row = (
            page.locator(THREAD_GRID)
            .locator("[role='row']")
            .filter(has_text="fault-bad_status_last")
        )
        expect(row.locator("[role='gridcell']").nth(1)).to_have_text("valid")
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.context.close()


@pytest.fixture(scope="module")
def sqlalchemy_dsn_server(postgres, postgres_demo) -> Iterator[Server]:  # noqa: F811
    """The app started with the demo store on PostgreSQL, given as settings keep it: a
    SQLAlchemy URL with its driver and its password in it."""
    spec = postgres_demo.replace("postgresql://", "postgresql+psycopg://")
    with streamlit_server(env={STORE_ENV: spec}) as server:
        yield server


def test_a_sqlalchemy_dsn_opens_and_the_page_shows_it_without_its_password(
    browser,
    sqlalchemy_dsn_server,
    postgres,  # noqa: F811
) -> None:
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{sqlalchemy_dsn_server.url}/threads")
    try:
        label = f"postgresql://postgres@127.0.0.1:{postgres.port}/demo"
        expect(page.get_by_text(label, exact=True)).to_be_visible()  # under "Reading:"
        row = (
            page.locator(THREAD_GRID)
            .locator("[role='row']")
            .filter(has_text="fault-bad_status_last")
        )
        expect(row.locator("[role='gridcell']").nth(1)).to_have_text("broken at step 2")
        # read as the cluster's superuser: the page says so, coded, and names no password
        expect(page.get_by_text("[store_role_superuser]", exact=False)).to_be_visible()
        assert PG_PASSWORD not in page.content()
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.context.close()


def test_unbricks_errors_are_drawn_whole_with_no_empty_line_col(browser, writes_server) -> None:
    # The walk at 1400 px: the edit's error table had an empty line:col column (a parsed
    # state has no text) and its ctx cut at the table's edge.
    context = new_context(browser, viewport={"width": 1400, "height": 900})
    context.add_init_script(f"({NOTE_LINES})()")
    page = open_app(context, f"{writes_server.url}/threads")
    try:
        search = page.locator(".st-key-threads_contains input")
        search.fill("bad_status")
        search.press("Enter")
        expect(page.locator(".st-key-threads_thread input")).to_have_value("fault-bad_status_last")
        open_tab(page, "Unbrick")
        frame = editor_frame(page, "threads_unbrick_text")
        frame.locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text('{"status": "pending", "amount": -3}')
        expect(frame.locator(".cm-lintRange-error")).not_to_have_count(0)  # checked as typed
        with rerun(page):
            page.locator(".st-key-threads_unbrick_validate").get_by_role("button").click()
        expect(page.get_by_text("[unbrick_invalid_edit]", exact=False)).to_be_visible()
        grid = grid_with(page, "path", "message").last
        grid.scroll_into_view_if_needed()
        expect(grid.locator("[role='columnheader']")).to_have_text(
            ["path", "message", "type", "input", "ctx", "docs", "pointer"]
        )
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        assert overflow(grid) is None
        # every cell spelled whole inside its column (docs shows a link's text, not its URL)
        assert {k: v for k, v in cells_not_whole(grid).items() if not k.startswith("docs")} == {}
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        context.close()
