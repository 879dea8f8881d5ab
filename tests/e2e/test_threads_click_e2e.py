"""Threads page in Chromium, as a new user meets it (issue #32, item 5): a row of the list
opens its thread on a click, the list has page numbers to jump to beside its total, and the
audit's progress counts threads checked, in plain words."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from bench.audit import build_store
from core.stores.open import STORE_ENV
from tests.e2e._browser import grid_with, new_context, open_app, rerun
from tests.e2e._server import Server, streamlit_server

pytestmark = pytest.mark.e2e

WIDE = {"width": 1400, "height": 900}  # the desktop window
PHONE = {"width": 390, "height": 844}  # and its phone
THREADS = 60  # t00000 ... t00059: three pages of 25, the last of 10
HEADER_PX = 35  # a Streamlit data grid's header row and each of its rows, in CSS px
ROW_PX = 35


@pytest.fixture(scope="module")
def sixty_threads_server(tmp_path_factory) -> Iterator[Server]:
    """The app started on a store of 60 threads (real seed-graph runs, rows copied)."""
    spec = str(tmp_path_factory.mktemp("sixty") / "store.sqlite")
    assert build_store("sqlite", spec, THREADS, 2 * THREADS)[0] == THREADS
    with streamlit_server(env={STORE_ENV: spec}) as server:
        yield server


def _click_row(grid: Any, row: int) -> None:
    """Click the thread_id cell of the list's `row` (0: the first thread) where it is drawn:
    the grid is a canvas, scrolled into view first (the list is beside the open thread,
    under the page's header)."""
    grid.scroll_into_view_if_needed()
    box = grid.locator("canvas").first.bounding_box()
    assert box is not None
    grid.page.mouse.click(box["x"] + 90, box["y"] + HEADER_PX + ROW_PX * row + ROW_PX / 2)


def _listed(grid: Any) -> list[str]:
    """The thread ids of the rows the grid holds, in order."""
    rows = grid.locator("[role='row']:has([role='gridcell'])").all()
    return [row.locator("[role='gridcell']").first.inner_text().strip() for row in rows]


def test_a_click_on_a_row_opens_its_thread_and_page_numbers_jump_through_the_list(
    browser: Any, sixty_threads_server: Server
) -> None:
    page = open_app(new_context(browser, viewport=WIDE), f"{sixty_threads_server.url}/threads")
    try:
        grid = grid_with(page, "thread_id").first
        picked = page.locator(".st-key-threads_thread input")
        expect(picked).to_have_value("t00000")  # the first thread listed is open
        with rerun(page):
            _click_row(grid, 3)
        expect(picked).to_have_value("t00003")  # the row clicked is the thread shown
        expect(page.get_by_role("heading", name="Open thread")).to_be_visible()

        # the total, and the page numbers it makes: a jump straight to the last page
        numbers = page.locator(".st-key-threads_page input")
        expect(numbers).to_have_value("Page 1 of 3")
        expect(page.get_by_text("25 threads shown of 60", exact=True)).to_be_visible()
        numbers.click()  # the box has the focus (the grid kept the click before it)...
        page.keyboard.type("3 of")  # ...and typing filters its page numbers
        with rerun(page):
            page.get_by_role("option").filter(has_text="Page 3 of 3").click()
        expect(numbers).to_have_value("Page 3 of 3")
        expect(page.get_by_text("10 threads shown of 60", exact=True)).to_be_visible()
        expect(picked).to_have_value("t00050")
        expect(grid.locator("[role='row']")).to_have_count(11)  # the header and the last ten
        assert _listed(grid) == [f"t{n:05d}" for n in range(50, 60)]
        with rerun(page):
            _click_row(grid, 9)
        expect(picked).to_have_value("t00059")
        with rerun(page):  # Previous pages back from the page jumped to
            page.locator(".st-key-threads_prev").get_by_role("button").click()
        expect(numbers).to_have_value("Page 2 of 3")
        expect(picked).to_have_value("t00025")

        # the audit (a tab of the open thread's tools) says what it checked in plain words:
        # threads, not slices
        with rerun(page):
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Audit").click()
        with rerun(page):
            page.locator(".st-key-threads_audit_run").get_by_role("button").click()
        expect(page.locator("[data-testid='stProgress']:has-text('checked')")).to_have_text(
            f"All {THREADS} threads checked"
        )
        assert not page.get_by_text(re.compile("slice", re.IGNORECASE)).count()
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.context.close()


def test_on_a_phone_a_tap_on_a_row_opens_its_thread_and_the_page_numbers_fit(
    browser: Any, sixty_threads_server: Server
) -> None:
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    page = open_app(context, f"{sixty_threads_server.url}/threads")
    try:
        grid = grid_with(page, "thread_id").first
        grid.scroll_into_view_if_needed()
        box = grid.locator("canvas").first.bounding_box()
        assert box is not None
        with rerun(page):
            page.touchscreen.tap(box["x"] + 90, box["y"] + HEADER_PX + ROW_PX * 2 + ROW_PX / 2)
        expect(page.locator(".st-key-threads_thread input")).to_have_value("t00002")
        numbers = page.locator(".st-key-threads_page")
        expect(numbers.locator("input")).to_have_value("Page 1 of 3")
        drawn = numbers.bounding_box()
        assert drawn is not None and drawn["x"] + drawn["width"] <= PHONE["width"], drawn
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        context.close()
