"""Validate page in Chromium: error rows with line:col and who rejects them, and share links
across browser contexts."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.presets import PRESETS, SEED_TEXT
from tests.e2e._browser import editor_frame, rerun, submit_payload
from ui.errors.view import MESSAGE_ROW_HEIGHT

pytestmark = pytest.mark.e2e

# The error table is a canvas grid; its accessible grid DOM carries the cell text. Columns
# are virtualised horizontally: at the fixture's viewport the first four exist, message
# included (the table's default order puts it third).
ERROR_GRID = "[data-testid='stDataFrame']:has([role='columnheader']:text-is('line:col'))"
NEGATIVE_AMOUNT_ROW = [
    "amount", "3:13", "Input should be greater than or equal to 0", "greater_than_equal", "both",
]  # fmt: skip


def _expect_error_rows(page: Any, rows: list[list[str]], *, detailed: int = 0) -> None:
    """The rows of the page's one error table (both verdicts'): path, line:col, message and
    who rejects it in the table; the type of row `detailed` (the selected row, the first
    when none is) in the one detail pane beside it."""
    expect(page.locator(ERROR_GRID)).to_have_count(1)
    grid = page.locator(ERROR_GRID)
    expect(grid.locator("[role='columnheader']")).to_have_text(
        ["path", "line:col", "message", "rejected by"]
    )
    cells = grid.locator("[role='gridcell']")
    expect(cells).to_have_text([cell for row in rows for cell in (*row[:3], row[4])])
    details = page.locator("[class*='st-key-'][class*='__details']")
    expect(details).to_have_count(1)
    expect(details.locator("[data-testid='stText']")).to_contain_text(
        f"type\n  {rows[detailed][3]}\n"
    )


RUNS = "LangGraph runs this payload. Your model alone accepts it too."
RAISES = (
    "LangGraph raises before the first node runs: the graph would not run. "
    "1 error, listed below, that both LangGraph and your model reject."
)


def _expect_editor(page: Any, text: str) -> None:
    """The code editor shows exactly `text`, one line per `.cm-line`."""
    lines = editor_frame(page).locator(".cm-line")
    expect(lines).to_have_text(text.split("\n"))


def _expect_verdict(page: Any, text: str) -> None:
    alert = page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")
    expect(alert).to_have_text(text)


def test_negative_amount_shows_its_error_row_and_caret_at_line_3_col_13(new_page) -> None:
    page = new_page()
    _expect_editor(page, SEED_TEXT)
    _expect_verdict(page, RUNS)

    submit_payload(page, PRESETS["negative_amount"].value)

    _expect_verdict(page, RAISES)
    _expect_error_rows(page, [NEGATIVE_AMOUNT_ROW])
    annotated = page.locator("[data-testid='stCode']").filter(has_text="│")
    expect(annotated).to_contain_text("^ greater_than_equal at amount")
    assert annotated.inner_text().splitlines()[1:4] == [
        '   2 │   "user_id": "550e8400-e29b-41d4-a716-446655440000",',
        '▶  3 │   "amount": -1,',
        "     │             ^ greater_than_equal at amount: "
        "Input should be greater than or equal to 0",
    ]


def test_share_link_restores_the_payload_in_a_new_browser_context(new_page, app_server) -> None:
    # A payload no other test uses, so the restored text can only come from the link.
    text = to_text({**SEED_PAYLOAD, "amount": -7.25, "coupon": "SHARE-E2E"})
    page = new_page()
    submit_payload(page, text)
    table = page.locator(".st-key-errors__table")
    expect(table.locator("[role='gridcell']", has_text="17:3")).to_have_count(1)
    with rerun(page):  # the second row's selection box: the coupon's error is what is shown
        table.click(position={"x": 16, "y": 38 + MESSAGE_ROW_HEIGHT + MESSAGE_ROW_HEIGHT // 2})
    expect(page.locator(".st-key-errors__details")).to_contain_text("Selected error at 17:3")
    with rerun(page):
        page.locator(".st-key-share").get_by_role("button").click()
    link = page.locator("[data-testid='stCode']").filter(has_text="?s=v1.")
    expect(link).to_have_count(1)
    url = link.inner_text().strip()
    assert url.startswith(f"{app_server.url}?s=v1.")

    restored = new_page(url=url)
    _expect_editor(restored, text)
    _expect_verdict(
        restored,
        "LangGraph raises before the first node runs: the graph would not run. "
        "2 errors, listed below: 1 that both LangGraph and your model reject, 1 that only your "
        "model rejects.",
    )
    _expect_error_rows(
        restored,
        [
            NEGATIVE_AMOUNT_ROW,
            # LangGraph drops the unknown key: only your model rejects it
            ["coupon", "17:3", "Extra inputs are not permitted", "extra_forbidden",
             "your model"],
        ],
        detailed=1,  # the row the sender had selected
    )  # fmt: skip
    # The row the sender selected: its details beside the table, the caret at its line:col.
    expect(restored.locator(".st-key-errors__details")).to_contain_text("Selected error at 17:3")
    expect(editor_frame(restored).locator(".cm-editor")).to_have_attribute("data-caret", "17:3")

    # A third context without the link is a separate session: it sees the seed order.
    fresh = new_page()
    _expect_editor(fresh, SEED_TEXT)


def test_schema_options_keep_their_values_after_a_preset_reruns_the_page(new_page) -> None:
    # The options popover has never been opened when the preset reruns the whole page: its
    # widgets first mount afterwards and must show the model's values, not zeros.
    page = new_page()
    page.locator(".st-key-preset input").click()
    with rerun(page):
        page.get_by_role("option").filter(has_text="Bad UUID").click()
    page.get_by_role("button", name="Schema options").click()

    body = page.locator("[data-testid='stPopoverBody']")
    numbers = body.get_by_role("spinbutton")
    expect(numbers).to_have_count(3)
    assert [number.input_value() for number in numbers.all()] == ["20", "0", "1000000"]
    with rerun(page):  # a bound shows every digit the model uses ("%0.2f" showed 0.01)
        numbers.nth(1).fill("0.009")
        numbers.nth(1).press("Enter")
    expect(numbers.nth(1)).to_have_value("0.009")
    toggles = body.locator("input[type='checkbox']")
    assert [toggle.is_checked() for toggle in toggles.all()] == [False, True, False]
    _expect_verdict(page, RAISES)


def test_a_typeless_message_shows_langgraphs_verdict_and_every_error(new_page) -> None:
    # add_messages raises ValueError for the message; Pydantic alone, TypeError. Each is
    # pinned to the message, and the four field errors around it are all listed, once each.
    page = new_page()
    submit_payload(page, PRESETS["typeless_message"].value)
    _expect_verdict(
        page,
        "LangGraph raises before the first node runs: the graph would not run. 6 errors, "
        "listed below: 4 that both LangGraph and your model reject, 1 that only LangGraph "
        "rejects, 1 that only your model rejects.",
    )
    raised = page.locator("[data-testid='stCode']").filter(has_text="LangGraph raised")
    expect(raised).to_have_text(
        "LangGraph raised ValueError: Message dict must contain 'role' and 'content' keys, got "
        "{'content': 'a message with neither type nor role'}"
    )
    _expect_error_rows(
        page,
        [
            ["user_id", "2:14", "Input should be a valid UUID, invalid character: found `n` "
             "at 0", "uuid_parsing", "both"],
            NEGATIVE_AMOUNT_ROW,
            ["items[0].sku", "6:14", "String should match pattern '^[A-Z0-9-]+$'",
             "string_pattern_mismatch", "both"],
            ["items[0].qty", "7:14", "Input should be greater than or equal to 1",
             "greater_than_equal", "both"],
            ["messages[0]", "12:5", "Validation itself raised TypeError: Expected either a "
             "dictionary with a 'type' key or an object with a 'type' attribute. Instead got "
             "type <class 'dict'>.", "validator_exception", "your model"],
            ["messages[0]", "12:5", "LangGraph's entry raised ValueError: Message dict must "
             "contain 'role' and 'content' keys, got {'content': 'a message with neither type "
             "nor role'} For troubleshooting, visit: https://docs.langchain.com/oss/python/"
             "langchain/errors/MESSAGE_COERCION_FAILURE", "langgraph_exception", "LangGraph"],
        ],
    )  # fmt: skip
