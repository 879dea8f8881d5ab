"""The Validate page's form in Chromium: a row typed briskly by keyboard keeps every cell until
it is applied; errors sit under their fields; a refused cell stays as typed."""

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
APPLY = "Apply to payload"  # the items table's button: its edits reach the JSON text by it


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


def _apply(page: Any) -> None:
    """Press the items table's Apply to payload button, as its note says, and wait for the run."""
    with rerun(page):
        page.locator(".st-key-form-apply-items").get_by_role("button", name=APPLY).click()


def _click_cell(page: Any, x: float, y: float, *, add_row: bool = False) -> None:
    """Click a cell, then wait for what a person sees before typing: the cell selected (the
    grid moves the focus to it, up to a few hundred ms after the click on a loaded machine)
    or, on the add-row line, the new row's cell editor open. The grid drops a key pressed
    before that (on main as well; noted in issue 22), whatever the script does."""
    page.mouse.click(x, y)
    at = "textarea.gdg-input" if add_row else "[role='gridcell'][aria-selected='true']"
    page.wait_for_function(f"document.activeElement?.matches({at!r}) === true")


def _type_briskly(page: Any, *cells: str, last: str = "Enter") -> None:
    """Type `cells` into the grid one after the other, as a brisk typist does: 0.1 s per key,
    Tab between cells and `last` after the last one, never waiting for a script run."""
    for n, text in enumerate(cells):
        page.keyboard.type(text, delay=100)
        page.wait_for_timeout(100)
        page.keyboard.press("Tab" if n < len(cells) - 1 else last)
        page.wait_for_timeout(100)


def test_a_new_item_typed_at_a_tenth_of_a_second_per_key_lands_whole_in_the_payload(
    new_page,
) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    runs = page.evaluate("window.__stRuns")
    # The add-row line under the one seed item, in the sku column. A run started between
    # two keys used to redraw the grid under the next ones: unit_price ".99", cells dropped,
    # row 0's sku overwritten (issue 32, item 2). Now no run starts until Apply.
    _click_cell(page, box["x"] + 100, box["y"] + 2.5 * ROW_HEIGHT, add_row=True)
    _type_briskly(page, "ABC-123", "3", "9.99")
    expect(_cells(grid)).to_have_text(["0", "SKU-01", "2", "49.5", "", "ABC-123", "3", "9.99"])
    assert (page.evaluate("window.__stRuns"), _payload(page)) == (runs, SEED_PAYLOAD)
    _apply(page)

    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-123", "qty": 3, "unit_price": 9.99}]
    expect(editor_frame(page).locator(".cm-line")).to_have_text(
        to_text({**SEED_PAYLOAD, "items": items}).split("\n")
    )
    expect(page.get_by_text("Field required")).to_have_count(0)
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph runs this payload. Your model alone accepts it too."
    )
    table = grid.get_by_role("region", name="items: a table of LineItem, one row each")
    expect(table).to_have_count(1)  # the table's accessible name (it had none)


def test_the_apply_button_is_reached_by_keyboard_from_the_grid(new_page) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    _click_cell(page, box["x"] + 100, box["y"] + 1.5 * ROW_HEIGHT)  # row 0's sku
    _type_briskly(page, "B-2", last="Enter")
    page.keyboard.press("Escape")  # out of the cell: Tab leaves the grid for the button
    page.keyboard.press("Tab")
    apply = page.locator(".st-key-form-apply-items").get_by_role("button", name=APPLY)
    expect(apply).to_be_focused()
    with rerun(page):
        page.keyboard.press("Enter")
    items = [{**SEED_PAYLOAD["items"][0], "sku": "B-2"}]
    assert _payload(page) == {**SEED_PAYLOAD, "items": items}


def test_apply_clicked_straight_from_an_open_cell_writes_that_cell_too(new_page) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    _click_cell(page, box["x"] + 100, box["y"] + 2.5 * ROW_HEIGHT, add_row=True)
    _type_briskly(page, "ABC-123", last="Tab")
    page.keyboard.type("3", delay=100)  # the qty cell is still open when Apply is clicked
    _apply(page)
    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-123", "qty": 3}]
    assert _payload(page) == {**SEED_PAYLOAD, "items": items}


def test_a_row_not_yet_applied_stays_in_the_grid_while_another_field_is_edited(new_page) -> None:
    page = _open_form(new_page)
    grid, box = _grid(page)
    _click_cell(page, box["x"] + 100, box["y"] + 2.5 * ROW_HEIGHT, add_row=True)
    _type_briskly(page, "ABC-123", "3")
    amount = page.locator(".st-key-form_amount input")
    amount.fill("5")
    with rerun(page):
        amount.press("Enter")
    expect(_cells(grid)).to_have_text(["0", "SKU-01", "2", "49.5", "", "ABC-123", "3", ""])
    assert _payload(page) == {**SEED_PAYLOAD, "amount": 5}
    _apply(page)
    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-123", "qty": 3}]
    assert _payload(page) == {**SEED_PAYLOAD, "amount": 5, "items": items}
    expect(page.locator(".st-key-form-errors-items")).to_have_text(
        "✗ items[1].unit_price: Field required (missing)"
    )


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
    _click_cell(page, box["x"] + box["width"] - 40, box["y"] + 1.5 * ROW_HEIGHT)  # unit_price
    page.keyboard.type("1e999", delay=30)
    page.keyboard.press("Enter")
    _apply(page)

    expect(page.get_by_text("These cells are not in the JSON text")).to_be_visible()
    expect(page.locator("[data-testid='stCode']").filter(has_text="1e999")).to_have_text(
        "items[0].unit_price = 1e999  (beyond what a float holds)"
    )
    expect(_cells(grid).filter(has_text="1e999")).to_have_count(1)
    assert _payload(page)["items"] == SEED_PAYLOAD["items"]
