"""Issue #32 item 3 in Chromium: the Validate page lists both verdicts' errors in one table,
each row saying who rejects it (LangGraph, your model, both), with one detail pane and a
headline whose count is the table's rows."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
from playwright.sync_api import expect

from core.order.presets import PRESETS
from tests.e2e._browser import editor_frame, rerun, submit_payload

pytestmark = pytest.mark.e2e

ERROR_GRID = "[data-testid='stDataFrame']:has([role='columnheader']:text-is('line:col'))"
DETAILS = "[class*='st-key-'][class*='__details']"  # any error table's detail pane
TYPE_ERROR = (
    "Validation itself raised TypeError: Expected either a dictionary with a 'type' key or an "
    "object with a 'type' attribute. Instead got type <class 'dict'>."
)
VALUE_ERROR = (
    "LangGraph's entry raised ValueError: Message dict must contain 'role' and 'content' keys, "
    "got {'content': 'a message with neither type nor role'} For troubleshooting, visit: "
    "https://docs.langchain.com/oss/python/langchain/errors/MESSAGE_COERCION_FAILURE"
)
# The typeless message: four field errors both reject, and the message each rejects with
# its own exception (Pydantic's TypeError, add_messages' ValueError).
ROWS = [
    ["user_id", "2:14", "Input should be a valid UUID, invalid character: found `n` at 0",
     "both"],
    ["amount", "3:13", "Input should be greater than or equal to 0", "both"],
    ["items[0].sku", "6:14", "String should match pattern '^[A-Z0-9-]+$'", "both"],
    ["items[0].qty", "7:14", "Input should be greater than or equal to 1", "both"],
    ["messages[0]", "12:5", TYPE_ERROR, "your model"],
    ["messages[0]", "12:5", VALUE_ERROR, "LangGraph"],
]  # fmt: skip
HEADLINE = (
    "LangGraph raises before the first node runs: the graph would not run. 6 errors, listed "
    "below: 4 that both LangGraph and your model reject, 1 that only LangGraph rejects, 1 "
    "that only your model rejects."
)


def _verdict(page: Any) -> Any:
    return page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")


def _expect_one_table(page: Any, rows: list[list[str]]) -> None:
    """One error table, with path, line:col, message and rejected by; `rows` in it."""
    expect(page.locator(ERROR_GRID)).to_have_count(1)
    grid = page.locator(ERROR_GRID)
    expect(grid.locator("[role='columnheader']")).to_have_text(
        ["path", "line:col", "message", "rejected by"]
    )
    expect(grid.locator("[role='gridcell']")).to_have_text([cell for row in rows for cell in row])
    expect(page.locator(DETAILS)).to_have_count(1)


def _click_row(page: Any, row: int) -> None:
    """Select row `row` (0-based) by its selection box, as a user does. The rows, all in
    view, share the grid's height under its 35 px header (each as tall as the longest
    message needs)."""
    table = page.locator(".st-key-errors__table")
    canvas = table.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
    rows = page.locator(ERROR_GRID).locator("[role='row']:has([role='gridcell'])").count()
    height = (canvas["height"] - 35) / rows
    with rerun(page):
        table.click(position={"x": 16, "y": 35 + height * row + height / 2})


def test_both_verdicts_errors_are_one_table_with_who_rejects_each_and_one_detail_pane(
    new_page: Any,
) -> None:
    page = new_page()
    submit_payload(page, PRESETS["typeless_message"].value)

    expect(_verdict(page)).to_have_text(HEADLINE)
    _expect_one_table(page, ROWS)
    # The headline's counts are the table's: its rows, and its "rejected by" column.
    said = _verdict(page).inner_text()
    count = re.search(r"(\d+) errors, listed below", said)
    assert count is not None and int(count.group(1)) == len(ROWS)
    tally = Counter(row[3] for row in ROWS)
    assert (
        f"{tally['both']} that both LangGraph and your model reject, {tally['LangGraph']} that "
        f"only LangGraph rejects, {tally['your model']} that only your model rejects." in said
    )
    details = page.locator(DETAILS)
    expect(details.locator("[data-testid='stCaptionContainer']").first).to_have_text(
        "First error (select a row for another) at 2:14"
    )

    _click_row(page, 5)  # the row only LangGraph gives: its details in the one pane
    expect(details.locator("[data-testid='stCaptionContainer']").first).to_have_text(
        "Selected error at 12:5"
    )
    expect(details.locator("[data-testid='stText']")).to_contain_text(
        "type\n  langgraph_exception\n"
    )
    expect(editor_frame(page).locator(".cm-editor")).to_have_attribute("data-caret", "12:5")


def test_a_row_selected_by_keyboard_is_the_row_a_share_link_reopens(new_page: Any) -> None:
    page = new_page()
    submit_payload(page, PRESETS["typeless_message"].value)
    _expect_one_table(page, ROWS)
    # By keyboard: a cell of the first row (a click there selects it), down four rows,
    # Shift+Space selects that row (your model's own TypeError, beside LangGraph's
    # ValueError).
    page.wait_for_timeout(1_000)  # the grid is laid out again after the run that drew it
    with rerun(page):
        page.locator(".st-key-errors__table .dvn-scroller").click(position={"x": 120, "y": 88})
    expect(
        page.locator(ERROR_GRID).locator("[role='gridcell'][aria-selected='true']")
    ).to_have_text("user_id")
    for _ in range(4):
        page.keyboard.press("ArrowDown")
    with rerun(page):
        page.keyboard.press("Shift+Space")
    expect(page.locator(DETAILS).locator("[data-testid='stText']")).to_contain_text(
        "type\n  validator_exception\n"
    )
    with rerun(page):
        page.locator(".st-key-share").get_by_role("button").click()
    link = page.locator("[data-testid='stCode']").filter(has_text="?s=v1.")
    expect(link).to_have_count(1)

    restored = new_page(url=link.inner_text().strip())
    expect(_verdict(restored)).to_have_text(HEADLINE)
    _expect_one_table(restored, ROWS)
    details = restored.locator(DETAILS)
    expect(details.locator("[data-testid='stCaptionContainer']").first).to_have_text(
        "Selected error at 12:5"
    )
    expect(details.locator("[data-testid='stText']")).to_contain_text(
        "type\n  validator_exception\n"
    )
