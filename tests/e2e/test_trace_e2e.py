"""Trace page in Chromium: a fault run opens on its failure, native mode blames nobody, a fork
can be stepped through and shows what was edited."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e._browser import (
    NOTE_DRAWN,
    cut_off,
    editor_value,
    grid_with,
    rerun,
    run_trace,
    submit_payload,
)
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
    # The slider's value, drawn over its thumb, never over a button (at the last row a long
    # one ran left over Next): on a phone the slider has a row of its own, under both
    assert boxes["slider"]["y"] >= boxes["next"]["y"] + boxes["next"]["height"], boxes
    value = page.locator(".st-key-step_slider [data-testid='stSliderThumbValue']").bounding_box()
    assert value is not None and value["y"] >= boxes["next"]["y"] + boxes["next"]["height"], value
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


# Issue 41, item 7: the Trace page steps like a debugger.


def _stepper_at(page: Any, top: float) -> None:
    """Scroll the page so the stepper's buttons are `top` px below the viewport's top."""
    prev = page.locator(".st-key-prev").get_by_role("button")
    y = prev.bounding_box()["y"]
    page.evaluate(f"document.querySelector('.stMain').scrollBy(0, {y - top})")
    page.wait_for_timeout(300)


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_stepping_leaves_the_stepper_where_it_is(new_page) -> None:
    # negative_amount: the failing row's detail (the error in full) is ~380 px taller than
    # the others'; beside the table, it moved the stepper under it on every Prev / Next.
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page, fault="negative_amount")
    _stepper_at(page, 200)
    boxes = [_settled_boxes(page)]
    for key in ("prev", "next"):
        _click(page, key)
        boxes.append(_settled_boxes(page))
    tops = [{name: round(box["y"]) for name, box in step.items()} for step in boxes]
    assert all(abs(top[name] - tops[0][name]) <= 2 for top in tops for name in top), tops
    spoken = page.locator(".st-key-step_slider input[type='range']")
    expect(spoken).to_have_attribute("aria-valuetext", "row 2 of 2 · step 1")


def test_nothing_covers_the_stepper_when_the_diagram_is_hovered(new_page) -> None:
    # The diagram's toolbar (its fullscreen button), drawn on a hover, covered "Next ▶".
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page)
    _click(page, "next")  # row 2: both buttons enabled
    _stepper_at(page, 200)
    diagram = page.locator("[data-testid='stGraphVizChart']")
    diagram.hover()
    toolbar = page.locator(
        "[data-testid='stElementContainer']:has([data-testid='stGraphVizChart']) "
        "[data-testid='stElementToolbar']"
    )
    expect(toolbar).to_be_visible()
    boxes = _settled_boxes(page)
    covered = {
        name: box
        for name, box in boxes.items()
        if _overlaps(box, toolbar.bounding_box()) or _overlaps(box, diagram.bounding_box())
    }
    assert covered == {}, (covered, toolbar.bounding_box())
    # What a click on Next's middle reaches is Next itself.
    box = boxes["next"]
    reached = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).closest('.st-key-next') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert reached


def test_the_diagram_sits_beside_the_steps_input_and_update(new_page) -> None:
    # It was a narrow strip across the page with Input and Update under it, below the fold.
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page)
    _click(page, "next")  # validate_order: an input and an update
    _stepper_at(page, 100)
    diagram = page.locator("[data-testid='stGraphVizChart']").bounding_box()
    heading = {
        name: page.locator("[data-testid='stMarkdownContainer']")
        .filter(has_text=re.compile(f"^{name} —"))
        .bounding_box()
        for name in ("Graph", "Input", "Update")
    }
    code = {
        name: page.locator("[data-testid='stColumn']")
        .filter(has=page.get_by_text(f"{name} —", exact=False))
        .locator("[data-testid='stCode']")
        .first.bounding_box()
        for name in ("Input", "Update")
    }
    # One row: the three headings side by side at one height, left to right.
    tops = [round(heading[name]["y"]) for name in ("Graph", "Input", "Update")]
    assert max(tops) - min(tops) <= 2, heading
    assert heading["Graph"]["x"] < heading["Input"]["x"] < heading["Update"]["x"], heading
    assert diagram["x"] + diagram["width"] <= heading["Input"]["x"], (diagram, heading)
    # The diagram and the top of both values in view with the stepper.
    for box in (diagram, code["Input"], code["Update"]):
        assert 0 < box["y"] < LAPTOP["height"] - 100, (box, code)


def test_the_payload_is_edited_on_the_trace_page_and_run_again_in_one_click(new_page) -> None:
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    run_trace(page)
    text = editor_value(page)
    assert json.loads(text)["amount"] == 99
    submit_payload(page, text.replace('"amount": 99', '"amount": 120'))
    expect(page.get_by_text("The settings or payload changed since this run")).to_be_visible()
    with rerun(page):
        page.locator(".st-key-run").get_by_role("button").click()
    expect(page.get_by_text("The settings or payload changed since this run")).to_have_count(0)
    _click(page, "next")  # validate_order's update holds the amount it read
    update = page.locator("[data-testid='stColumn']").filter(has_text="Update —")
    expect(update.locator("[data-testid='stCode']").first).to_contain_text("amount=120.0 items=1")
    # The same text is the session's payload: the Validate page opens on it.
    with rerun(page):
        page.get_by_role("link", name="Validate").click()
    assert '"amount": 120' in editor_value(page)


def test_at_1400_px_no_word_of_the_trace_table_is_broken(new_page) -> None:
    # Issue 41, item 6: "greater_t / han_equa / l" in a 72 px check column beside an empty
    # 180 px error column. The grid draws each wrapped line with its own fillText: each
    # word drawn whole, and every column inside the table.
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    page.evaluate(f"({NOTE_DRAWN})()")
    run_trace(page, fault="negative_amount")
    table = grid_with(page, "flag")
    expect(table.locator("[role='gridcell']").first).to_be_attached()
    page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
    drawn = table.evaluate("e => Object.keys(e.__drawn || {})")
    words = ["validate_order", "greater_than_equal", "first failure"]
    assert {word: any(word in text for text in drawn) for word in words} == dict.fromkeys(
        words, True
    ), drawn
    assert cut_off(table, ["step", "node", "check", "flag", "blame", "validate_order"]) == {}
    # No row has an error: its column is as wide as its header, inside the table.
    assert cut_off(table, ["error"]) == {}


def test_the_guard_switch_shows_where_the_guard_stops_the_run_and_the_thread_reads(
    new_page,
) -> None:
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    with rerun(page):  # the switch, as a user flips it
        page.locator(".st-key-trace_guard").get_by_text("Guard").click()
    run_trace(page, fault="negative_amount")

    panel = page.locator(".st-key-trace_guard_panel")
    expect(panel).to_be_visible()
    alerts = [
        text.replace("\u2060", "").strip()
        for text in panel.locator("[data-testid='stAlert']").all_inner_texts()
    ]
    assert alerts == [
        "In production the guard stops this run at step 1, written by validate_order: that "
        "state fails AgentState, and nothing of it is stored.",
        "The thread stays readable: get_state_history after the run read 2 checkpoints "
        "(steps -1, 0).",
    ]
    cells = panel.locator("[data-testid='stDataFrame'] [role='gridcell']")
    expect(cells).to_have_count(4)
    assert cells.all_inner_texts() == [
        "amount", "Input should be greater than or equal to 0", "greater_than_equal", "-1",
    ]  # fmt: skip
    box = panel.bounding_box()
    assert box is not None and box["x"] + box["width"] <= LAPTOP["width"]


def test_a_closed_gates_errors_are_readable_whole_under_its_table(new_page) -> None:
    """The gate's table cut its ctx cell at the edge (`{"error": "invalid character: found
    `n` a`): each error is whole under it, wrapped inside the page."""
    page = new_page("trace")
    page.set_viewport_size(LAPTOP)
    text = editor_value(page).replace('"550e8400-e29b-41d4-a716-446655440000"', '"not-a-uuid"')
    submit_payload(page, text)
    run_trace(page)
    expect(page.get_by_text("Gate closed — 1 error in the payload")).to_be_visible()
    whole = page.locator("[data-testid='stExpander'] [data-testid='stCode'] code")
    expect(whole).to_contain_text('ctx\n  {"error": "invalid character: found `n` at 0"}')
    assert whole.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert whole.evaluate("e => e.getBoundingClientRect().right") <= LAPTOP["width"]
