"""Every page renders in Chromium; the Trace page runs the seed order and steps to `confirm`."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

import ui.pages
from core.order.presets import PRESETS
from core.share import encode_share
from tests.e2e._browser import editor_frame, editor_value, rerun, submit_payload

pytestmark = pytest.mark.e2e

# (url path, page title): each page's heading is its name in the navigation. An unknown path
# falls back to the default page (Validate), so the title proves which page rendered.
PAGES = [(page.url_path, page.title) for page in ui.pages.PAGES]
# The reference trace (docs/architecture.md, "The reference trace"), as the trace table's
# first columns show it: what happened (step, node, check, flag, blame, error) first, the
# state's summary after.
SEED_TRACE = [
    ["0", "__start__", "✓", "", "", ""],
    ["1", "validate_order", "✓", "", "", ""],
    ["2", "confirm", "✓", "", "", ""],
]


def _grid(page: Any, column: str) -> Any:
    return page.locator(
        f"[data-testid='stDataFrame']:has([role='columnheader']:text-is('{column}'))"
    )


def _rows(grid: Any, count: int) -> list[list[str]]:
    """Rendered cells row by row (columns past the viewport are virtualised away)."""
    expect(grid.locator("[role='gridcell']")).not_to_have_count(0)
    width = grid.locator("[role='columnheader']").count()
    cells = grid.locator("[role='gridcell']").all_inner_texts()
    assert len(cells) == width * count, (width, cells)
    return [cells[i : i + width] for i in range(0, len(cells), width)]


def _click(page: Any, key: str) -> None:
    with rerun(page):
        page.locator(f".st-key-{key}").get_by_role("button").click()


@pytest.mark.parametrize(("path", "title"), PAGES, ids=[path for path, _ in PAGES])
def test_page_renders_its_title_without_an_exception(new_page, path, title) -> None:
    page = new_page(path)
    expect(page.locator("[data-testid='stMain'] h1")).to_have_text(title)
    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    # Validate's own name too: Streamlit said "Page not found" before falling back to it.
    expect(page.get_by_role("dialog")).to_have_count(0)


def test_validate_by_its_own_name_opens_at_the_root_with_its_share_link(new_page) -> None:
    text = PRESETS["bad_sku"].value
    page = new_page(f"validate?s={encode_share({'page': 'validate', 'payload': text})}")
    expect(page.locator("[data-testid='stMain'] h1")).to_have_text("Validate")
    expect(page.get_by_role("dialog")).to_have_count(0)
    assert urlsplit(page.url).path == "/"  # the address it is shared and reopened by
    assert parse_qs(urlsplit(page.url).query)["s"]
    # the editor's frame loads after the page: wait for its text (read at once, CI read '')
    expect(editor_frame(page).locator(".cm-content")).to_contain_text('"sku": "bad sku"')
    assert editor_value(page) == text.rstrip("\n")


def test_trace_runs_the_seed_order_and_steps_to_confirm(new_page) -> None:
    page = new_page("trace")
    _click(page, "run")
    rows = _rows(_grid(page, "flag"), 3)
    assert [row[:6] for row in rows] == SEED_TRACE
    thumb = page.locator(".st-key-step_slider [data-testid='stSliderThumbValue']")
    spoken = page.locator(".st-key-step_slider input[type='range']")
    # What a screen reader reads is the option's text as given: no Markdown escapes in it.
    expect(thumb).to_have_text("row 1 of 3 · step 0")
    expect(spoken).to_have_attribute("aria-valuetext", "row 1 of 3 · step 0")

    _click(page, "next")
    _click(page, "next")

    expect(thumb).to_have_text("row 3 of 3 · step 2")
    expect(spoken).to_have_attribute("aria-valuetext", "row 3 of 3 · step 2")
    expect(
        page.get_by_text("Step 2, node confirm; the state shown is the merged state after it.")
    ).to_be_visible()
    update = page.locator("[data-testid='stCode']").filter(has_text='"confirmed"').first
    assert json.loads(update.inner_text()) == {"status": "confirmed", "logs": ["confirmed"]}


def test_trace_runs_the_payload_edited_on_the_validate_page(new_page) -> None:
    page = new_page()
    submit_payload(page, PRESETS["negative_amount"].value)
    # Client-side navigation keeps the session, so the shared payload text goes along.
    with rerun(page):
        page.locator("[data-testid='stSidebarNav'] a[href$='/trace']").click()
    expect(page.locator("[data-testid='stMain'] h1")).to_have_text("Trace")
    _click(page, "run")

    expect(
        page.get_by_text("Gate closed — 1 error in the payload; the graph did not run. Fix the")
    ).to_be_visible()
    # The gate validates the parsed value; its errors are then placed in the payload's text.
    rows = _rows(_grid(page, "line:col"), 1)
    assert [row[:4] for row in rows] == [
        [
            "amount",
            "3:13",
            "Input should be greater than or equal to 0",
            "greater_than_equal",
        ]
    ]


def test_text_typed_but_not_submitted_reaches_the_trace_page(new_page) -> None:
    page = new_page()
    editor_frame(page).locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(PRESETS["negative_amount"].value)
    # Leaving the editor commits its text. The press lasts as long as a person's click: with
    # an instant one (mouse down and up within about 15 ms), Streamlit 1.67 queues the
    # editor's fragment rerun behind the page change and leaves the Trace page blank.
    page.locator("[data-testid='stSidebarNav'] a[href$='/trace']").click(delay=100)
    expect(page.locator("[data-testid='stMain'] h1")).to_have_text("Trace")
    _click(page, "run")
    expect(
        page.get_by_text("Gate closed — 1 error in the payload; the graph did not run. Fix the")
    ).to_be_visible()
