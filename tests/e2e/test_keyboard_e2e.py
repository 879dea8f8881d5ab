"""Issue #32 item 6 in Chromium: in a selectable error table, Enter or Space on a row selects
it and shows its details beside the table, no cell overlay opens, and the keyboard stays in
the table (the editor's caret moves to the error without taking the focus)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from core.order.presets import PRESETS
from core.validate.report import validate_text
from tests.e2e._browser import editor_frame, editor_value, rerun, submit_payload
from ui.errors.focus import details_text

pytestmark = pytest.mark.e2e

TEXT = PRESETS["typeless_message"].value  # six errors; the first four your model's, in order
ERRORS = validate_text(TEXT).errors
TABLE = ".st-key-errors__table"
ERROR_GRID = f"{TABLE} [data-testid='stDataFrame']"
DETAILS = ".st-key-errors__details"
# Glide data grid's cell overlay (what Space or Enter on a cell opened): drawn in the page's
# portal, outside the table.
OVERLAY = "[data-testid='portal'] .gdg-clip-region"
# Where the page's keyboard focus is: inside the error table, in the editor's iframe, or
# elsewhere (the tag of the focused element).
FOCUS = """() => {
  const active = document.activeElement;
  if (active === null) return "nothing";
  if (active.closest(".st-key-errors__table")) return "error table";
  if (active.closest(".st-key-payload_editor")) return "editor";
  return active.tagName;
}"""


def _selected_rows(page: Any) -> list[list[str]]:
    """The cells of each selected row of the error table (its accessible rows)."""
    rows = page.locator(ERROR_GRID).locator("tr[role='row'][aria-selected='true']")
    return [row.locator("[role='gridcell']").all_inner_texts() for row in rows.all()]


def _expect_shown(page: Any, row: int) -> None:
    """Row `row` (one of your model's errors) selected, its details in the pane beside."""
    error = ERRORS[row]
    details = page.locator(DETAILS)
    expect(details.locator("[data-testid='stCaptionContainer']").first).to_have_text(
        f"Selected error at {error.line}:{error.col}"
    )
    expect(details.locator("[data-testid='stText']")).to_have_text(details_text(error))
    assert _selected_rows(page) == [[error.path, f"{error.line}:{error.col}", error.msg, "both"]]
    expect(page.locator(OVERLAY)).to_have_count(0)


def test_enter_or_space_on_a_row_selects_it_and_the_keyboard_stays_in_the_table(
    new_page: Any,
) -> None:
    page = new_page()
    submit_payload(page, TEXT)
    editor = editor_frame(page).locator(".cm-editor")
    # A cell of the first row, as a click or Tab would reach it; nothing selected yet.
    page.locator(f"{TABLE} .dvn-scroller").click(position={"x": 120, "y": 88})
    focused = page.locator(ERROR_GRID).locator("[role='gridcell'][aria-selected='true']")
    expect(focused).to_have_text("user_id")
    assert _selected_rows(page) == []

    page.keyboard.press("ArrowDown")  # amount
    with rerun(page):
        page.keyboard.press("Enter")
    _expect_shown(page, 1)
    expect(editor).to_have_attribute("data-caret", "3:13")  # the caret went to the error
    assert page.evaluate(FOCUS) == "error table"

    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # items[0].qty
    with rerun(page):
        page.keyboard.press("Space")
    _expect_shown(page, 3)
    expect(editor).to_have_attribute("data-caret", "7:14")
    expect(editor).not_to_contain_class("cm-focused")
    assert page.evaluate(FOCUS) == "error table"

    # Enter again reaches the table, not the editor: the row stays selected, no newline.
    with rerun(page):  # no run is due: waits for a quiet page instead
        page.keyboard.press("Enter")
    _expect_shown(page, 3)
    assert page.evaluate(FOCUS) == "error table"
    assert editor_value(page) == TEXT
