"""Trace page in Chromium: a fault run opens on its failure, native mode blames nobody, a fork
can be stepped through and shows what was edited."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e._browser import rerun, run_trace
from ui.trace_table import STEP_ROW_HEIGHT

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1400, "height": 900}


def _click(page: Any, key: str) -> None:
    with rerun(page):
        page.locator(f".st-key-{key}").get_by_role("button").click()


def _alerts(page: Any) -> list[str]:
    """The alerts' text as read (the invisible word joiner after a colon left out)."""
    alerts = page.locator("[data-testid='stMain'] [data-testid='stAlert']")
    expect(alerts.first).to_be_visible()
    return [text.replace("\u2060", "").strip() for text in alerts.all_inner_texts()]


# Notes where each text drawn on a data grid's canvas ends, in CSS pixels from the canvas'
# left edge, beside the canvas' own width: a column cut by the table's edge ends past it.
_NOTE_HEADERS = """() => {
  window.__headers = {};
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, ...rest) {
    if (this.canvas.closest("[data-testid='stDataFrame']")) {
      const scale = this.getTransform().a || 1;
      const ratio = this.canvas.width / this.canvas.getBoundingClientRect().width || 1;
      const end = (this.getTransform().e + (x + this.measureText(text).width) * scale) / ratio;
      window.__headers[text] = {end, canvas: this.canvas.getBoundingClientRect().width};
    }
    return fillText.call(this, text, x, ...rest);
  };
}"""


def test_a_fault_run_opens_on_the_failing_row_with_its_detail_in_view(new_page) -> None:
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    page.evaluate(_NOTE_HEADERS)
    run_trace(page, fault="bad_status_last")

    table = page.locator("[data-testid='stDataFrame']:has([role='columnheader']:text-is('flag'))")
    selected = table.locator("[role='row'][aria-selected='true']")
    expect(selected).to_have_count(1)
    cells = selected.locator("[role='gridcell']").all_inner_texts()
    assert cells[:4] == ["2", "confirm", "status: literal_error", "first failure"]
    # Finding 3: step, node, check, flag and blame are drawn whole inside the table at 1400 px,
    # no sideways scrolling (the selected row's detail beside it holds the whole error). The
    # grid draws on a canvas: each header's drawn text must end inside the canvas.
    drawn = page.evaluate("window.__headers")
    for name in ("step", "node", "check", "flag", "blame"):
        assert name in drawn and drawn[name]["end"] <= drawn[name]["canvas"], (name, drawn)
    assert _alerts(page)[0] == (
        'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".'
    )
    detail = page.locator(".st-key-trace_detail")
    expect(detail.get_by_text("Step 2 · confirm")).to_be_visible()
    violation = detail.locator("[data-testid='stCode']")
    expect(violation).to_contain_text("status: literal_error")
    # In view as the run finishes: nothing to scroll to.
    assert page.evaluate("window.scrollY") == 0
    box = violation.bounding_box()
    assert box is not None and box["y"] + box["height"] <= LAPTOP["height"], box


def test_native_mode_shows_only_what_langgraph_reports(new_page) -> None:
    page = new_page("trace")
    run_trace(page, fault="negative_amount", native=True)

    main = page.locator("[data-testid='stMain']")
    expect(main.get_by_text("ValidationError").first).to_be_visible()
    text = main.inner_text()
    said = [phrase for phrase in ("blame", "came from", " wrote ", "written by") if phrase in text]
    assert said == [], said  # which node wrote a value is our reading, not LangGraph's
    assert _alerts(page)[0] == (
        "LangGraph stopped at step 2 before confirm [input_invalid]: ValidationError: 1 "
        "validation error for AgentState."
    )


def test_a_forked_branch_can_be_stepped_and_shows_the_edited_fields(new_page) -> None:
    page = new_page("trace")
    run_trace(page)
    _click(page, "next")  # step 1, validate_order
    editor = page.frame_locator(".st-key-fork_text_editor iframe")
    content = editor.locator(".cm-content")
    expect(content).to_contain_text('"status": "validated"')
    state = json.loads("\n".join(editor.locator(".cm-line").all_text_contents()))
    content.focus()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(json.dumps({**state, "logs": ["edited"]}, ensure_ascii=False))
    with rerun(page):
        page.keyboard.press("Control+Enter")  # sends the text at once
    _click(page, "fork")

    diff = page.locator(".st-key-fork_diff")
    expect(diff.locator("[role='gridcell']")).to_have_text(
        ["logs[0]", '"amount=99.0 items=1"', '"edited"']
    )
    detail = page.locator(".st-key-fork_detail")
    expect(detail.get_by_text("Step 2 · update_state")).to_be_visible()
    _click(page, "fork_next")
    expect(detail.get_by_text("Step 3 · confirm")).to_be_visible()
    expect(
        page.get_by_text("Step 3, node confirm; the state shown is the merged state after it.")
    ).to_be_visible()
    _click(page, "fork_prev")
    expect(detail.get_by_text("Step 2 · update_state")).to_be_visible()


def _settled_boxes(page: Any) -> dict[str, Any]:
    """The stepper's boxes once two reads a moment apart agree (the layout has settled)."""
    locators = {
        "prev": page.locator(".st-key-prev").get_by_role("button", name="◀ Prev"),
        "next": page.locator(".st-key-next").get_by_role("button", name="Next ▶"),
        "slider": page.locator(".st-key-step_slider [data-testid='stSlider']"),
    }
    before: dict[str, Any] = {}
    for _ in range(40):
        boxes = {key: locator.bounding_box() for key, locator in locators.items()}
        if boxes == before and all(boxes.values()):
            return boxes
        before = boxes
        page.wait_for_timeout(250)
    raise AssertionError(f"the stepper's layout never settled: {before}")


def test_on_a_phone_prev_and_next_sit_side_by_side_with_the_slider(new_page) -> None:
    page = new_page("trace")
    page.set_viewport_size({"width": 390, "height": 844})
    run_trace(page, fault="bad_status_last")

    boxes = _settled_boxes(page)
    middles = {key: box["y"] + box["height"] / 2 for key, box in boxes.items()}
    # The buttons side by side, the slider not between them (beside them, or under both).
    assert abs(middles["prev"] - middles["next"]) < 2, middles
    assert boxes["prev"]["x"] < boxes["next"]["x"], boxes
    assert boxes["slider"]["x"] > boxes["next"]["x"] or boxes["slider"]["y"] > boxes["next"]["y"], (
        boxes
    )
    # The table's first columns say what happened, within the phone's width.
    table = page.locator(".st-key-trace__table_2")  # the run's table, row 2 selected
    expect(table.locator("[role='columnheader']").first).to_be_attached()
    headers = table.locator("[role='columnheader']").all_inner_texts()
    assert headers[:3] == ["step", "node", "check"], headers


def test_clicking_a_rows_checkbox_opens_that_step(new_page) -> None:
    page = new_page("trace")
    run_trace(page)
    grid = page.locator(".st-key-trace__table_0 [data-testid='stDataFrame']")
    expect(grid.locator("[role='gridcell']").first).to_be_attached()
    box = grid.bounding_box()
    assert box is not None
    header, row = 35, STEP_ROW_HEIGHT  # Streamlit's default row height is the header's
    with rerun(page):
        page.mouse.click(box["x"] + 18, box["y"] + header + row + row / 2)  # validate_order's box
    expect(
        page.locator(".st-key-trace_detail").get_by_text("Step 1 · validate_order")
    ).to_be_visible()
    spoken = page.locator(".st-key-step_slider input[type='range']")
    expect(spoken).to_have_attribute("aria-valuetext", "row 2 of 3 · step 1")


def test_the_merge_view_says_why_a_row_holds_another_nodes_write(new_page) -> None:
    # Issue 22, finding 5: in the fan-out graph notify_email's row already held "sms sent"
    # with no word of why. The why column and the super-step note are in view, not cut.
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    with rerun(page):
        page.locator(".st-key-trace_graph").get_by_text("Fan-out graph").click()
    run_trace(page)
    _click(page, "next")
    _click(page, "next")  # step 2: notify_email, run in one super-step with notify_sms
    expect(
        page.get_by_text(  # plain() puts a word joiner after a colon
            re.compile(r"^Step 2 is one super-step:\W*notify_email, notify_sms ran together")
        )
    ).to_be_visible()
    merge = page.locator(
        "[data-testid='stDataFrame']:has([role='columnheader']:text-is('reducer'))"
    )
    merge.scroll_into_view_if_needed()
    why = merge.locator("[role='columnheader']").filter(has_text="why")
    expect(why).to_have_count(1)
    # The grid does not scroll sideways: every column, why included, is in view.
    scroll, view = merge.locator(".dvn-scroller").evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert scroll <= view + 1, (scroll, view)
    expect(
        merge.locator("[role='gridcell']").filter(
            has_text="merged in super-step 2 with the write of notify_sms"
        )
    ).to_have_count(2)
