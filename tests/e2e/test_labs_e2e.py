"""The labs in Chromium (#22 finding 8): a probe's verdict reads as a verdict, in English."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from core.probes import registry, run_probe
from core.share import encode_share
from core.tools import SCENARIOS
from tests.e2e._browser import NOTE_DRAWN, cut_off, grid_with, new_context, open_app
from ui.labs.probe_view import MEANINGS

pytestmark = pytest.mark.e2e

# Any CJK ideograph: the articles are Chinese, the page speaks English.
CJK = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")


def _text_outside_code(page: Any) -> str:
    return page.locator("[data-testid='stMain']").evaluate(
        """main => {
            const copy = main.cloneNode(true);
            copy.querySelectorAll("[data-testid='stCode']").forEach(code => code.remove());
            return copy.textContent;
        }"""
    )


def test_a_probe_shows_a_badge_a_meaning_and_an_english_source(new_page) -> None:
    probe = "literal_field_auto_discriminates"  # its source once read "陷阱三 (v2 会自动…)"
    verdict = run_probe(probe).verdict  # the probe in this process is the oracle
    page = new_page(f"behaviour?s={encode_share({'page': 'behaviour', 'probe': probe})}")
    detail = page.locator("[data-testid='stMain'] [data-testid='stText']").filter(has_text="Claim:")
    expect(detail).to_have_text(
        f"Claim: {registry()[probe].claim}\nSource: {registry()[probe].source}\nVerdict: {verdict}"
    )
    assert registry()[probe].source.endswith(
        '§ Trap 3: "v2 automatically tries to use it as the discriminator"'
    )
    expect(page.locator("[data-testid='stMain'] .stMarkdownBadge")).to_have_text(verdict)
    expect(page.get_by_text(MEANINGS[verdict])).to_be_visible()
    # The evidence wraps inside its block: nothing hides past the right edge.
    evidence = page.locator("[data-testid='stCode']").first.locator("code")
    assert evidence.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    # No section reference, claim or caption on the page is left in Chinese (the probe's
    # own code, quoted from the article, is the only text allowed to be).
    assert CJK.findall(_text_outside_code(page)) == []


def test_the_tool_lab_says_which_model_judged_the_payload(new_page) -> None:
    # A scenario that compares a loose and a strict model: the verdict names the one it used.
    scenario = SCENARIOS["loose_strict"]
    page = new_page(f"tools?s={encode_share({'page': 'tools', 'scenario': 'loose_strict'})}")
    expect(
        page.get_by_text(f"Validated against {scenario.model.__name__}, the tool's parameters.")
    ).to_be_visible()


def test_the_tool_labs_lint_findings_are_drawn_whole_inside_their_table(browser, app_server):
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
