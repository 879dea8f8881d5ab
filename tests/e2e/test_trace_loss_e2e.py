"""Trace page in Chromium: a run that lost data without raising leads to the loss (issue 32,
item 4), and the page offers no share link before a run exists (item 8).

Measured before: with `overwrite_logs` a green banner, every row ticked, step 0 opened, the
lost log entry visible only in step 2's merge view with an empty "why"; with
`undeclared_key` the note named step 1 while step 0 was selected; a lone Share link button
before any run.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e._browser import rerun, run_trace
from ui.trace_table import STEP_ROW_HEIGHT

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1400, "height": 900}
HEADER = 35  # the grid's header row, Streamlit's default row height
# The colour of one pixel per row of the step table, at the bottom of the row and past the
# columns with text in them (no glyph there): [r, g, b, a] as the canvas drew it.
_ROW_PIXELS = """([grid, rows, header, height, x]) => {
  const canvas = grid.querySelector("canvas[data-testid='data-grid-canvas']");
  const ratio = canvas.width / canvas.getBoundingClientRect().width;
  const context = canvas.getContext("2d");
  return [...Array(rows).keys()].map((row) => {
    const y = header + row * height + height - 4;
    return Array.from(context.getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data);
  });
}"""


def _alerts(page: Any) -> list[str]:
    """The alerts' text as read (the invisible word joiner after a colon left out)."""
    alerts = page.locator("[data-testid='stMain'] [data-testid='stAlert']")
    expect(alerts.first).to_be_visible()
    return [text.replace("\u2060", "").strip() for text in alerts.all_inner_texts()]


def _step_table(page: Any) -> Any:
    return page.locator("[data-testid='stDataFrame']:has([role='columnheader']:text-is('flag'))")


def _selected_cells(page: Any) -> list[str]:
    selected = _step_table(page).locator("[role='row'][aria-selected='true']")
    expect(selected).to_have_count(1)
    return selected.locator("[role='gridcell']").all_inner_texts()


def _tinted_rows(page: Any, rows: int) -> list[int]:
    """The rows drawn with the flag's red tint: red over blue, where an untinted row is white
    (or, selected, the bluish selection colour)."""
    grid = _step_table(page).element_handle()
    pixels = page.evaluate(_ROW_PIXELS, [grid, rows, HEADER, STEP_ROW_HEIGHT, 300])
    return [row for row, (red, _, blue, _) in enumerate(pixels) if red > blue + 10]


def _settled(page: Any, read: Callable[[], Any]) -> Any:
    """`read()` once two reads a moment apart agree (the grid has finished drawing)."""
    before = None
    for _ in range(40):
        now = read()
        if now == before:
            return now
        before = now
        page.wait_for_timeout(250)
    raise AssertionError(f"never settled: {before}")


def test_an_overwrite_that_lost_a_log_entry_is_headlined_opened_tinted_and_explained(
    new_page,
) -> None:
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page, fault="overwrite_logs")

    assert _alerts(page) == [
        "LangGraph finished without raising, but step 2 lost data silently: confirm's Overwrite "
        'replaced logs, bypassing operator.add (it held ["amount=99.0 items=1"], now '
        '["confirmed"]).',
        "LangGraph lost data at this step without raising:",
    ]
    assert _selected_cells(page)[:4] == ["2", "confirm", "✓", "data lost"]
    assert _settled(page, lambda: _tinted_rows(page, 3)) == [2]
    detail = page.locator(".st-key-trace_detail")
    expect(detail.get_by_text("Step 2 · confirm")).to_be_visible()
    expect(detail.locator("[data-testid='stCode']")).to_have_text(
        'logs: Overwrite bypassed operator.add. Was there: ["amount=99.0 items=1"]. Remains: '
        '["confirmed"]. Lost: "amount=99.0 items=1".'
    )
    # The merge view's why, for the row of the field that lost it.
    merge = page.locator(
        "[data-testid='stDataFrame']:has([role='columnheader']:text-is('reducer'))"
    )
    merge.scroll_into_view_if_needed()
    expect(
        merge.locator("[role='gridcell']").filter(
            has_text='Was there: ["amount=99.0 items=1"]. Remains: ["confirmed"].'
        )
    ).to_have_count(1)
    # Stepped away from, the row stays tinted: the tint is the flag's, not the selection's.
    with rerun(page):
        page.locator(".st-key-prev").get_by_role("button").click()
    expect(detail.get_by_text("Step 1 · validate_order")).to_be_visible()
    assert _settled(page, lambda: _tinted_rows(page, 3)) == [2]


def test_a_dropped_key_opens_on_the_step_the_headline_names(new_page) -> None:
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page, fault="undeclared_key")

    alerts = _alerts(page)
    assert alerts == [
        "LangGraph finished without raising, but step 1 lost data silently: validate_order "
        "returned totl=1, a key the state does not declare, and LangGraph discarded it.",
        "LangGraph lost data at this step without raising:",
    ]
    named = re.search(r"\bstep (\d+)\b", alerts[0])
    assert named is not None
    assert _selected_cells(page)[:4] == [named[1], "validate_order", "✓", "data lost"]
    assert _settled(page, lambda: _tinted_rows(page, 3)) == [1]
    detail = page.locator(".st-key-trace_detail")
    expect(detail.get_by_text("Step 1 · validate_order")).to_be_visible()
    expect(detail.locator("[data-testid='stCode']")).to_have_text(
        "totl: not a state field: LangGraph discarded the write. Was there: 1, in the node's "
        "update. Remains: nothing (the state has no totl)."
    )


def test_no_share_link_before_a_run(new_page) -> None:
    page = new_page("trace")
    expect(page.locator(".st-key-run").get_by_role("button", name="Run")).to_be_visible()
    expect(page.get_by_text("Pick a graph and faults, then press Run.")).to_be_visible()
    expect(page.get_by_role("button", name="Share link")).to_have_count(0)
    expect(page.get_by_text("Export and share")).to_have_count(0)
    run_trace(page)  # a run exists: now it can be shared
    expect(page.locator(".st-key-share").get_by_role("button", name="Share link")).to_be_visible()
