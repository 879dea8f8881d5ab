"""Issue #32 item 6 in Chromium: in a selectable error table, Enter or Space on a row selects
it and shows its details beside the table, no cell overlay opens, and the keyboard stays in
the table (the editor's caret moves to the error without taking the focus)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order.presets import PRESETS
from core.share import encode_share
from core.tools import SCENARIOS
from core.validate.field_errors import FieldError
from core.validate.report import validate_text
from tests.e2e._browser import editor_frame, editor_value, rerun, submit_payload
from ui.errors.focus import details_text

pytestmark = pytest.mark.e2e

# Glide data grid's cell overlay (what Space or Enter on a cell opened): drawn in the page's
# portal, outside the table.
OVERLAY = "[data-testid='portal'] .gdg-clip-region"
# Where the page's keyboard focus is: in the table `table`, in the editor's iframe, or
# elsewhere (the tag of the focused element).
FOCUS = """([table, editor]) => {
  const active = document.activeElement;
  if (active === null) return "nothing";
  if (active.closest(`.st-key-${table}__table`)) return "error table";
  if (active.closest(`.st-key-${editor}_editor`)) return "editor";
  return active.tagName;
}"""
TOOL_SCENARIO = SCENARIOS["loose_strict"]


def _focus_stays(page: Any, table: str, editor: str) -> None:
    """The keyboard is in the table `table`: checked until the page settles (a loaded machine
    may still be committing the run's last message), then once more, as it must stay."""
    page.wait_for_function(f"(args) => ({FOCUS})(args) === 'error table'", arg=[table, editor])
    assert page.evaluate(FOCUS, [table, editor]) == "error table"


TOOL_PRESET = "unknown mode, zero iterations"  # two errors: the mode, the iterations


def _selected_rows(page: Any, table: str) -> list[list[str]]:
    """The cells of each selected row of the error table `table` (its accessible rows)."""
    grid = page.locator(f".st-key-{table}__table [data-testid='stDataFrame']")
    rows = grid.locator("tr[role='row'][aria-selected='true']")
    return [row.locator("[role='gridcell']").all_inner_texts() for row in rows.all()]


def _expect_shown(page: Any, table: str, error: FieldError, *more: str) -> None:
    """`error`'s row selected in `table` (its cells, then `more`: who rejects it), its
    details in the pane beside, and no cell overlay."""
    details = page.locator(f".st-key-{table}__details")
    expect(details.locator("[data-testid='stCaptionContainer']").first).to_have_text(
        f"Selected error at {error.line}:{error.col}"
    )
    expect(details.locator("[data-testid='stText']")).to_have_text(details_text(error))
    where = f"{error.line}:{error.col}"
    assert _selected_rows(page, table) == [[error.path, where, error.msg, *more]]
    expect(page.locator(OVERLAY)).to_have_count(0)


def _focus_first_cell(page: Any, table: str, path: str) -> None:
    """Put the keyboard in the first row's path cell, as a click does; nothing selected."""
    focused = page.locator(f".st-key-{table}__table [role='gridcell'][aria-selected='true']")
    # The table may still be laid out again when the click comes (the editor's column narrows
    # as errors appear, and the grid is resized after the run): click again until it lands.
    for attempt in range(3):
        page.locator(f".st-key-{table}__table .dvn-scroller").click(position={"x": 40, "y": 88})
        try:
            expect(focused).to_have_text(path, timeout=5_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    assert _selected_rows(page, table) == []


def test_enter_or_space_on_a_row_selects_it_and_the_keyboard_stays_in_the_table(
    new_page: Any,
) -> None:
    text = PRESETS["typeless_message"].value  # six errors; the first four both reject
    errors = validate_text(text).errors
    page = new_page()
    submit_payload(page, text)
    editor = editor_frame(page).locator(".cm-editor")
    _focus_first_cell(page, "errors", "user_id")

    page.keyboard.press("ArrowDown")  # amount
    with rerun(page):
        page.keyboard.press("Enter")
    _expect_shown(page, "errors", errors[1], "both")
    expect(editor).to_have_attribute("data-caret", "3:13")  # the caret went to the error
    _focus_stays(page, "errors", "payload")

    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # items[0].qty
    with rerun(page):
        page.keyboard.press("Space")
    _expect_shown(page, "errors", errors[3], "both")
    expect(editor).to_have_attribute("data-caret", "7:14")
    expect(editor).not_to_contain_class("cm-focused")
    _focus_stays(page, "errors", "payload")

    # Enter again reaches the table, not the editor: the row stays selected, no newline.
    with rerun(page):  # no run is due: waits for a quiet page instead
        page.keyboard.press("Enter")
    _expect_shown(page, "errors", errors[3], "both")
    _focus_stays(page, "errors", "payload")
    assert editor_value(page) == text


def test_the_tool_labs_error_table_takes_enter_and_space_the_same_way(new_page: Any) -> None:
    text = to_text(TOOL_SCENARIO.presets[TOOL_PRESET])
    errors = validate_text(text, model=TOOL_SCENARIO.model).errors
    state = {"page": "tools", "scenario": "loose_strict", "preset": TOOL_PRESET}
    page = new_page(f"tools?s={encode_share(state)}")
    editor = editor_frame(page, "tool_payload").locator(".cm-editor")
    _focus_first_cell(page, "tool_errors", errors[0].path)

    page.keyboard.press("ArrowDown")
    with rerun(page):
        page.keyboard.press("Space")
    _expect_shown(page, "tool_errors", errors[1])
    page.keyboard.press("ArrowUp")
    with rerun(page):
        page.keyboard.press("Enter")
    _expect_shown(page, "tool_errors", errors[0])
    expect(editor).to_have_attribute("data-caret", f"{errors[0].line}:{errors[0].col}")
    expect(editor).not_to_contain_class("cm-focused")
    _focus_stays(page, "tool_errors", "tool_payload")
    with rerun(page):
        page.keyboard.press("Enter")
    assert editor_value(page, "tool_payload") == text
