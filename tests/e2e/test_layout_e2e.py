"""Layout at 1400 px (#32 item 8), measured from what the browser draws: each value of the
Trace page's merge view, of the fork's edited fields and of the Threads page's thread list and
timeline is drawn inside its column (wrapped where long), none past its edge (the grids' canvas);
every column of the trace tables is inside the table; the annotated text needs no sideways
scrolling, its carets under their characters; a valid payload's editor takes the room."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import expect

from core.order import SEED_PAYLOAD
from tests.e2e._browser import (
    editor_frame,
    grid_with,
    new_context,
    open_app,
    rerun,
    run_trace,
    submit_payload,
)

pytestmark = pytest.mark.e2e

LAPTOP = {"width": 1400, "height": 900}
HEADER = 35  # the grid's header row, Streamlit's default row height
PADDING = 8.5  # px between a column's left edge and its text

# Every text a grid draws on its canvas, in CSS pixels from the canvas' left and top edges:
# a list, not keyed by text, as two rows may hold the same value.
NOTE_LINES = """() => {
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, ...rest) {
    const grid = this.canvas.closest("[data-testid='stDataFrame']");
    if (grid) {
      const m = this.getTransform();
      const ratio = this.canvas.width / this.canvas.getBoundingClientRect().width || 1;
      grid.__lines = grid.__lines || [];
      grid.__lines.push({
        text,
        start: (m.e + x * (m.a || 1)) / ratio,
        end: (m.e + (x + this.measureText(text).width) * (m.a || 1)) / ratio,
        y: (m.f + rest[0] * (m.d || 1)) / ratio,
      });
    }
    return fillText.call(this, text, x, ...rest);
  };
}"""


@contextmanager
def _laptop(browser: Any, url: str, *, drawn: bool = False) -> Iterator[Any]:
    """`url` opened at 1400 x 900 in a context of its own, closed after; with `drawn`, each
    grid notes where its canvas drew each text (NOTE_LINES)."""
    context = new_context(browser, viewport=LAPTOP)
    if drawn:
        context.add_init_script(f"({NOTE_LINES})()")
    try:
        yield open_app(context, url)
    finally:
        context.close()


def cells_not_whole(grid: Any) -> dict[str, Any]:
    """Each cell of `grid` (all its rows in view) not drawn whole: the lines drawn in its
    column and row, top to bottom, must spell its value, each ending inside its column."""
    lines = grid.evaluate("e => e.__lines || []")
    headers = grid.locator("[role='columnheader']").all_inner_texts()
    canvas = grid.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
    heads = {line["text"]: line for line in lines if line["y"] < HEADER}
    lefts = [heads[header]["start"] - PADDING for header in headers]
    rights = [*lefts[1:], canvas["width"]]
    rows = grid.locator("[role='row']:has([role='gridcell'])")
    count = rows.count()
    height = (canvas["height"] - HEADER) / count  # the rows, all in view, share the rest
    problems: dict[str, Any] = {}
    for row in range(count):
        top = HEADER + row * height
        values = rows.nth(row).locator("[role='gridcell']").all_inner_texts()
        for column, value in enumerate(values):
            left, right = lefts[column], rights[column]
            drawn = {  # a cell redrawn (a hover) draws its lines again, at the same places
                (line["y"], line["start"], line["text"]): line
                for line in lines
                if left <= line["start"] < right and top < line["y"] < top + height
            }
            ordered = [drawn[place] for place in sorted(drawn)]
            spelled = "".join(line["text"] for line in ordered).replace(" ", "")
            inside = all(
                line["end"] <= right + 0.5 and line["y"] + 8 <= top + height for line in ordered
            )
            if spelled != value.replace(" ", "") or not inside:
                problems[f"{headers[column]} of row {row}"] = [
                    (round(line["end"] - right), line["text"]) for line in ordered
                ]
    return problems


def test_at_1400_px_the_merge_views_values_and_why_wrap_inside_their_columns(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the fan-out graph's step 2 merged messages 212 characters long and a why
    # of 51 into columns of 160 and 250 px, drawn on one line past the column's edge: read
    # only by widening the column or scrolling sideways.
    with _laptop(browser, f"{app_server.url}/trace", drawn=True) as page:
        with rerun(page):
            page.locator(".st-key-trace_graph").get_by_text("Fan-out graph").click()
        run_trace(page)
        for _ in range(2):  # step 2: notify_email, in one super-step with notify_sms
            with rerun(page):
                page.locator(".st-key-next").get_by_role("button").click()
        merge = grid_with(page, "reducer", "why")
        merge.scroll_into_view_if_needed()
        expect(merge.locator("[role='gridcell']").filter(has_text="super-step 2")).to_have_count(2)
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        assert cells_not_whole(merge) == {}
        scroll, view = merge.locator(".dvn-scroller").evaluate(
            "e => [e.scrollWidth, e.clientWidth]"
        )
        assert scroll <= view + 1, (scroll, view)


def test_at_1400_px_the_forks_edited_fields_wrap_inside_their_columns(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the fork's diff took its values' natural widths, so a long edited value
    # pushed its last column past the table's edge (read by scrolling sideways).
    with _laptop(browser, f"{app_server.url}/trace", drawn=True) as page:
        run_trace(page)
        with rerun(page):
            page.locator(".st-key-next").get_by_role("button").click()  # validate_order
        editor = page.frame_locator(".st-key-fork_text_editor iframe")
        content = editor.locator(".cm-content")
        expect(content).to_contain_text('"status": "validated"')
        state = json.loads("\n".join(editor.locator(".cm-line").all_text_contents()))
        content.focus()
        page.keyboard.press("Control+a")
        logs = ["a note the user wrote in the edited state, " * 6]  # 264 characters
        page.keyboard.insert_text(json.dumps({**state, "logs": logs}))
        with rerun(page):
            page.keyboard.press("Control+Enter")  # sends the text at once
        with rerun(page):
            page.locator(".st-key-fork").get_by_role("button").click()
        diff = grid_with(page, "path", "original", "edited")
        diff.scroll_into_view_if_needed()
        expect(diff.locator("[role='gridcell']").first).to_have_text("logs[0]")
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        assert cells_not_whole(diff) == {}
        scroll, view = diff.locator(".dvn-scroller").evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert scroll <= view + 1, (scroll, view)


def test_at_1400_px_the_thread_lists_detail_is_drawn_inside_the_table(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the thread list's detail column ran past the table's edge at 1400 px: the
    # demo's "a task raised; next: confirm" and "next: audit, validate_order" were cut.
    with _laptop(browser, f"{app_server.url}/threads", drawn=True) as page:
        threads = grid_with(page, "thread_id", "detail")
        threads.scroll_into_view_if_needed()
        expect(threads.locator("[role='gridcell']").filter(has_text="next: confirm")).to_have_count(
            2
        )
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        # The list sits in a pane beside the open thread (#41 item 1) with three columns
        # (thread_id, status, detail; the open thread's counts under it): all drawn whole.
        assert cells_not_whole(threads) == {}


def drawn_past_edge(grid: Any) -> list[Any]:
    """The texts `grid` drew ending past its canvas' right edge (a column cut by the table's
    edge, or past it); a column scrolled out of view is not drawn: see its scrollWidth."""
    lines = grid.evaluate("e => e.__lines || []")
    canvas = grid.locator("canvas[data-testid='data-grid-canvas']").bounding_box()
    return [(round(line["end"] - canvas["width"]), line["text"]) for line in lines
            if line["end"] > canvas["width"] + 0.5]  # fmt: skip


def overflow(grid: Any) -> tuple[int, int] | None:
    """(scrollWidth, clientWidth) of `grid`'s scroller when it scrolls sideways, else None."""
    scroll, view = grid.locator(".dvn-scroller").evaluate("e => [e.scrollWidth, e.clientWidth]")
    return (scroll, view) if scroll > view + 1 else None


FLAG_HEADER = "[role='columnheader']:text-is('flag')"  # the run's table: the fork's have none


def test_at_1400_px_the_trace_step_tables_and_the_forks_run_tables_fit_their_width(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the run's table (554 px of grid) and the fork's two (460 px each) were
    # 1652, 1538 and 1617 px wide: status, logs, messages, changed and reducers, read only by
    # scrolling sideways, pushed the error past the edge.
    with _laptop(browser, f"{app_server.url}/trace", drawn=True) as page:
        run_trace(page, fault="node_exception")  # confirm raises: an error in a row
        with rerun(page):  # the run opens on confirm's row; the one before: validate_order
            page.locator(".st-key-prev").get_by_role("button").click()
        with rerun(page):
            page.locator(".st-key-fork").get_by_role("button").click()  # the state unedited
        runs = grid_with(page, "node").filter(has_not=page.locator(FLAG_HEADER))
        expect(runs).to_have_count(2)
        tables = {"run": grid_with(page, "flag"), "original": runs.nth(0), "branch": runs.nth(1)}
        drawn = {}
        for name, table in tables.items():
            table.scroll_into_view_if_needed()
            expect(
                table.locator("[role='gridcell']").filter(has_text="RuntimeError")
            ).to_have_count(1)
            page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
            headers = table.locator("[role='columnheader']").all_inner_texts()
            drawn[name] = (headers, overflow(table), drawn_past_edge(table))
        assert drawn == {
            "run": (["step", "node", "check", "flag", "blame", "error"], None, []),
            "original": (["step", "node", "check", "blame", "error"], None, []),
            "branch": (["step", "node", "check", "blame", "error"], None, []),
        }


def test_at_1400_px_a_threads_timeline_is_drawn_inside_the_table_its_ids_whole(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the timeline was 1351 px wide in 938: its checkpoint and parent ids were
    # read by scrolling sideways.
    with _laptop(browser, f"{app_server.url}/threads", drawn=True) as page:
        timeline = grid_with(page, "written by")
        timeline.scroll_into_view_if_needed()
        expect(timeline.locator("[role='gridcell']").first).to_be_attached()
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        assert overflow(timeline) is None
        assert cells_not_whole(timeline) == {}


def test_at_1400_px_the_migration_previews_broken_states_are_drawn_inside_the_table(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: the states a migration plan leaves broken were 939 to 942 px wide in 938
    # (the message at its natural width; a longer one, further), and in one-line rows the
    # demo's thread ids were drawn past their column's edge, under the field's.
    with _laptop(browser, f"{app_server.url}/threads", drawn=True) as page:
        with rerun(page):  # Migrate is a tab of the open thread's tools (#41 item 1)
            page.locator(".st-key-threads_tab [role='tab']").filter(has_text="Migrate").click()
        broken = grid_with(page, "thread", "msg")
        broken.scroll_into_view_if_needed()
        expect(broken.locator("[role='gridcell']").first).to_be_attached()
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        assert (overflow(broken), drawn_past_edge(broken)) == (None, [])
        assert cells_not_whole(broken) == {}


# Where the browser drew each line of a code block: for each line, the tops of its first and
# last characters (two tops: the browser wrapped it); for each caret, its left edge and the
# left edge and character of the same place in the nearest payload line above it.
CODE_LINES = r"""(pre) => {
  const nodes = [];
  let text = "";
  const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    nodes.push([walker.currentNode, text.length]);
    text += walker.currentNode.data;
  }
  const box = (index) => {
    const [node, start] = nodes.filter(([, from]) => from <= index).pop();
    const range = document.createRange();
    range.setStart(node, index - start);
    range.setEnd(node, index - start + 1);
    return range.getBoundingClientRect();
  };
  const lines = [];
  let from = 0;
  for (const line of text.split("\n")) {
    if (line.trimEnd()) lines.push({line, from, end: from + line.trimEnd().length - 1});
    from += line.length + 1;
  }
  const wrapped = lines.filter((l) => box(l.from).top !== box(l.end).top).map((l) => l.line);
  const carets = [];
  let above = null;
  for (const l of lines) {
    if (/^[▶ ] *\d+ │|^ *┆/.test(l.line)) above = l;
    const at = l.line.indexOf("^");
    if (at >= 0 && above !== null && !/\d/.test(l.line.slice(0, at))) {
      carets.push({x: box(l.from + at).left, above: box(above.from + at).left,
                   char: above.line[at]});
    }
  }
  return {scroll: pre.scrollWidth, client: pre.clientWidth, wrapped, carets};
}"""


def test_at_1400_px_the_annotated_texts_long_line_goes_on_in_pieces_its_carets_in_place(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8: a payload line longer than the page (here 200 characters on one line) was
    # drawn on one line in the annotated text, read by scrolling sideways.
    with _laptop(browser, app_server.url) as page:
        user = SEED_PAYLOAD["user_id"]
        payload = {"user_id": user, "logs": ["note " * 20], "amount": -1, "status": "shipped"}
        submit_payload(page, json.dumps(payload))
        code = page.locator("[data-testid='stCode']").filter(has_text="│")
        expect(code).to_contain_text("^ literal_error at status")
        drawn = code.locator("pre").evaluate(CODE_LINES)
        assert drawn["scroll"] <= drawn["client"], drawn
        assert drawn["wrapped"] == []  # each line on one line: a wrap moves a caret
        carets = [
            (caret["char"], round(caret["x"] - caret["above"], 1)) for caret in drawn["carets"]
        ]
        assert carets == [("-", 0), ('"', 0)]  # under the amount's -1 and the status' value


EDITOR_COLUMN = "[data-testid='stColumn']:has(.st-key-payload_editor)"


def _line_heights(editor: Any) -> list[float]:
    lines = editor.locator(".cm-line")
    expect(lines.first).to_have_text("{")
    heights: list[float] = lines.evaluate_all(
        "ls => ls.map((l) => l.getBoundingClientRect().height)"
    )
    return heights


def test_at_1400_px_the_editor_keeps_its_width_when_a_verdict_arrives(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, item 9: "Try a broken order" narrowed the editor from 497 to 326 px (the
    # errors column took the room), and its lines wrapped anew; #32 item 8 before it: the
    # seed's user_id line wrapped over two.
    with _laptop(browser, app_server.url) as page:
        editor = editor_frame(page)
        heights = _line_heights(editor)
        assert heights == [heights[0]] * len(heights)  # the user_id's line too: none wrapped
        before = page.locator(EDITOR_COLUMN).bounding_box()["width"]
        frame = page.locator(".st-key-payload_editor iframe").element_handle().content_frame()
        frame.evaluate("window.__kept = true")  # the editor's iframe stays (its undo history)
        with rerun(page):
            page.locator(".st-key-broken_example").get_by_role("button").click()
        expect(page.locator(".st-key-errors__table")).to_be_visible()
        page.wait_for_timeout(500)  # the columns are laid out after the run
        after = page.locator(EDITOR_COLUMN).bounding_box()["width"]
        heights = _line_heights(editor)
        assert (before, heights, frame.evaluate("window.__kept")) == (
            after,
            [heights[0]] * len(heights),
            True,
        )
        assert before > 480, before


def test_at_1400_px_every_error_message_is_drawn_whole_in_its_row(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, item 6: a long message was cut at its row's foot (four lines of 100 px rows).
    with _laptop(browser, app_server.url, drawn=True) as page:
        item = {"sku": "SKU-01", "qty": "x", "unit_price": "abc"}  # messages of 69 and 66 chars
        short = SEED_PAYLOAD["user_id"][:-1]  # a message of 84 characters
        payload = {**SEED_PAYLOAD, "user_id": short, "status": "shipped", "items": [item]}
        submit_payload(page, json.dumps(payload, indent=2))
        grid = grid_with(page, "path", "message")
        expect(grid.locator("[role='gridcell']").filter(has_text="literal_error")).to_have_count(0)
        expect(grid.locator("[role='gridcell']").filter(has_text="'confirmed'")).to_have_count(1)
        page.wait_for_timeout(500)  # the canvas is drawn a frame after the DOM
        # What is drawn now, at the columns' final widths (a first draw, as the table was
        # laid out, wrapped "items[0].qty" in a narrower column): a resize redraws it all.
        grid.evaluate("e => { e.__lines = []; }")
        page.set_viewport_size({**LAPTOP, "height": LAPTOP["height"] + 1})
        page.wait_for_timeout(500)
        assert cells_not_whole(grid) == {}
        # Each path on one line: its column as wide as the longest needs (it was broken
        # mid-name, "items[0].un / it_price").
        paths = ["user_id", "status", "items[0].qty", "items[0].unit_price"]
        drawn = {line["text"] for line in grid.evaluate("e => e.__lines")}
        assert [path for path in paths if path not in drawn] == []


def test_on_a_phone_the_annotated_text_keeps_each_line_on_one_line(
    browser: Any, app_server: Any
) -> None:
    # Issue 41, item 9: at 390 px a payload line wrapped under the line numbers' gutter.
    context = new_context(browser, viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        page = open_app(context, app_server.url)
        with rerun(page):
            page.locator(".st-key-broken_example").get_by_role("button").click()
        with rerun(page):
            page.locator(".st-key-validate_view").get_by_text("Annotated text", exact=True).click()
        code = page.locator("[data-testid='stCode']").filter(has_text="│").locator("code")
        expect(code).to_contain_text("string_pattern_mismatch")
        lines, height, line_height = code.evaluate(
            "e => [e.textContent.replace(/\\n$/, '').split('\\n').length,"
            " e.getBoundingClientRect().height, parseFloat(getComputedStyle(e).lineHeight)]"
        )
        assert round(height / line_height) == lines, (height, line_height, lines)
    finally:
        context.close()


# Every data grid and code block of the page whose content is wider than its box: it would be
# read by scrolling sideways. [kind, content width, box width, first characters].
SIDEWAYS = """() => {
  const found = [];
  for (const scroller of document.querySelectorAll(".dvn-scroller")) {
    if (scroller.scrollWidth > scroller.clientWidth + 1) {
      found.push(["grid", scroller.scrollWidth, scroller.clientWidth,
                  scroller.closest("[data-testid='stDataFrame']").innerText.slice(0, 40)]);
    }
  }
  for (const pre of document.querySelectorAll("[data-testid='stMain'] pre")) {
    if (pre.offsetParent && pre.scrollWidth > pre.clientWidth + 1) {
      found.push(["code", pre.scrollWidth, pre.clientWidth, pre.textContent.slice(0, 40)]);
    }
  }
  return found;
}"""


def test_at_1400_px_no_page_has_a_table_or_code_block_read_by_scrolling_sideways(
    browser: Any, app_server: Any
) -> None:
    # #32 item 8, every page as a visitor first sees it (Trace after a run, Validate in each
    # of its views). Before: Validate's LangGraph differences were 1062 px in 938, the
    # Behaviour lab's probes 1750 in 938, the Retry lab's two timelines 2737 and 2686 in 460,
    # the Tool lab's JSON 981 in 940, Trace's state JSON 469 in 462.
    seen: dict[str, list[Any]] = {}
    with _laptop(browser, app_server.url) as page:
        for view in ("Annotated text", "Coercion lens", "What LangGraph would do",
                     "Model source", "JSON Schema"):  # fmt: skip
            with rerun(page):
                page.locator(".st-key-validate_view").get_by_text(view, exact=True).click()
            page.wait_for_timeout(500)  # the grids lay out after the run
            seen[f"validate: {view}"] = page.evaluate(SIDEWAYS)
        for path in ("trace", "threads", "behaviour", "tools", "retry"):
            page = open_app(page.context, f"{app_server.url}/{path}")
            if path == "trace":
                run_trace(page, fault="overwrite_logs")
            page.wait_for_timeout(500)
            seen[path] = page.evaluate(SIDEWAYS)
        assert seen == dict.fromkeys(seen, []), seen
