"""Threads page's Migrate section in Chromium: a step typed into the plan table moves the
preview (a half-typed one keeps the last preview, marked stale), and Apply writes only after
its dry run is confirmed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from core.stores.unbrick import WRITES_ENV
from tests.e2e._browser import grid_with, new_context, open_app, rerun
from tests.e2e._server import Server, streamlit_server
from tests.e2e.conftest import VIEWPORT

pytestmark = pytest.mark.e2e

STEPS = ".st-key-threads_migrate_steps"
COUNTS = ".st-key-threads_migrate_counts [data-testid='stMetricValue']"
STALE_PREVIEW = ".st-key-threads_migrate_stale__preview"  # the stale preview's box, dimmed
REFUSALS = ".st-key-threads_migrate_refusals [data-testid='stCode']"
STALE = ".st-key-threads_migrate_stale"
COLUMNS = ("path", "action", "value", "from", "to")  # the plan grid's cells, in order


def _migrate(page: Any) -> None:
    """Open the Migrate tab where the page has tabs (the section is drawn in it)."""
    tab = page.get_by_role("tab", name="Migrate")
    if tab.count():
        tab.click()
    expect(page.locator(STEPS)).to_be_visible()


def _cell(page: Any, row: int, column: str) -> Any:
    """The plan grid's input at `row` (0-based), `column`: a text box, or the action's box."""
    box = page.locator(f".st-key-threads_migrate_steps__{row}-{column}")
    return box.locator("input").first


def _type_into(page: Any, column: int, text: str, row: int = 0) -> None:
    """Type `text` into cell `column` (0: path, 1: action) of `row` as a person does, 40 ms
    a key: click it, type, Enter (the action's list takes the option typed)."""
    cell = _cell(page, row, COLUMNS[column])
    cell.scroll_into_view_if_needed()
    cell.click()
    page.keyboard.type(text, delay=40)
    with rerun(page):  # the cell is sent on Enter
        page.keyboard.press("Enter")


def test_a_new_step_typed_at_40_ms_a_key_with_tab_keeps_every_key_in_its_own_cell(
    new_page,
) -> None:
    # Streamlit's grid lost the first keys here ("status" became "atus") and piled the next
    # cells' text into that cell; a wrong message followed
    page = new_page("threads")
    _migrate(page)
    counts = page.locator(COUNTS)
    expect(counts).to_have_text(["10", "10", "3", "0", "3"])
    _cell(page, 0, "path").click()
    page.keyboard.type("status", delay=40)
    page.keyboard.press("Tab")
    page.keyboard.type("map", delay=40)
    page.keyboard.press("Enter")  # the action's list takes the option typed
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")  # past value, which a map does not take
    page.keyboard.type("shipped", delay=40)
    page.keyboard.press("Tab")
    page.keyboard.type("confirmed", delay=40)
    page.keyboard.press("Enter")
    expect(counts).to_have_text(["10", "10", "3", "1", "2"])
    expect(page.locator(REFUSALS)).to_have_count(0)
    typed = [_cell(page, 0, column).input_value() for column in COLUMNS]
    assert typed == ["status", "map", "", "shipped", "confirmed"]
    expect(_cell(page, 1, "path")).to_have_value("")  # a new line for the next step


def test_a_half_typed_step_keeps_the_preview_stale_and_a_finished_one_moves_it(new_page) -> None:
    page = new_page("threads")
    _migrate(page)
    counts = page.locator(COUNTS)
    # threads, checkpoints, broken before, fixed, still broken: the demo's candidate
    # (amount at most 500) rejects three latest states, and no step is proposed
    expect(counts).to_have_text(["10", "10", "3", "0", "3"])
    _type_into(page, 0, "amount")
    # the row lacks its action: said plainly, and the last preview stays, marked stale
    expect(page.locator(REFUSALS)).to_have_text(
        "Row 1 (amount), column action [plan_step]\n"
        "Choose the step's action: default, drop, map, rename or coerce."
    )
    expect(page.locator(STALE)).to_contain_text("Stale: the preview below is of the last")
    expect(counts).to_have_text(["10", "10", "3", "0", "3"])
    expect(page.locator(STALE_PREVIEW)).to_have_css("opacity", "0.55")  # drawn as stale
    expect(page.locator(STALE_PREVIEW).locator(COUNTS)).to_have_count(5)
    expect(page.get_by_text("Not a plan yet")).to_have_count(0)
    expect(page.get_by_text("The preview waits for a plan")).to_have_count(0)
    _type_into(page, 1, "map")
    expect(page.locator(REFUSALS)).to_contain_text("Row 1 (amount) [plan_step]\nA map needs")
    expect(page.locator(REFUSALS)).not_to_contain_text("`")  # no Markdown ticks, shown raw
    _type_into(page, 3, "750")
    _type_into(page, 4, "500")  # model-change's 750 becomes 500: the candidate accepts it
    expect(page.locator(REFUSALS)).to_have_count(0)
    expect(page.locator(STALE)).to_have_count(0)
    expect(counts).to_have_text(["10", "10", "3", "1", "2"])
    expect(page.locator(STALE_PREVIEW)).to_have_count(0)
    step_counts = grid_with(page, "fixed").locator("[role='gridcell']")  # what each step did
    expect(step_counts).to_have_text(["amount", "map", "1", "1"])

    _type_into(page, 4, "600")  # still over 500: the step changes the state, fixes nothing
    expect(counts).to_have_text(["10", "10", "3", "0", "3"])
    expect(step_counts).to_have_text(["amount", "map", "1", "0"])

    # status is text: shipped, typed unquoted, is the string the faulty confirm wrote
    for column, text in ((0, "status"), (1, "map"), (3, "shipped"), (4, "confirmed")):
        _type_into(page, column, text, row=1)
    expect(page.locator(REFUSALS)).to_have_count(0)
    expect(counts).to_have_text(["10", "10", "3", "1", "2"])


@pytest.fixture(scope="module")
def writes_server() -> Iterator[Server]:
    """The app with writes enabled (never in the hosted demo), on each session's demo store."""
    with streamlit_server(env={WRITES_ENV: "1"}) as server:
        yield server


def test_apply_writes_only_after_its_dry_run_is_confirmed(browser, writes_server) -> None:
    page = open_app(new_context(browser, viewport=VIEWPORT), f"{writes_server.url}/threads")
    try:
        _migrate(page)
        for column, text in ((0, "amount"), (1, "map"), (3, "750"), (4, "500")):
            _type_into(page, column, text)
        expect(page.locator(COUNTS)).to_have_text(["10", "10", "3", "1", "2"])
        write = page.locator(".st-key-threads_migrate_apply")
        expect(write).to_have_count(0)  # no write on one click: the dry run comes first
        with rerun(page):
            page.locator(".st-key-threads_migrate_dry_run").get_by_role("button").click()
        planned = grid_with(page, "fields written").locator("[role='gridcell']")
        expect(planned.nth(0)).to_have_text("model-change")
        expect(planned.nth(2)).to_have_text('{"amount": 500}')
        expect(write.get_by_role("button")).to_have_text("Write 1 checkpoint")
        with rerun(page):
            write.get_by_role("button").click()
        expect(page.get_by_text("Written: 1 new checkpoint")).to_be_visible()
        written = grid_with(page, "new checkpoint").locator("[role='gridcell']")
        expect(written.nth(0)).to_have_text("model-change")
        resume = page.locator(".st-key-threads_write_next [data-testid='stCode']")
        # model-change's run had ended: no node is due at the fork, its next input runs it
        expect(resume).to_contain_text(
            'graph.invoke(new_input, {"configurable": {"thread_id": "model-change"}})'
        )
        # the fork is model-change's latest now, and valid: nothing left for this step
        expect(page.locator(COUNTS)).to_have_text(["10", "10", "2", "0", "2"])
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        page.context.close()
