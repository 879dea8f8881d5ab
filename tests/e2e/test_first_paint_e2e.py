"""The first visitor of a fresh server, in Chromium: the Validate editor is painted before the
verdicts, with the text it will keep, and the same editor stays when the verdicts arrive.

Each test starts its own server: only a process that has not imported the page's heavy
modules yet paints the editor first (a warm one draws the whole page in one fast run).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.presets import SEED_TEXT
from core.share import encode_share
from tests.e2e._browser import editor_frame, editor_value, new_context, wait_for_runs
from tests.e2e._server import streamlit_server

pytestmark = pytest.mark.e2e

# In the page, from its first script: each editor iframe element is counted (a remount makes
# a new one, which loads the editor afresh), its first drawn line is noted (its document is same-origin), and so is LangGraph's verdict when first shown.
# Times on the page's clock.
WATCH = """
if (window === window.top) {
  const note = (name) => { if (window[name] === undefined) window[name] = performance.now(); };
  const frames = new WeakSet();
  window.__editorFrames = 0;
  const look = () => {
    for (const frame of document.querySelectorAll(".st-key-payload_editor iframe")) {
      if (!frames.has(frame)) {
        frames.add(frame);
        window.__editorFrames += 1;
      }
      if (frame.contentDocument?.querySelector(".cm-line")) note("__editorPainted");
    }
    if ([...document.querySelectorAll("[data-testid='stAlert']")]
        .some((alert) => alert.textContent.includes("LangGraph"))) note("__verdictShown");
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
}
"""
TIMES = "() => [window.__editorFrames, window.__editorPainted, window.__verdictShown]"


@pytest.fixture
def first_visit(browser: Any) -> Iterator[Callable[..., tuple[Any, list[Any]]]]:
    """Open a fresh server's first page: the page once LangGraph's verdict is on screen and
    the app is idle, and [editor iframes made, editor painted at, verdict shown at] (ms, the page's
    clock)."""
    contexts: list[Any] = []
    with streamlit_server() as server:

        def visit(query: str = "") -> tuple[Any, list[Any]]:
            context = new_context(browser, viewport={"width": 1400, "height": 900})
            contexts.append(context)
            context.add_init_script(WATCH)
            page = context.new_page()
            page.goto(f"{server.url}/{query}")
            page.wait_for_function("() => window.__verdictShown !== undefined", timeout=60_000)
            wait_for_runs(page, 1)
            return page, page.evaluate(TIMES)

        try:
            yield visit
        finally:
            for context in contexts:
                context.close()


def test_a_fresh_servers_editor_is_painted_before_the_verdict_and_stays(first_visit) -> None:
    page, (loads, painted, shown) = first_visit()
    assert painted < shown, f"editor painted at {painted:.0f} ms, verdict at {shown:.0f} ms"
    expect(editor_frame(page).locator(".cm-line")).to_have_text(SEED_TEXT.split("\n"))
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph runs this payload. Your model alone accepts it too."
    )
    # The same editor: loaded once, and what is typed now is checked as usual.
    assert page.evaluate(TIMES)[0] == loads == 1
    frame = editor_frame(page)
    frame.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(to_text({**SEED_PAYLOAD, "amount": -1}))
    page.keyboard.press("Control+Enter")
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph raises before the first node runs: the graph would not run. 1 error, listed "
        "below, that both LangGraph and your model reject."
    )
    assert page.evaluate(TIMES)[0] == 1


def test_a_share_link_to_a_fresh_server_paints_its_own_payload_first(first_visit) -> None:
    text = to_text({**SEED_PAYLOAD, "amount": 5})
    page, (loads, painted, shown) = first_visit(
        "?s=" + encode_share({"page": "validate", "payload": text})
    )
    assert painted < shown, f"editor painted at {painted:.0f} ms, verdict at {shown:.0f} ms"
    assert loads == 1
    assert editor_value(page) == text
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph runs this payload. Your model alone accepts it too."
    )
