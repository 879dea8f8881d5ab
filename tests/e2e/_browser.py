"""Drive the app in Debian's Chromium: launch it, open pages, wait for Streamlit's script runs."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from playwright.sync_api import expect

from ui.validate.first_paint import LOADING

__all__ = [
    "NOTE_DRAWN",
    "cut_off",
    "grid_with",
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "IDLE_AFTER_RUNS",
    "RUN_COUNTER_SCRIPT",
    "editor_frame",
    "editor_value",
    "goto_app",
    "launch_chromium",
    "new_context",
    "open_app",
    "rerun",
    "run_trace",
    "submit_payload",
    "wait_for_runs",
]

CHROMIUM = "/usr/bin/chromium"  # Debian's package; never a Playwright browser download
CHROMIUM_ARGS = [
    "--no-sandbox",  # the container runs as root
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Chromium's own background traffic would muddy the "no foreign request" checks.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
RUN_TIMEOUT_MS = 30_000
QUIET_MS = 1_500


def launch_chromium(playwright: Any) -> Any:
    """Debian's Chromium through Playwright's sync API (`playwright.chromium.launch`)."""
    return playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)


# Counts finished script runs: Streamlit flips `data-test-script-state` on its root element
# initial -> running -> notRunning on every run. A counter (rather than polling for
# "notRunning") is not fooled by the state left over from the previous run.
RUN_COUNTER_SCRIPT = """
window.__stRuns = 0;
new MutationObserver((records) => {
  for (const record of records) {
    const now = record.target.getAttribute("data-test-script-state");
    if (now === "notRunning" && record.oldValue !== "notRunning") window.__stRuns += 1;
  }
}).observe(document, {
  subtree: true, attributes: true, attributeOldValue: true,
  attributeFilter: ["data-test-script-state"],
});
"""
# arg: [runs, since, quiet_ms]. React may commit "running" and "notRunning" in one render on
# a busy machine, so a run can pass unseen: given `since` (performance.now() at the
# interaction), an idle page with no stale element `quiet_ms` after it also counts as settled.
IDLE_AFTER_RUNS = """
([count, since, quietMs]) => {
  const idle = document.querySelector("[data-testid='stApp']"
    + "[data-test-connection-state='CONNECTED'][data-test-script-state='notRunning']") !== null;
  if (!idle) return false;
  if (window.__stRuns >= count) return true;
  return since !== null && performance.now() - since > quietMs
    && document.querySelector("[data-stale='true']") === null;
}
"""


def new_context(browser: Any, **options: Any) -> Any:
    """A browser context (its own cookies, so its own Streamlit session) that counts runs."""
    context = browser.new_context(**options)
    context.add_init_script(RUN_COUNTER_SCRIPT)
    return context


def open_app(context: Any, url: str) -> Any:
    """Open `url` in a new page of `context` and wait until the first script run has finished."""
    return goto_app(context.new_page(), url)


def goto_app(page: Any, url: str, *, timeout_ms: int = RUN_TIMEOUT_MS) -> Any:
    """Load `url` in `page` (of a `new_context`) and wait until the first script run finished.

    On a fresh server Validate's first run is its first paint (the editor, then a rerun into
    the whole page): the wait lasts until that page is drawn and the app is idle again.
    """
    page.goto(url, timeout=timeout_ms)
    wait_for_runs(page, 1, timeout_ms=timeout_ms)
    page.wait_for_function(
        "(note) => !document.body.innerText.includes(note)", arg=LOADING, timeout=timeout_ms
    )
    wait_for_runs(page, 1, timeout_ms=timeout_ms)
    return page


def wait_for_runs(
    page: Any, count: int, *, since: float | None = None, timeout_ms: int = RUN_TIMEOUT_MS
) -> None:
    """Block until `count` script runs have finished in this page and the app is idle.

    `since` (the page's `performance.now()` when the interaction happened) allows the
    quiet-page fallback of IDLE_AFTER_RUNS.
    """
    page.wait_for_function(IDLE_AFTER_RUNS, arg=[count, since, QUIET_MS], timeout=timeout_ms)


@contextmanager
def rerun(page: Any, *, timeout_ms: int = RUN_TIMEOUT_MS) -> Iterator[None]:
    """Wait, on leaving the block, for the script run that the block's interaction caused.

    Example:
        >>> with rerun(page):  # doctest: +SKIP
        ...     page.locator(".st-key-share").get_by_role("button").click()
    """
    before, since = page.evaluate("[window.__stRuns, performance.now()]")
    yield
    wait_for_runs(page, before + 1, since=since, timeout_ms=timeout_ms)


def editor_frame(page: Any, key: str = "payload") -> Any:
    """The code editor (ui.editor.json_editor) a page draws for the text it keeps under `key`,
    scrolled into view first (below a long form, its iframe would not have loaded)."""
    page.locator(f".st-key-{key}_editor").scroll_into_view_if_needed()
    return page.frame_locator(f".st-key-{key}_editor iframe")


def editor_value(page: Any, key: str = "payload") -> str:
    """The editor's text as the user sees it, one `.cm-line` per line (short texts only:
    CodeMirror draws the lines near its viewport)."""
    return "\n".join(editor_frame(page, key).locator(".cm-line").all_text_contents())


def submit_payload(page: Any, text: str, *, key: str = "payload") -> None:
    """Replace the editor's content, submit it as a user does (Ctrl+Enter), wait for the run."""
    frame = editor_frame(page, key)
    content, editor = frame.locator(".cm-content"), frame.locator(".cm-editor")
    # Typing goes where the caret is: a page still laying out (the Form view's grid loads
    # after the form) can move another field under the click, as seen once in CI, when the
    # text went into the form's messages field. Click again until the editor has the focus.
    for attempt in range(3):
        content.click()
        try:
            expect(editor).to_contain_class("cm-focused", timeout=1_000)
            break
        except AssertionError:
            if attempt == 2:
                raise
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)
    with rerun(page):
        page.keyboard.press("Control+Enter")


def run_trace(page: Any, *, fault: str | None = None, native: bool = False) -> None:
    """On the Trace page: pick a fault and the mode as a user does, then press Run."""
    if fault is not None:
        box = page.locator(".st-key-trace_faults input")
        box.click()
        box.fill(fault)
        with rerun(page):
            page.keyboard.press("Enter")
        page.keyboard.press("Escape")
    if native:
        with rerun(page):
            page.locator(".st-key-trace_mode").get_by_text("LangGraph native").click()
    with rerun(page):
        page.locator(".st-key-run").get_by_role("button").click()


# Notes, per data grid, where each text drawn on its canvas ends, in CSS pixels from the
# canvas' left edge, beside the canvas' own width: a column cut by the table's right edge
# ends past it (test_trace_e2e.py does the same at 1400 px). The grid's accessibility DOM
# lists a cut column as present, so only what is drawn can tell.
NOTE_DRAWN = """() => {
  const fillText = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, x, ...rest) {
    const grid = this.canvas.closest("[data-testid='stDataFrame']");
    if (grid) {
      const scale = this.getTransform().a || 1;
      const ratio = this.canvas.width / this.canvas.getBoundingClientRect().width || 1;
      const end = (this.getTransform().e + (x + this.measureText(text).width) * scale) / ratio;
      const start = (this.getTransform().e + x * scale) / ratio;
      const y = (this.getTransform().f + rest[0] * (this.getTransform().d || 1)) / ratio;
      grid.__drawn = grid.__drawn || {};
      grid.__drawn[text] = {start, end, y, canvas: this.canvas.getBoundingClientRect().width};
    }
    return fillText.call(this, text, x, ...rest);
  };
}"""


def grid_with(page: Any, header: str, *more: str) -> Any:
    """The data grid that has a column headed `header` (and one headed each of `more`)."""
    has = "".join(f":has([role='columnheader']:text-is('{name}'))" for name in (header, *more))
    return page.locator(f"[data-testid='stDataFrame']{has}")


def cut_off(grid: Any, texts: list[str]) -> dict[str, Any]:
    """Which of `texts` were not drawn, or were drawn ending past the grid's right edge."""
    drawn = grid.evaluate("e => e.__drawn || {}")
    return {
        text: drawn.get(text)
        for text in texts
        if text not in drawn or drawn[text]["end"] > drawn[text]["canvas"]
    }


def validate_and_write_fork(page: Any) -> None:
    """Threads' unbrick: Validate the edited state, see it accepted, Write it, see it written."""
    with rerun(page):
        page.locator(".st-key-threads_unbrick_validate").get_by_role("button").click()
    expect(page.get_by_text("Valid. This is exactly what will be written")).to_be_visible()
    with rerun(page):
        page.locator(".st-key-threads_unbrick_write").get_by_role("button").click()
    expect(page.get_by_text("Written. The thread's new latest checkpoint")).to_be_visible()
