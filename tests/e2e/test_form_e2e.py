"""The Validate page's form in Chromium: a row typed at a fast typist's pace (40 ms a key, Tab
or Enter between cells) keeps every key in its own cell until it is applied; errors sit under
their fields; a refused cell stays as typed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from tests.e2e._browser import editor_frame, editor_value, rerun, submit_payload

pytestmark = pytest.mark.e2e

APPLY = "Apply to payload"  # the items table's button: its edits reach the JSON text by it
COLUMNS = 3  # sku, qty, unit_price: the inputs of one row


def _open_form(new_page: Any) -> Any:
    page = new_page()
    with rerun(page):
        page.locator(".st-key-editor_view").get_by_role("radio", name="Form").click()
    return page


def _payload(page: Any) -> dict[str, Any]:
    return json.loads(editor_value(page))


def _cells(page: Any) -> Any:
    """The items grid's cells, row by row (its last row: the new item's line)."""
    grid = page.locator(".st-key-form_items")
    grid.scroll_into_view_if_needed()
    return grid.locator("input[type='text']")


def _texts(page: Any) -> list[str]:
    return [cell.input_value() for cell in _cells(page).all()]


def _apply(page: Any) -> None:
    """Press the items table's Apply to payload button, as its note says, and wait for the run."""
    with rerun(page):
        page.locator(".st-key-form-apply-items").get_by_role("button", name=APPLY).click()


def _type_at_a_typists_pace(page: Any, cells: tuple[str, ...], between: str) -> None:
    """Type `cells` at 40 ms a key, `between` after each, the next cell's first key at once
    (no wait for anything on the page), as a fast typist does."""
    for text in cells:
        page.keyboard.type(text, delay=40)
        page.keyboard.press(between)


@pytest.mark.parametrize("delay", [40, 0])  # a fast typist, then a script: no wait at all
def test_a_new_item_typed_at_40_ms_a_key_with_tab_keeps_every_key_in_its_own_cell(
    new_page: Any, delay: int
) -> None:
    # Issue 41, item 8: Streamlit's grid lost the first key after Tab (qty and unit_price
    # kept their old values, its cell editor open, Escape did not close it), and at
    # scripted speed three cells' text piled into one ("ABC-912.5").
    page = _open_form(new_page)
    runs = page.evaluate("window.__stRuns")
    _cells(page).nth(COLUMNS).click()  # the new item's line, its sku
    for text in ("ABC-123", "3", "9.99"):
        page.keyboard.type(text, delay=delay)
        page.keyboard.press("Tab")
    assert _texts(page) == ["SKU-01", "2", "49.5", "ABC-123", "3", "9.99"]
    # No run while typing: the page is not redrawn under the keys.
    assert (page.evaluate("window.__stRuns"), _payload(page)) == (runs, SEED_PAYLOAD)
    expect(page.locator(".st-key-form-apply-items").get_by_role("button")).to_be_focused()
    with rerun(page):
        page.keyboard.press("Enter")  # Tab after the last cell reached Apply to payload

    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-123", "qty": 3, "unit_price": 9.99}]
    expect(editor_frame(page).locator(".cm-line")).to_have_text(
        to_text({**SEED_PAYLOAD, "items": items}).split("\n")
    )
    expect(page.get_by_text("Field required")).to_have_count(0)
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph runs this payload. Your model alone accepts it too."
    )
    assert _texts(page) == ["SKU-01", "2", "49.5", "ABC-123", "3", "9.99", "", "", ""]


def test_enter_moves_to_the_cell_under_it_at_40_ms_a_key(new_page: Any) -> None:
    page = _open_form(new_page)
    _cells(page).first.click()
    page.keyboard.press("Control+a")
    _type_at_a_typists_pace(page, ("B-2", "C-3"), "Enter")  # row 0's sku, then row 1's
    page.keyboard.press("Shift+Tab")  # back to row 0's unit_price, past row 1's sku
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Control+a")
    page.keyboard.type("7", delay=40)
    assert _texts(page) == ["B-2", "7", "49.5", "C-3", "", ""]
    _apply(page)
    items = [{**SEED_PAYLOAD["items"][0], "sku": "B-2", "qty": 7}, {"sku": "C-3"}]
    assert _payload(page) == {**SEED_PAYLOAD, "items": items}
    expect(page.locator(".st-key-form-errors-items")).to_have_text(
        "✗ items[1].qty: Field required (missing)\n✗ items[1].unit_price: Field required (missing)"
    )


def test_apply_clicked_straight_from_a_cell_being_typed_writes_that_cell_too(
    new_page: Any,
) -> None:
    page = _open_form(new_page)
    _cells(page).nth(COLUMNS).click()
    _type_at_a_typists_pace(page, ("ABC-123",), "Tab")
    page.keyboard.type("3", delay=40)  # still in the qty cell when Apply is clicked
    _apply(page)
    items = [*SEED_PAYLOAD["items"], {"sku": "ABC-123", "qty": 3}]
    assert _payload(page) == {**SEED_PAYLOAD, "items": items}


def test_a_row_whose_cells_are_all_emptied_is_dropped(new_page: Any) -> None:
    page = _open_form(new_page)
    for cell in _cells(page).all()[:COLUMNS]:
        cell.fill("")
    _apply(page)
    assert _payload(page) == {**SEED_PAYLOAD, "items": []}
    assert _texts(page) == ["", "", ""]  # the new item's line alone


def test_a_row_not_yet_applied_stays_in_the_grid_while_another_field_is_edited(
    new_page: Any,
) -> None:
    page = _open_form(new_page)
    _cells(page).nth(COLUMNS).click()
    _type_at_a_typists_pace(page, ("ABC-123", "3"), "Tab")
    amount = page.locator(".st-key-form_amount input")
    amount.fill("5")
    with rerun(page):
        amount.press("Enter")
    assert _texts(page) == ["SKU-01", "2", "49.5", "ABC-123", "3", ""]
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


def test_a_cell_json_cannot_write_stays_as_typed_and_is_named(new_page: Any) -> None:
    page = _open_form(new_page)
    _cells(page).nth(2).click()  # row 0's unit_price
    page.keyboard.press("Control+a")
    page.keyboard.type("1e999", delay=40)
    _apply(page)

    expect(page.get_by_text("These cells are not in the JSON text")).to_be_visible()
    expect(page.locator("[data-testid='stCode']").filter(has_text="1e999")).to_have_text(
        "items[0].unit_price = 1e999  (beyond what a float holds)"
    )
    assert _texts(page) == ["SKU-01", "2", "1e999", "", "", ""]
    assert _payload(page)["items"] == SEED_PAYLOAD["items"]


def test_every_form_input_is_named_in_plain_words_not_markdown_source(new_page: Any) -> None:
    """Streamlit puts a widget's label in its aria-label as given: a label escaped for
    Markdown was read aloud as `user\\_id` (issue 41, item 10)."""
    page = _open_form(new_page)
    page.get_by_role("textbox", name="user_id", exact=True).wait_for()
    names = page.locator(
        "[class*='st-key-form'] input[aria-label], [class*='st-key-form'] textarea[aria-label]"
    ).evaluate_all("els => els.map(e => e.getAttribute('aria-label'))")
    assert names == [
        "user_id",
        "amount",
        "status (optional)",
        *(f"items[{row}].{column}" for row in (0, 1) for column in ("sku", "qty", "unit_price")),
        "logs (optional)",
        "messages (optional)",
    ]
    assert page.get_by_label("items[1].unit_price", exact=True).input_value() == ""
    # the visible labels still read as the field's words (escaped for Markdown, shown plain)
    shown = page.get_by_text("user_id", exact=True)
    assert [text.is_visible() for text in shown.all()] == [True, False]  # caption; hidden label
