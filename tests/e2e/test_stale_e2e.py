"""Stale and stray text (#32 item 8), measured as a new user in Chromium: the labels of the
Behaviour lab's rows, and tables' toolbars on a phone. (What a preset box says it loaded is
checked in test_layout_shift_e2e.py: the box itself names it, no line under it.)"""

from __future__ import annotations

import re
from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from core.probes import registry
from tests.e2e._browser import (
    grid_with,
    new_context,
    open_app,
    rerun,
    run_trace,
)
from ui.labs.probe_table import PROBE_ORDER

pytestmark = pytest.mark.e2e

# The Behaviour lab's source articles by the titles a reader knows them by.
ARTICLES = (
    "Pydantic v2 state in LangGraph",
    "Serialization traps of LLM tool parameters",
    "Structured output with PydanticAI",
)
PHONE = {"width": 390, "height": 844}


def test_the_behaviour_labs_rows_and_filter_name_each_article_by_its_title(new_page) -> None:
    # #32 item 8: every row's source, and each chip of the Source article filter, read
    # "… (sources/000)": a folder index, not a name a reader knows the article by.
    page = new_page("behaviour")
    chips = page.locator(".st-key-source_filter [data-tag] > span[title]")
    expect(chips).to_have_text(list(ARTICLES))
    grid = grid_with(page, "source")
    expect(grid.locator("[role='columnheader']").first).to_have_text(PROBE_ORDER[0])
    headers = grid.locator("[role='columnheader']").all_inner_texts()
    # Each row the grid draws: its id, and its source as the article's title and a section.
    rows = grid.locator("[role='row']:has([role='gridcell'])").evaluate_all(
        "rows => rows.map(r => [...r.querySelectorAll('[role=gridcell]')].map(c => c.textContent))"
    )
    sources = {row[headers.index("id")]: row[headers.index("source")] for row in rows}
    assert len(sources) >= 5, rows
    assert sources == {probe: registry()[probe].source for probe in sources}
    readable = re.compile(rf"^({'|'.join(map(re.escape, ARTICLES))}) § [^/]+$")
    assert [s for s in sources.values() if not readable.match(s)] == []
    assert "sources/" not in page.locator("[data-testid='stMain']").inner_text()


# What a table's toolbar, shown, covers outside its table: controls, and text drawn on the
# page (each text's own line boxes, so the empty end of a wide caption's box is not counted).
COVERED_BY_TOOLBAR = """grid => {
  const toolbar = grid.querySelector("[data-testid='stElementToolbar']");
  if (toolbar === null) return null;
  const t = toolbar.getBoundingClientRect();
  const over = r => r.width > 0 && r.height > 0 && r.left < t.right && t.left < r.right
    && r.top < t.bottom && t.top < r.bottom;
  const shown = e => e.checkVisibility({opacityProperty: true, visibilityProperty: true});
  const inside = n => toolbar.contains(n) || grid.contains(n);
  const covered = [];
  for (const e of document.querySelectorAll("button, input, a, svg, [role='button']")) {
    if (!inside(e) && shown(e) && over(e.getBoundingClientRect()))
      covered.push(e.getAttribute("aria-label") || e.textContent || e.tagName);
  }
  const texts = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = texts.nextNode(); n; n = texts.nextNode()) {
    if (!n.textContent.trim() || inside(n) || !shown(n.parentElement)) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    if ([...range.getClientRects()].some(over)) covered.push(n.textContent.trim());
  }
  return covered;
}"""


@pytest.mark.parametrize("path", ["", "behaviour", "tools", "retry", "trace", "threads"])
def test_on_a_phone_no_tables_toolbar_covers_text_or_a_control_above_it(
    browser: Any, app_server: Any, path: str
) -> None:
    # #32 item 8: on a phone a table's toolbar, shown on a tap, covered what was drawn above
    # the table: the end of the Behaviour lab's "… 0 inconclusive", the Tool lab's heading
    # "What the real run shows", the Trace page's captions (and, on Threads, the "Per page"
    # chevron).
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_app(context, f"{app_server.url}/{path}")
        if path == "":  # the Validate page's error table: shown for a broken order
            with rerun(page):
                page.get_by_role("button", name="Try a broken order").click()
        if path == "trace":  # the fan-out graph's step 2: a super-step's note above Merge
            with rerun(page):
                page.locator(".st-key-trace_graph").get_by_text("Fan-out graph").click()
            run_trace(page)
            for _ in range(2):
                with rerun(page):
                    page.locator(".st-key-next").get_by_role("button").click()
        grids = page.locator("[data-testid='stMain'] [data-testid='stDataFrame']:visible")
        expect(grids.first).to_be_visible()
        covered: dict[int, Any] = {}
        # Until every grid is checked, counted again each time: a page still drawing (the
        # Tool lab's on a loaded machine) can add a grid after the first count.
        while (number := len(covered)) < grids.count():
            grid = grids.nth(number)
            grid.scroll_into_view_if_needed()
            grid.hover()
            toolbar = grid.locator("[data-testid='stElementToolbar']")
            expect(toolbar.get_by_role("button").first).to_be_visible()
            # Measured once the page has settled (a caption or style drawn late moves things).
            with suppress(PlaywrightTimeoutError):
                page.wait_for_function(
                    f"g => ({COVERED_BY_TOOLBAR})(g).length === 0",
                    arg=grid.element_handle(),
                    timeout=5_000,
                )
            covered[number] = grid.evaluate(COVERED_BY_TOOLBAR)
        assert covered == dict.fromkeys(range(grids.count()), []), covered
    finally:
        context.close()
