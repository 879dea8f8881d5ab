"""Threads page in Chromium: the demo store opens, the broken thread and its blamed node."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

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
        "This thread is broken: LangGraph's get_state raises on it."
    )
    expect(blame.locator("[data-testid='stCode']")).to_have_text(
        "First invalid at step 1, written by validate_order."
    )
