"""The labs' tables in Chromium, measured by what their grids draw (issue 41, item 6): the Retry
lab's timelines at 1400 px split no word and cut no value without it whole under the table;
the Behaviour lab's verdict and claim in view on a phone."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from playwright.sync_api import expect

from core.retry import ENGINES, load_script, run_script
from tests.e2e._browser import grid_with, rerun
from tests.e2e.test_labs_e2e import FITS, PROBE_GRID, fit, noting_grids
from tests.e2e.test_layout_e2e import HEADER, LAPTOP, PADDING
from ui.labs.retry_state import preset_text

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}


def _drawn(page: Any, grid: Any) -> Any:
    grid.scroll_into_view_if_needed()
    expect(grid.locator("[role='gridcell']").first).to_be_attached()
    page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
    return grid


def cells(grid: Any, rows_in_view: int, *, drawn_rows: int | None = None) -> dict[str, Any]:
    """Each cell of the first `rows_in_view` rows of `grid` (its canvas holding `drawn_rows`,
    else all its rows) whose column's header is drawn:
    its value (the accessible grid's text), the lines drawn in it top to bottom, and its
    column's right edge (the next header's left edge, or the canvas'), keyed "header of row n"."""
    lines = grid.evaluate("e => e.__lines || []")
    headers = [name for name in grid.locator("[role='columnheader']").all_inner_texts() if name]
    heads = {line["text"]: line for line in lines if line["y"] < HEADER}
    drawn_headers = [name for name in headers if name in heads]
    lefts = [heads[name]["start"] - PADDING for name in drawn_headers]
    canvas = grid.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
    rights = [*lefts[1:], canvas["width"]]
    rows = grid.locator("[role='row']:has([role='gridcell'])")
    count = rows.count()
    height = (canvas["height"] - HEADER) / (drawn_rows or count)
    found: dict[str, Any] = {}
    for row in range(min(rows_in_view, count)):
        top = HEADER + row * height
        values = rows.nth(row).locator("[role='gridcell']").all_inner_texts()[-len(headers) :]
        for column, name in enumerate(drawn_headers):
            left, right = lefts[column], rights[column]
            # a cell redrawn draws its lines again at the same height (a number column's
            # right-aligned text once 2 px further): the last drawing of each line counts
            drawn = {
                (line["y"], line["text"]): line
                for line in lines
                if left <= line["start"] < right and top < line["y"] < top + height
            }
            found[f"{name} of row {row}"] = {
                "value": values[headers.index(name)],
                "lines": [(text, drawn[y, text]["end"], y) for y, text in sorted(drawn)],
                "right": right,
                "foot": top + height,
            }
    return found


def not_whole(found: dict[str, Any]) -> dict[str, Any]:
    """The cells of `found` not drawn whole (their lines spell another text, or end past the
    column's edge or the row's foot) or with a word split over two lines."""
    problems = {}
    for name, cell in found.items():
        texts = [text.strip() for text, _, _ in cell["lines"]]
        whole = "".join(texts).replace(" ", "") == cell["value"].replace(" ", "")
        inside = all(
            end <= cell["right"] + 0.5 and y + 8 <= cell["foot"] for _, end, y in cell["lines"]
        )
        unsplit = " ".join(texts) == " ".join(cell["value"].split())  # lines end between words
        if not (whole and inside and unsplit):
            problems[name] = cell["lines"]
    return problems


def _article_runs() -> list[Any]:
    """The article preset's runs, as the page makes them (in a thread of their own: the
    engines run an event loop, and Playwright's is running in this one)."""
    script = load_script(preset_text("article"))
    with ThreadPoolExecutor(1) as pool:
        return list(pool.map(lambda engine: run_script(script, engine=engine, retries=1), ENGINES))


def test_at_1400_px_the_retry_timelines_split_no_word_and_each_cut_value_is_whole_below(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, item 6 (a Chromium walk): words broken mid-word ("outcome=su / ccess",
    # "tool_name / =final_result", "pydanti / c.dev"), and the third attempt's answer cut at
    # its row's foot at '"The order' (the footer sent the reader to the run's messages).
    runs = _article_runs()
    with noting_grids(browser, f"{app_server.url}/retry", LAPTOP) as page:
        with rerun(page):
            page.locator(".st-key-run_retry").get_by_role("button").click()
        timelines = grid_with(page, "attempt", "retries left", "left out")
        expect(timelines).to_have_count(2)  # PydanticAI's, then LangGraph's
        for index in (0, 1):
            timeline = _drawn(page, timelines.nth(index))
            found = cells(timeline, 3)
            assert (fit(timeline), not_whole(found), len(found)) == (FITS, {}, 27)
        # The third attempt's answer, cut in the table, whole under it once its row is picked.
        timeline = _drawn(page, timelines.nth(0))
        canvas = timeline.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
        row_height = (canvas["height"] - HEADER) / 3
        with rerun(page):  # the row's mark, left of its cells
            page.mouse.click(canvas["x"] + 16, canvas["y"] + HEADER + 2.5 * row_height)
        answer = runs[0].rows()[2]["returned"]
        picked = page.locator("[data-testid='stCaptionContainer']").filter(
            has_text="Attempt 3 whole."
        )
        expect(picked).to_have_count(1)
        codes = page.locator("[data-testid='stCode']").all_inner_texts()
        assert [code for code in codes if code.strip() == answer] == [answer]


def test_on_a_phone_the_behaviour_tables_verdict_and_claim_are_whole_in_view(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, item 6 (a Chromium walk at 390 x 844): the id took about 280 of the grid's
    # 358 px, the verdict drawn "partl…" and the claim off-screen.
    with noting_grids(browser, f"{app_server.url}/behaviour", PHONE) as page:
        grid = _drawn(page, page.locator(f"{PROBE_GRID} [data-testid='stDataFrame']"))
        view = grid.locator(".dvn-scroller").evaluate("e => e.clientWidth")
        found = cells(grid, 3, drawn_rows=8)  # the page's table holds eight rows, then scrolls
        shown = {
            name: cell
            for name, cell in found.items()
            if name.startswith(("verdict of", "claim of"))
        }
        edges = {name: cell["right"] <= view + 0.5 for name, cell in shown.items()}
        assert (len(shown), not_whole(shown), set(edges.values())) == (6, {}, {True})
        assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
