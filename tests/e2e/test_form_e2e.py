"""The Validate page's form in Chromium: a row typed by keyboard keeps every cell; errors sit
under their fields; a refused cell stays as typed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from tests.e2e._browser import editor_frame, editor_value, rerun, submit_payload

pytestmark = pytest.mark.e2e

ROW_HEIGHT = 35  # the grid's header, rows and add-row line are this tall at the default size


def _open_form(new_page: Any) -> Any:
    page = new_page()
    with rerun(page):
        page.locator(".st-key-editor_view").get_by_role("radio", name="Form").click()
    return page


def _payload(page: Any) -> dict[str, Any]:
    return json.loads(editor_value(page))


def _grid(page: Any) -> tuple[Any, dict[str, float]]:
    """The items editor and its canvas's box (row r's middle is top + (r + 1.5) * ROW_HEIGHT)."""
    grid = page.locator(".st-key-form_items")
    grid.scroll_into_view_if_needed()
    return grid, grid.locator("canvas").first.bounding_box()


def _cells(grid: Any) -> Any:
    return grid.locator("[role='gridcell']")


def test_a_new_items_row_typed_by_keyboard_keeps_all_three_cells(new_page) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    # The add-row line under the one seed item, in the sku column; then type as a person
    # does: each Tab saves a cell, and the run it starts must not take the focus away.
    with rerun(page):
        page.mouse.click(box["x"] + 100, box["y"] + 2.5 * ROW_HEIGHT)
    for text, key in (("ABC-9", "Tab"), ("1", "Tab"), ("2.5", "Enter")):
        page.keyboard.type(text, delay=30)
        with rerun(page):
            page.keyboard.press(key)

    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-9", "qty": 1, "unit_price": 2.5}]
    expect(editor_frame(page).locator(".cm-line")).to_have_text(
        to_text({**SEED_PAYLOAD, "items": items}).split("\n")
    )
    expect(page.get_by_text("Field required")).to_have_count(0)
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph runs this payload. Your model alone accepts it too."
    )
    table = grid.get_by_role("region", name="items: a table of LineItem, one row each")
    expect(table).to_have_count(1)  # the table's accessible name (it had none)


def test_a_bad_payload_shows_each_fields_error_right_under_it(new_page) -> None:
    page = _open_form(new_page)
    submit_payload(page, to_text({**SEED_PAYLOAD, "amount": -1, "totl": 1}))

    amount = page.locator(".st-key-form_amount")
    errors = page.locator(".st-key-form-errors-amount")
    expect(errors).to_have_text("✗ Input should be greater than or equal to 0 (greater_than_equal)")
    below, field = errors.bounding_box(), amount.bounding_box()
    # Right under it: at most the page's gap between two elements (no widget fits in 30 px)
    assert 0 <= below["y"] - (field["y"] + field["height"]) < 30
    expect(page.locator(".st-key-form_totl input")).to_have_value("1")  # an unknown key
    expect(page.locator(".st-key-form-errors-totl")).to_have_text(
        "✗ Extra inputs are not permitted (extra_forbidden)"
    )


def test_a_cell_json_cannot_write_stays_as_typed_and_is_named(new_page) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    page.mouse.click(box["x"] + box["width"] - 40, box["y"] + 1.5 * ROW_HEIGHT)  # unit_price
    # A person's pause before typing: the grid can drop a key pressed within ~150 ms of the
    # click that opens the cell (Streamlit's own data editor does too; noted in issue 22).
    page.wait_for_timeout(400)
    page.keyboard.type("1e999", delay=30)
    with rerun(page):
        page.keyboard.press("Enter")

    expect(page.get_by_text("These cells are not in the JSON text")).to_be_visible()
    expect(page.locator("[data-testid='stCode']").filter(has_text="1e999")).to_have_text(
        "items[0].unit_price = 1e999  (beyond what a float holds)"
    )
    expect(_cells(grid).filter(has_text="1e999")).to_have_count(1)
    assert _payload(page)["items"] == SEED_PAYLOAD["items"]
