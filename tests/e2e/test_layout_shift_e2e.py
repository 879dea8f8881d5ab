"""Validate without layout shift (issue 41, item 9), measured in Chromium by what is drawn:
the first verdict moves nothing under it, the preset box alone says what is loaded, and on a
phone the page's headings and the error table's headers are drawn whole."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from core.order import SEED_PAYLOAD
from core.order.presets import PRESETS
from tests.e2e._browser import (
    NOTE_DRAWN,
    editor_frame,
    editor_value,
    grid_with,
    new_context,
    open_app,
    rerun,
    submit_payload,
)

pytestmark = pytest.mark.e2e

WIDE = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
# What sits under the verdict, top to bottom: the preset box, the "Edit as" row, the editor.
UNDER_THE_VERDICT = (".st-key-preset", ".st-key-editor_view", ".st-key-payload_editor")
BAD_SKU = PRESETS["bad_sku"]
CELL_PADDING = 8  # px, the grid's padding on each side of a cell's text


def _tops(page: Any) -> list[float]:
    """Where each part under the verdict starts in the page (not the window: a typed
    payload scrolls the page to the editor)."""
    scrolled = page.locator("[data-testid='stMain']").evaluate("e => e.scrollTop")
    return [round(page.locator(part).bounding_box()["y"] + scrolled) for part in UNDER_THE_VERDICT]


@pytest.fixture
def opened(browser: Any, app_server: Any) -> Any:
    contexts: list[Any] = []

    def open_at(viewport: dict[str, int], *, scheme: str = "light") -> Any:
        phone = viewport == PHONE
        context = new_context(
            browser, viewport=viewport, is_mobile=phone, has_touch=phone, color_scheme=scheme
        )
        context.add_init_script(f"({NOTE_DRAWN})()")
        contexts.append(context)
        return open_app(context, app_server.url)

    yield open_at
    for context in contexts:
        context.close()


@pytest.mark.parametrize(
    ("viewport", "scheme"), [(WIDE, "light"), (PHONE, "dark")], ids=["1400", "phone"]
)
def test_the_first_verdict_moves_nothing_under_it_and_the_box_says_what_is_loaded(
    opened: Any, viewport: dict[str, int], scheme: str
) -> None:
    # "Try a broken order" moved the editor down 75 px at 1400 and 165 px on a phone: a
    # "Last preset loaded: …" line said again what the box showed, and on a phone the
    # verdict's banner and LangGraph's error under it took more lines.
    page = opened(viewport, scheme=scheme)
    before = _tops(page)
    with rerun(page):
        page.get_by_role("button", name="Try a broken order").click()
    expect(page.locator(".st-key-errors__table [role='gridcell']", has_text="6:14")).to_have_count(
        1
    )
    expect(page.locator(".st-key-preset input")).to_have_value(
        f"{BAD_SKU.title} — {BAD_SKU.summary}"
    )
    expect(page.get_by_text("Last preset loaded")).to_have_count(0)
    assert _tops(page) == before
    # A typed error too (the "Edit as" row went down 24 px on a phone at the first one).
    submit_payload(page, json.dumps(SEED_PAYLOAD | {"amount": -1}, indent=2))
    expect(page.locator(".st-key-errors__table [role='gridcell']", has_text="3:13")).to_have_count(
        1
    )
    expect(page.locator(".st-key-preset input")).to_have_value("")
    assert _tops(page) == before


def test_on_a_phone_the_page_heading_and_the_error_tables_headers_are_drawn_whole(
    opened: Any,
) -> None:
    page = opened(PHONE)
    with rerun(page):
        page.get_by_role("button", name="Try a broken order").click()
    grid = grid_with(page, "path", "line:col", "message", "rejected by")
    grid.scroll_into_view_if_needed()
    headers = ["path", "line:col", "message", "rejected by"]
    expect(grid.locator("[role='columnheader']")).to_have_text(headers)
    page.wait_for_function(
        "(e) => e.__drawn && e.__drawn['rejected by']", arg=grid.element_handle()
    )
    drawn = grid.evaluate("e => e.__drawn")
    # Each header ends inside its column, whose edge is the next text's padding (8 px) before
    # the next header ("line:col" ran past its edge, its last letter cut), the last one
    # inside the grid: no sideways scrolling.
    spans = [(drawn[h]["start"], drawn[h]["end"]) for h in headers]
    edges = [start - CELL_PADDING for start, _ in spans[1:]] + [drawn["path"]["canvas"]]
    assert all(end <= edge for (_, end), edge in zip(spans, edges, strict=True)), spans
    # The path on one line (not "items[0].sk" / "u"), and the message's words, each whole on
    # one of its lines (not "'^[A-Z0-9-]+$" / "'").
    path = [text for text, d in drawn.items() if spans[0][0] <= d["start"] < spans[1][0]]
    assert sorted(path) == ["items[0].sku", "path"], path
    message = "String should match pattern '^[A-Z0-9-]+$'"
    left, right = spans[2][0], spans[3][0]  # the message's column
    lines = sorted(
        (d["y"], text)
        for text, d in drawn.items()
        if left <= d["start"] < right and d["y"] > 35 and text not in headers
    )
    assert [word for _, text in lines for word in text.split()] == message.split(), lines
    # The page's title and headings inside the phone's width, none cut at its edge.
    for heading in page.locator("h1, h3").all():
        box = heading.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
        assert heading.evaluate("e => e.scrollWidth <= e.clientWidth + 1")


def _pick(page: Any, title: str) -> None:
    page.locator(".st-key-preset input").click()
    with rerun(page):
        page.get_by_role("option").filter(has_text=title).click()


def test_the_preset_box_names_the_last_load_and_goes_once_the_text_is_yours(opened: Any) -> None:
    # #32 item 8, said by the box itself since issue 41, item 9 (the line under it went): after
    # "Try a broken order" it named the preset picked before, and stayed after a paste.
    page = opened(WIDE)
    box = page.locator(".st-key-preset input")
    expect(box).to_have_value("")  # the seed order: nothing loaded
    _pick(page, "Bad UUID")
    expect(box).to_have_value(f"{PRESETS['bad_uuid'].title} — {PRESETS['bad_uuid'].summary}")
    with rerun(page):
        page.get_by_role("button", name="Try a broken order").click()
    expect(editor_frame(page).locator(".cm-content")).to_contain_text('"sku": "bad sku"')
    expect(box).to_have_value(f"{BAD_SKU.title} — {BAD_SKU.summary}")

    content = editor_frame(page).locator(".cm-content")
    content.click()
    page.keyboard.press("Control+a")
    with rerun(page):  # the editor sends the text 400 ms after the paste
        page.keyboard.insert_text('{"user_id": "mine"}')  # what a paste inserts
    expect(box).to_have_value("")

    # One keystroke into a preset's text is enough; the keystrokes typed while the box
    # changes all land, in order, where the caret was.
    _pick(page, "Bad UUID")
    content.click()
    page.keyboard.press("Control+End")
    with rerun(page):
        page.keyboard.type("  ", delay=50)
    page.keyboard.type("x", delay=50)
    expect(box).to_have_value("")
    expect(editor_frame(page).locator(".cm-editor")).to_contain_class("cm-focused")
    expect(editor_frame(page).locator(".cm-line").last).to_have_text("}  x")
    assert editor_value(page) == PRESETS["bad_uuid"].value + "  x"
