"""Issue 22, finding 10 in Chromium: Validate's section headings, the sidebar's versions,
sizes said in human units, a preset's confirmation that covers nothing on a phone, and the
Trace's error tables whole on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.payload import MAX_PAYLOAD_BYTES
from core.order.presets import SEED_TEXT
from tests.e2e._browser import editor_frame, new_context, open_app, rerun
from ui.editor.payload import human_size
from ui.errors.view import MESSAGE_ROW_HEIGHT
from ui.versions import PACKAGES, installed_versions

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

# For each package: the rendered box of its name and of its version, and the right edge of
# what is visible of the version (its clipping ancestors), whatever element draws them.
VERSION_BOXES = """
([pairs]) => {
  const side = document.querySelector("[data-testid='stSidebar']");
  const walker = document.createTreeWalker(side, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  const box = (node, start, end) => {
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    const r = range.getBoundingClientRect();
    return {top: r.top, bottom: r.bottom, right: r.right};
  };
  const clip = (node) => {
    let right = Infinity;
    for (let e = node.parentElement; e && e !== document.body; e = e.parentElement) {
      if (getComputedStyle(e).overflowX !== "visible")
        right = Math.min(right, e.getBoundingClientRect().right);
    }
    return right;
  };
  return pairs.map(([name, version]) => {
    const word = new RegExp("(^|\\\\s)" + name.replace(/[-.]/g, "\\\\$&") + "(?=\\\\s|$)");
    const at = nodes.findIndex((n) => word.test(n.data));
    if (at < 0) return {name, missing: "name"};
    const match = word.exec(nodes[at].data);
    const start = match.index + match[1].length;
    const found = {name, name_box: box(nodes[at], start, start + name.length)};
    for (let i = at; i < nodes.length; i++) {
      const from = i === at ? start + name.length : 0;
      const v = nodes[i].data.indexOf(version, from);
      if (v >= 0) {
        return {...found, version_box: box(nodes[i], v, v + version.length), clip: clip(nodes[i])};
      }
    }
    return {...found, missing: "version"};
  });
}
"""


def test_the_sidebar_shows_each_version_whole_and_beside_its_package(new_page) -> None:
    # c63ea1e: an aligned code block cut at the sidebar's edge ("2.14." for pydantic);
    # wrapped, each version fell to the line under its package.
    page = new_page()
    page.set_viewport_size({"width": 1400, "height": 900})
    expect(
        page.locator("[data-testid='stSidebar']").get_by_text("pydantic-ai-slim")
    ).to_be_visible()
    pairs = list(zip(PACKAGES, installed_versions(), strict=True))
    boxes = page.evaluate(VERSION_BOXES, [pairs])
    misplaced = [
        (found["name"], found.get("missing") or found)
        for found in boxes
        if "missing" in found
        or found["version_box"]["right"] > found["clip"] + 0.5  # cut at the right
        or not (  # on another line than its package's name
            found["name_box"]["top"]
            <= (found["version_box"]["top"] + found["version_box"]["bottom"]) / 2
            <= found["name_box"]["bottom"]
        )
    ]
    assert misplaced == []
    assert [name for name, _ in pairs] == [
        "pydantic", "langgraph", "langgraph-checkpoint", "langchain-core", "pydantic-ai-slim",
        "streamlit",
    ]  # fmt: skip


def test_validate_has_a_heading_for_each_section(new_page) -> None:
    page = new_page()  # c63ea1e: the page's title was its only heading
    headings = page.locator("[data-testid='stMain']").get_by_role("heading")
    expect(headings).to_have_text(["Validate", "Payload", "Errors", "More about this payload"])


def _type_a_space(page: Any, key: str) -> None:
    """Focus the editor of `key` at its end and type, as a user does (the text area of
    c63ea1e showed its `271/8000000` counter only while focused)."""
    content = editor_frame(page, key).locator(".cm-content")
    content.click()
    page.keyboard.press("Control+End")
    with rerun(page):
        page.keyboard.type(" ")  # sent 400 ms after the keystroke, then the page reruns


def _sizes(page: Any) -> tuple[list[str], list[str]]:
    """Raw `n/limit` counters and the size captions on the page, as read."""
    text = page.locator("[data-testid='stMain']").inner_text()
    captions = re.findall(r"^.*\bof \d.*$", text, re.M)
    return re.findall(r"\d+ ?/ ?\d{4,}", text), [caption.strip() for caption in captions]


def test_every_json_editor_says_its_size_in_human_units_never_a_raw_counter(new_page) -> None:
    limit = human_size(MAX_PAYLOAD_BYTES)
    for path, key in (("", "payload"), ("tools", "tool_payload"), ("retry", "retry_script")):
        page = new_page(path)
        _type_a_space(page, key)
        counters, captions = _sizes(page)
        shown = len(editor_frame(page, key).locator(".cm-content").inner_text().encode())
        assert (counters, captions) == (
            [],
            [f"{human_size(shown)} of {limit} · checked as you type · F8: next error"],
        ), path
    page = new_page("trace")
    with rerun(page):
        page.locator(".st-key-run").get_by_role("button").click()
    with rerun(page):
        page.locator(".st-key-next").get_by_role("button").click()  # a state to fork from
    _type_a_space(page, "fork_text")  # the fork's editor is the same payload editor
    counters, captions = _sizes(page)
    shown = len(editor_frame(page, "fork_text").locator(".cm-content").inner_text().encode())
    assert counters == []
    assert f"{human_size(shown)} of {limit} · checked as you type · F8: next error" in captions


def _covered(page: Any, locator: Any) -> list[str]:
    """What is drawn over the middle of `locator`'s visible part (nothing: an empty list)."""
    return locator.evaluate(
        """(e) => {
          const r = e.getBoundingClientRect();
          const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
          const hit = document.elementFromPoint(r.left + r.width / 2, (top + bottom) / 2);
          return hit && !e.contains(hit) ? [hit.closest('[data-testid]')?.dataset.testid
                                            ?? hit.tagName, hit.innerText.slice(0, 80)] : [];
        }"""
    )


def test_on_a_phone_a_loaded_preset_is_said_in_the_picker_and_covers_nothing(
    browser: Any, app_server: Any
) -> None:
    # c63ea1e: a toast across the top of the phone's screen covered the page's caption for
    # four seconds; then a "Last preset loaded: …" line under the picker repeated it and
    # moved the editor down (issue 41, item 9).
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_app(context, app_server.url)
        caption = page.get_by_text(re.compile(r"^Paste a payload \(or pick a preset\)"))
        # Scrolled as a reader who has read the title, the picker in the upper half.
        page.mouse.move(PHONE["width"] / 2, 400)
        page.mouse.wheel(0, 130)
        expect(page.locator("[data-testid='stMain']")).to_have_js_property("scrollTop", 130)
        page.locator(".st-key-preset input").click()
        with rerun(page):
            page.get_by_role("option").filter(has_text="Bad SKU").click()

        picker = page.locator(".st-key-preset")
        assert [_covered(page, part) for part in (caption, picker)] == [[], []]
        expect(picker.locator("input")).to_have_value("Bad SKU — A space breaks the SKU pattern.")
        expect(page.get_by_text("Last preset loaded")).to_have_count(0)
        expect(page.locator("[data-testid='stToast']")).to_have_count(0)
        # The verdict spans the page above the payload; the picker is the payload's, by the
        # editor, and says what it holds (issue 41, item 9).
        boxes = [part.bounding_box() for part in (page.get_by_role("alert"), picker)]
        assert boxes[0]["y"] < boxes[1]["y"], boxes
    finally:
        context.close()


def test_on_a_phone_a_states_errors_show_the_path_and_the_whole_message(
    browser: Any, app_server: Any
) -> None:
    # c63ea1e and until this fix: the message column (400 px, one line) ran past the phone's
    # 356 px of grid, each message cut mid-sentence, in the step's violations and in the
    # output the state model refuses.
    context = new_context(browser, viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_app(context, f"{app_server.url}/trace")
        faults = page.locator(".st-key-trace_faults input")
        faults.click()
        faults.fill("bad_status_last")
        with rerun(page):
            page.keyboard.press("Enter")
        page.keyboard.press("Escape")
        with rerun(page):
            page.locator(".st-key-run").get_by_role("button").click()

        grids = page.locator(
            "[data-testid='stDataFrame']:has([role='columnheader']:text-is('message'))"
        )
        expect(grids).to_have_count(2)  # the violations of step 2, the refused output
        for grid in grids.all():
            grid.scroll_into_view_if_needed()
            # The grid draws the headers of the columns in view: the one after the message
            # is drawn only when the message column ends inside the grid.
            headers = grid.locator("[role='columnheader']")
            expect(headers).to_have_text(["path", "message", "type"])
            expect(grid.locator("[role='gridcell']").nth(1)).to_have_text(
                "Input should be 'pending', 'validated' or 'confirmed'"
            )
            box = grid.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
            # One row, tall enough for the message to wrap (one line's row was 35 px).
            assert box["height"] >= 35 + MESSAGE_ROW_HEIGHT, box
    finally:
        context.close()


def test_a_preset_loaded_first_is_one_change_the_editor_can_undo(new_page) -> None:
    # The line naming the preset must not redraw the editor under it: a redrawn editor
    # starts a new undo history (seen while building that line: Ctrl+Z then did nothing).
    page = new_page()
    page.locator(".st-key-preset input").click()
    with rerun(page):
        page.get_by_role("option").filter(has_text="Bad SKU").click()
    expect(editor_frame(page).locator(".cm-content")).to_contain_text('"sku": "bad sku"')
    editor_frame(page).locator(".cm-content").click()
    page.keyboard.press("Control+z")
    expect(editor_frame(page).locator(".cm-line")).to_have_text(SEED_TEXT.split("\n"))
    # The text is the seed order again, no preset's: the box is back on its placeholder.
    expect(page.locator(".st-key-preset input")).to_have_value("")
