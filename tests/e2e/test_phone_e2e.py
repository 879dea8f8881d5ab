"""Trace and Threads on a 390 px phone: the columns that say which row it is and what went
wrong are drawn whole inside their table, with no sideways scrolling."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from typing import Any

import pytest
from playwright.sync_api import expect

from core.order import SEED_PAYLOAD, build_order_graph
from core.stores.open import STORE_ENV
from tests.e2e._browser import (
    NOTE_DRAWN,
    cut_off,
    grid_with,
    new_context,
    open_app,
    rerun,
    run_trace,
)
from tests.e2e._server import Server, streamlit_server
from ui.errors.view import MESSAGE_ROW_HEIGHT
from ui.threads.columns import PHONE_COLUMNS
from ui.threads.listing import short_ids
from ui.trace_table import STEP_ROW_HEIGHT

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
HEADER_HEIGHT = 35  # the grid's header row (Streamlit's default row height)


def cells_as_drawn(grid: Any, row: int, values: list[str]) -> dict[str, str]:
    """For the first columns' cells of `row` (their `values`): "whole" when the lines drawn
    in the cell, top to bottom, spell the value and each ends inside its column and row."""
    drawn = grid.evaluate("e => e.__drawn || {}")
    headers = grid.locator("[role='columnheader']").all_inner_texts()
    starts = [drawn[h]["start"] - 8.5 for h in headers if h in drawn]
    top = HEADER_HEIGHT + row * STEP_ROW_HEIGHT
    result = {}
    for column, value in enumerate(values):
        left, right = starts[column], starts[column + 1]
        lines = sorted(
            (d["y"], text)
            for text, d in drawn.items()
            if left <= d["start"] < right and top < d["y"] < top + STEP_ROW_HEIGHT
        )
        spelled = "".join(text for _, text in lines).replace(" ", "")
        inside = all(drawn[text]["end"] <= right and y + 8 <= top + STEP_ROW_HEIGHT
                     for y, text in lines)  # fmt: skip
        result[value] = "whole" if spelled == value.replace(" ", "") and inside else str(lines)
    return result


@pytest.fixture
def phone(browser: Any, app_server: Any) -> Any:
    """Open a page of the app in a phone-sized context that notes what its grids draw."""
    contexts: list[Any] = []

    def open_page(path: str) -> Any:
        context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
        context.add_init_script(f"({NOTE_DRAWN})()")
        contexts.append(context)
        return open_app(context, f"{app_server.url}/{path}")

    yield open_page
    for context in contexts:
        context.close()


@pytest.mark.parametrize(
    ("fault", "flagged"),
    [
        ("bad_status_last", ["2", "confirm", "status: literal_error", "first failure", "confirm"]),
        (
            "negative_amount",
            [
                "1",
                "validate_order",
                "amount: greater_than_equal",
                "first failure",
                "validate_order",
            ],
        ),
    ],
)
def test_on_a_phone_the_trace_table_shows_step_node_check_flag_and_blame_whole(
    phone, fault: str, flagged: list[str]
) -> None:
    # Until this fix the fixed widths made for 1400 px (step 45, node 105, check 130,
    # flag 110, blame 100) ran past the phone's 356 px of grid: flag was cut after
    # "first fa" and blame was off-screen; only the row's tint said which row failed.
    page = phone("trace")
    run_trace(page, fault=fault)

    table = grid_with(page, "flag")
    table.scroll_into_view_if_needed()
    selected = table.locator("[role='row'][aria-selected='true']")
    expect(selected).to_have_count(1)
    cells = selected.locator("[role='gridcell']").all_inner_texts()[:5]
    assert cells == flagged
    page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
    # The headers, and the flag's words, each line inside its column (before blame's).
    assert cut_off(table, ["step", "node", "check", "flag", "blame"]) == {}
    row = int(selected.get_attribute("aria-rowindex")) - 2  # 1-based, the header first
    assert cells_as_drawn(table, row, cells) == {value: "whole" for value in cells}
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box


# A thread id as real apps make them (uuid4): 36 characters, about 250 px wide on its own.
LONG_ID = "3f2b8c1e-9d4a-4e57-b6a1-0c8f2d7e5a91"


@pytest.fixture(scope="module")
def uuid_store_server(tmp_path_factory: Any) -> Iterator[Server]:
    """The app started on a store holding one real seed-graph run under a uuid thread id:
    the bad_status_last fault, so the thread is broken and the audit lists its error."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = tmp_path_factory.mktemp("uuid") / "store.sqlite"
    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        graph = build_order_graph(["bad_status_last"]).builder.compile(
            checkpointer=SqliteSaver(conn)
        )
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": LONG_ID}})
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    with streamlit_server(env={STORE_ENV: str(path)}) as server:
        yield server


def column_cut(grid: Any, columns: list[str]) -> dict[str, Any]:
    """What is wrong with `columns` (the first ones of `grid`) as drawn: a header not drawn or
    ending past the grid's edge, or the next column starting past it (the last one cut)."""
    drawn = grid.evaluate("e => e.__drawn || {}")
    problems: dict[str, Any] = cut_off(grid, columns)
    headers = grid.locator("[role='columnheader']").all_inner_texts()
    after = headers[len(columns)] if len(headers) > len(columns) else None
    if headers[: len(columns)] != columns:
        problems["order"] = headers
    elif after is None or after not in drawn or drawn[after]["start"] > drawn[after]["canvas"]:
        problems[f"{columns[-1]} ends past the edge"] = drawn.get(after)
    return problems


def test_on_a_phone_each_threads_table_shows_what_names_a_row_and_its_verdict(
    browser: Any, uuid_store_server: Server
) -> None:
    # Until this fix every table took its columns' natural widths: a uuid thread id pushed
    # the thread's status past the phone's edge, the checkpoints' error count was the fifth
    # column off-screen, and the audit showed the thread id and checkpoint id, not the error.
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(f"({NOTE_DRAWN})()")
    try:
        page = open_app(context, f"{uuid_store_server.url}/threads")
        expect(page.locator(".st-key-threads_thread input")).to_have_value(LONG_ID)
        # A keyed st.dataframe has no .st-key- class: each table is found by a header in
        # view before and after the fix (the thread list comes first, the audit's last).
        grids = {
            "threads_table": grid_with(page, "thread_id").first,
            "threads_timeline": grid_with(page, "written by"),
            "threads_writes": grid_with(page, "channel"),
            "threads_audit_invalid": grid_with(page, "thread_id").last,
        }
        problems = {}

        def measure(key: str, columns: list[str]) -> None:
            grid = grids[key]
            grid.scroll_into_view_if_needed()
            expect(grid.locator("[role='columnheader']").first).to_be_attached()
            page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
            problems[key] = column_cut(grid, columns)
            box = grid.bounding_box()
            assert box is not None and box["x"] + box["width"] <= PHONE["width"], (key, box)

        # The list and the open thread's Timeline tab: its checkpoints and writes.
        for key in ["threads_table", "threads_timeline", "threads_writes"]:
            measure(key, PHONE_COLUMNS[key])
        # The stored state's errors: the field and the whole message (Trace's table for a
        # state's errors; error_table put an empty line:col between them, the message cut).
        errors = grid_with(page, "path", "message")  # not the Migrate section's steps (path)
        errors.scroll_into_view_if_needed()
        page.wait_for_timeout(500)
        problems["threads_errors"] = column_cut(errors, ["path", "message"])
        # the row itself: the thread's id (its start and end: the whole id is the open
        # thread's box) and its status
        row = grids["threads_table"].locator("[role='row']").nth(1)
        cells = row.locator("[role='gridcell']").all_inner_texts()[:2]
        assert cells == [*short_ids([LONG_ID]), "broken at step 2"]
        # The Audit tab: its table of invalid states.
        with rerun(page):
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Audit").click()
        with rerun(page):
            page.locator(".st-key-threads_audit_run").get_by_role("button").click()
        expect(
            page.get_by_text("1 thread, 1 checkpoint audited; 1 invalid state in 1 thread")
        ).to_be_visible()
        # its thread and field whole, and its error type begun on screen (its words, each as
        # wide as it needs, can take the type a few px past a phone's edge: a swipe away)
        measure("threads_audit_invalid", PHONE_COLUMNS["threads_audit_invalid"][:2])
        assert problems == {key: {} for key in [*PHONE_COLUMNS, "threads_errors"]}
    finally:
        context.close()


def test_on_a_phone_the_forks_two_trace_tables_show_step_node_check_and_blame(phone) -> None:
    # Until this fix the fork's tables kept the run's column order: check and blame came
    # eighth and ninth, past the edge on a phone (and in the fork's half column at 1400 px).
    page = phone("trace")
    run_trace(page)
    with rerun(page):
        page.locator(".st-key-fork").get_by_role("button").click()
    tables = page.locator(
        "[data-testid='stDataFrame']:has([role='columnheader']:text-is('node'))"
        ":not(:has([role='columnheader']:text-is('flag')))"
    )
    expect(tables).to_have_count(2)  # the original run and the forked branch
    problems = {}
    for name, table in zip(("original", "branch"), tables.all(), strict=True):
        table.scroll_into_view_if_needed()
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        problems[name] = column_cut(table, ["step", "node", "check", "blame"])
    assert problems == {"original": {}, "branch": {}}


def test_on_a_phone_selecting_an_error_row_brings_the_editor_and_its_caret_into_view(
    phone,
) -> None:
    page = phone("")
    with rerun(page):
        page.get_by_role("button", name="Try a broken order").click()
    table = page.locator(".st-key-errors__table")
    expect(table.locator("[role='gridcell']", has_text="6:14")).to_have_count(1)
    # Read on: the table at the top of the screen, the editor above it out of sight.
    table.evaluate("e => e.scrollIntoView({block: 'start'})")
    assert page.evaluate(CARET_LINE_IN_VIEW) is False
    with rerun(page):  # the first row's selection box
        table.click(position={"x": 16, "y": HEADER_HEIGHT + MESSAGE_ROW_HEIGHT // 2})
    editor = page.frame_locator(".st-key-payload_editor iframe").locator(".cm-editor")
    expect(editor).to_have_attribute("data-caret", "6:14")
    page.wait_for_function(CARET_LINE_IN_VIEW)


# Whether the editor's line holding the caret is on the screen (in the page's viewport).
CARET_LINE_IN_VIEW = """() => {
  const frame = document.querySelector(".st-key-payload_editor iframe");
  const line = frame.contentDocument.querySelector(".cm-activeLine");
  if (!line) return false;
  const top = frame.getBoundingClientRect().top + line.getBoundingClientRect().top;
  return top >= 0 && top + line.getBoundingClientRect().height <= innerHeight;
}"""
