"""The labs in Chromium (#22 finding 8): a probe's verdict reads as a verdict, in English; at
1400 px (#32 item 8) each table of the Tool-parameter and Retry labs fits its width, its
headers whole, measured from what the grids draw."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from core.probes import registry, run_probe
from core.share import encode_share
from core.tools import SCENARIOS
from tests.e2e._browser import (
    NOTE_DRAWN,
    cut_off,
    goto_app,
    grid_with,
    new_context,
    open_app,
    rerun,
)
from tests.e2e.test_layout_e2e import (
    HEADER,
    LAPTOP,
    NOTE_LINES,
    PADDING,
    cells_not_whole,
    drawn_past_edge,
    overflow,
)
from ui.labs.probe_table import PROBE_ORDER
from ui.labs.probe_view import MEANINGS
from ui.labs.tools_state import TABS

pytestmark = pytest.mark.e2e

# Any CJK ideograph: the articles are Chinese, the page speaks English.
CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def _text_outside_code(page: Any) -> str:
    text: str = page.locator("[data-testid='stMain']").evaluate(
        """main => {
            const copy = main.cloneNode(true);
            copy.querySelectorAll("[data-testid='stCode']").forEach(code => code.remove());
            return copy.textContent;
        }"""
    )
    return text


def test_a_probe_shows_a_badge_a_meaning_and_an_english_source(new_page: Any) -> None:
    probe = "literal_field_auto_discriminates"  # its section once read in the article's words
    verdict = run_probe(probe).verdict  # the probe in this process is the oracle
    page = new_page(f"behaviour?s={encode_share({'page': 'behaviour', 'probe': probe})}")
    detail = page.locator("[data-testid='stMain'] [data-testid='stText']").filter(has_text="Claim:")
    expect(detail).to_have_text(
        f"Claim: {registry()[probe].claim}\nSource: {registry()[probe].source}\nVerdict: {verdict}"
    )
    assert (
        registry()[probe].section
        == 'Trap 3: "v2 automatically tries to use it as the discriminator"'
    )

    expect(page.locator("[data-testid='stMain'] .stMarkdownBadge")).to_have_text(verdict)
    expect(page.get_by_text(MEANINGS[verdict])).to_be_visible()
    # The evidence wraps inside its block: nothing hides past the right edge.
    evidence = page.locator("[data-testid='stCode']").first.locator("code")
    assert evidence.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    # No section reference, claim, caption or probe code on the page is left in Chinese: the
    # probes' code is our own, in English, like the rest.
    assert CJK.findall(_text_outside_code(page)) == []
    assert CJK.findall(page.locator("[data-testid='stMain']").inner_text()) == []


PROBE_GRID = ".st-key-probe_table__table"
GRID_HEADER_PX = 35  # the grid's header row; the page sets its height to hold 8 rows and 38 px


def _probe_ids(page: Any) -> list[str]:
    """The id of each row the probe grid holds (its accessible table), in order."""
    rows = page.locator(PROBE_GRID).locator("[role='row']:has([role='gridcell'])").all()
    at = PROBE_ORDER.index("id") - len(PROBE_ORDER)  # from the row's end: its mark comes first
    return [row.locator("[role='gridcell']").all_inner_texts()[at].strip() for row in rows]


def test_a_click_on_a_cell_of_the_behaviour_table_opens_that_rows_probe(new_page: Any) -> None:
    """Issue 41, item 6: a click on any cell selects its row and opens its probe (once only
    the Probe box under the table opened one); the Probe box follows; Enter on a row the
    arrow keys reach opens it too."""
    page = new_page("behaviour")
    grid = page.locator(PROBE_GRID)
    box = page.locator(".st-key-probe input")
    expect(grid.locator("[role='row'][aria-selected='true']")).to_have_count(1)
    ids = _probe_ids(page)
    expect(box).to_have_value(ids[0])  # the first row is open, ticked
    page.wait_for_timeout(1_000)  # the grid is laid out again after the run that drew it
    grid.scroll_into_view_if_needed()
    drawn = grid.bounding_box()
    assert drawn is not None
    row_px = (drawn["height"] - 38) / min(len(ids), 8)
    detail = page.locator("[data-testid='stMain'] [data-testid='stText']").filter(has_text="Claim:")
    for row, x in ((2, 200), (1, 700)):  # the claim cell of row 2, the source cell of row 1
        with rerun(page):
            page.mouse.click(
                drawn["x"] + x, drawn["y"] + GRID_HEADER_PX + row_px * row + row_px / 2
            )
        expect(box).to_have_value(ids[row])
        expect(page.locator("[data-testid='stMain'] h3")).to_have_text(ids[row])
        expect(detail).to_contain_text(f"Claim: {registry()[ids[row]].claim}\n")
        selected = grid.locator("[role='row'][aria-selected='true'] [role='gridcell']").nth(
            PROBE_ORDER.index("id")
        )
        expect(selected).to_have_text(ids[row])
    # By keyboard, as on the Validate page: down a row from row 1, Enter opens row 2.
    page.keyboard.press("ArrowDown")
    with rerun(page):
        page.keyboard.press("Enter")
    expect(box).to_have_value(ids[2])
    expect(detail).to_contain_text(f"Claim: {registry()[ids[2]].claim}\n")


def test_the_tool_lab_says_which_model_judged_the_payload(new_page: Any) -> None:
    # A scenario that compares a loose and a strict model: the verdict names the one it used.
    scenario = SCENARIOS["loose_strict"]
    page = new_page(f"tools?s={encode_share({'page': 'tools', 'scenario': 'loose_strict'})}")
    expect(
        page.get_by_text(f"Validated against {scenario.model.__name__}, the tool's parameters.")
    ).to_be_visible()


def test_the_tool_labs_lint_findings_are_drawn_whole_inside_their_table(
    browser: Any, app_server: Any
) -> None:
    # At 1400 px the message ran past the table's right edge and the fix was not drawn at all.
    context = new_context(browser, viewport={"width": 1400, "height": 900})
    context.add_init_script(f"({NOTE_DRAWN})()")
    try:
        page = open_app(context, f"{app_server.url}/tools")
        grid = grid_with(page, "fix")
        grid.scroll_into_view_if_needed()
        expect(grid.locator("[role='gridcell']", has_text="/properties/params")).to_have_count(1)
        page.wait_for_function("g => g.__drawn && g.__drawn['fix']", arg=grid.element_handle())
        assert cut_off(grid, ["code", "where", "message", "fix", "missing_description"]) == {}
        past_the_edge = grid.evaluate(
            "g => Object.entries(g.__drawn).filter(([, d]) => d.end > d.canvas).map(([t]) => t)"
        )
        assert past_the_edge == []
    finally:
        context.close()


@contextmanager
def noting_grids(browser: Any, url: str, viewport: dict[str, int] = LAPTOP) -> Iterator[Any]:
    """`url` at `viewport` (1400 x 900) in a context of its own, each grid noting the texts
    it draws."""
    context = new_context(browser, viewport=viewport)
    context.add_init_script(f"({NOTE_LINES})()")
    try:
        yield open_app(context, url)
    finally:
        context.close()


def headers_cut(grid: Any) -> list[tuple[str, Any]]:
    """Each header `grid` drew past its column's right edge (the next column's left edge, or
    the canvas' for the last), with how far past; None: not drawn at all."""
    lines = grid.evaluate("e => e.__lines || []")
    heads = {line["text"]: line for line in lines if line["y"] < HEADER}
    width = grid.locator("canvas[data-testid='data-grid-canvas']").bounding_box()["width"]
    # The selection boxes' column has an empty header.
    headers = [name for name in grid.locator("[role='columnheader']").all_inner_texts() if name]
    rights = [heads[name]["start"] - PADDING if name in heads else width for name in headers[1:]]
    return [
        (name, None if name not in heads else round(heads[name]["end"] - right))
        for name, right in zip(headers, [*rights, width], strict=True)
        if name not in heads or heads[name]["end"] > right + 0.5
    ]


def fit(grid: Any) -> dict[str, Any]:
    """How `grid` sits in its width: sideways scrolling, texts past its edge, headers cut."""
    return {"sideways": overflow(grid), "past the edge": drawn_past_edge(grid),
            "headers cut": headers_cut(grid)}  # fmt: skip


FITS: dict[str, Any] = {"sideways": None, "past the edge": [], "headers cut": []}


def _drawn(page: Any, grid: Any) -> Any:
    grid.scroll_into_view_if_needed()
    expect(grid.locator("[role='gridcell']").first).to_be_attached()
    page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
    return grid


def test_at_1400_px_the_tool_labs_error_table_and_real_run_fit_their_width(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8, a browser walk: with "words for numbers" the error table was 320 px of
    # content in 278 (its messages cut at the edge: "Input should b", "unable to parse") and
    # the real run's detail ended mid-value at the table's edge ("…extra_config={'m").
    state = {"page": "tools", "scenario": "loose_strict", "preset": "words for numbers"}
    with noting_grids(browser, f"{app_server.url}/tools?s={encode_share(state)}") as page:
        errors = _drawn(page, grid_with(page, "path", "line:col", "message"))
        observed = _drawn(page, grid_with(page, "what", "outcome", "detail"))
        assert {"errors": fit(errors), "observed": fit(observed)} == {
            "errors": FITS,
            "observed": FITS,
        }
        assert cells_not_whole(observed) == {}


def test_at_1400_px_every_table_of_each_tool_scenario_fits_its_width(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the real run's table was up to 1059 px wide in 938 (the v1 spellings'
    # warnings), the provider's rewrites 1131 (image_tool's paths), the round trip's dumps
    # drawn past the table's edge. Each scenario on its first valid payload (the round trip
    # runs) with the schema Google Live receives (its rewrites have the longest paths).
    problems: dict[str, Any] = {}
    checked: dict[str, set[str]] = {}
    with noting_grids(browser, app_server.url) as page:
        for scenario_id, scenario in SCENARIOS.items():
            state = {
                "page": "tools",
                "scenario": scenario_id,
                "preset": next(iter(scenario.valid)),
                "schema_tab": TABS[-1],
            }
            goto_app(page, f"{app_server.url}/tools?s={encode_share(state)}")
            expect(grid_with(page, "name", "ok", "detail")).to_be_visible()  # the round trip
            tables = page.locator("[data-testid='stDataFrame']")
            for index in range(tables.count()):
                grid = _drawn(page, tables.nth(index))
                headers = grid.locator("[role='columnheader']").all_inner_texts()
                checked.setdefault(scenario_id, set()).add(headers[0])
                if (drawn := fit(grid)) != FITS:
                    problems[f"{scenario_id}: {', '.join(headers)}"] = drawn
    assert problems == {}
    # Among them each scenario's round trip, real run and rewrites (by their first header).
    among = {name: {"name", "what", "kind"} <= firsts for name, firsts in checked.items()}
    assert among == dict.fromkeys(SCENARIOS, True)


def test_at_1400_px_the_retry_labs_timelines_fit_every_header_and_attempt_in_view(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8, a browser walk: after Run the headers read "retries le", "message par",
    # "left out of th" (past the table's edge), the third attempt was cut off at the table's
    # foot (Streamlit's automatic height), and the invalid attempt's feedback at its row's.
    with noting_grids(browser, f"{app_server.url}/retry") as page:
        with rerun(page):
            page.locator(".st-key-run_retry").get_by_role("button").click()
        timelines = grid_with(page, "attempt", "retries left", "left out")
        expect(timelines).to_have_count(2)  # PydanticAI's, then LangGraph's
        for timeline in (timelines.nth(0), timelines.nth(1)):
            _drawn(page, timeline)
            expect(timeline.locator("[role='row']:has([role='gridcell'])")).to_have_count(3)
            scroller = timeline.locator(".dvn-scroller")
            below = scroller.evaluate("e => e.scrollHeight - e.clientHeight")
            # every cell whole, no word split: test_labs_fit_e2e.py
            assert (fit(timeline), below) == (FITS, 0)


def test_at_1400_px_each_cell_of_the_behaviour_table_in_view_is_drawn_whole_in_words(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, items 3 and 6: claims, sources and evidence were cut at a fourth line with no
    # way to read the rest in the table, ids broken mid-name ("gate_blocks_invalid_ / input"),
    # the evidence a raw "[matches] claim predicts: …", Pydantic's "items.0.sku" in it.
    with noting_grids(browser, f"{app_server.url}/behaviour") as page:
        grid = _drawn(page, page.locator(f"{PROBE_GRID} [data-testid='stDataFrame']"))
        lines = grid.evaluate("e => e.__lines || []")
        headers = [name for name in grid.locator("[role='columnheader']").all_inner_texts() if name]
        heads = {line["text"]: line for line in lines if line["y"] < HEADER}
        lefts = [heads[name]["start"] - PADDING for name in headers]
        canvas = grid.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
        rights = [*lefts[1:], canvas["width"]]
        rows = grid.locator("[role='row']:has([role='gridcell'])")
        in_view = min(rows.count(), 8)  # the page's table holds eight rows, then scrolls
        height = (canvas["height"] - HEADER) / in_view
        problems = {}
        for row in range(in_view):
            top = HEADER + row * height
            cells = rows.nth(row).locator("[role='gridcell']").all_inner_texts()
            for column, value in enumerate(cells[-len(headers) :]):
                if headers[column] == "seconds":  # a number, rounded as drawn (0.0157)
                    continue
                left, right = lefts[column], rights[column]
                drawn = sorted(
                    {
                        (line["y"], line["text"], line["end"])
                        for line in lines
                        if left <= line["start"] < right and top < line["y"] < top + height
                    }
                )
                spelled = "".join(text for _, text, _ in drawn).replace(" ", "")
                whole = spelled == value.replace(" ", "") and all(
                    end <= right + 0.5 and y + 8 <= top + height for y, _, end in drawn
                )
                unbroken = headers[column] not in ("id", "verdict") or len(drawn) == 1
                if not (whole and unbroken):
                    problems[f"{headers[column]} of row {row}"] = [t for _, t, _ in drawn]
        assert problems == {}
        # Each check's outcome in words, in the table and the open probe's evidence alike.
        main = page.locator("[data-testid='stMain']").inner_text()
        assert [code for code in ("[matches]", "[differs]", "[unclear]") if code in main] == []
