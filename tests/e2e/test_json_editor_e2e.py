"""The JSON editor component in Chromium: typing, marks, go-to, undo across reruns, themes, no egress."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from tests.e2e._browser import goto_app, new_context, rerun
from tests.e2e._server import ROOT, Server, streamlit_server

pytestmark = pytest.mark.e2e

APP = "tests/e2e/editor_app.py"
TEXT = '{\n  "order_id": "A-1",\n  "qty": "three",\n  "items": []\n}\n'
QTY_MESSAGE = "Input should be a valid integer, unable to parse string as an integer"
ITEMS_MESSAGE = "List should have at least 1 item after validation"
# The highlight style of JSON strings in frontend/json_editor/src/theme.js.
STRING_COLOURS = {"light": "rgb(163, 21, 21)", "dark": "rgb(206, 145, 120)"}
DEBOUNCE_MS = 400  # json_editor's default, used by the demo page


@pytest.fixture(scope="module")
def editor_server() -> Iterator[Server]:
    with streamlit_server(APP) as server:
        yield server


@pytest.fixture
def guarded_page(browser: Any, editor_server: Server) -> Iterator[tuple[Any, list[str], list[str]]]:
    """The demo page with every request recorded and any not to the app's host aborted."""
    context = new_context(browser, viewport={"width": 1200, "height": 900})
    seen: list[str] = []
    blocked: list[str] = []

    def route(request_route: Any) -> None:
        url = request_route.request.url
        seen.append(url)
        if urlsplit(url).netloc == editor_server.host:
            request_route.continue_()
        else:
            blocked.append(url)
            request_route.abort()

    context.route("**/*", route)
    page = goto_app(context.new_page(), editor_server.url)
    try:
        yield page, seen, blocked
    finally:
        context.close()


def editor_text(frame: Any) -> str:
    """The editor's document as the user sees it, one `.cm-line` per line."""
    return "\n".join(frame.locator(".cm-line").all_text_contents())


def test_editor_marks_goes_to_returns_typing_and_keeps_undo_offline(
    guarded_page: tuple[Any, list[str], list[str]],
) -> None:
    page, seen, blocked = guarded_page
    frame = page.frame_locator(".st-key-editor iframe")
    returned = page.locator(".st-key-returned code")
    editor = frame.locator(".cm-editor")
    expect(frame.locator(".cm-content")).to_have_attribute("aria-label", "JSON")
    assert editor_text(frame) == TEXT
    expect(frame.locator(".cm-lineNumbers .cm-gutterElement", has_text="5")).to_have_count(1)

    # Each mark sits on the token at its line:col, and hovering shows its message.
    expect(frame.locator(".cm-lintRange-error")).to_have_text('"three"')
    expect(frame.locator(".cm-lintRange-warning")).to_have_text("[")
    frame.locator(".cm-lintRange-error").hover()
    expect(frame.locator(".cm-tooltip-lint")).to_have_text(QTY_MESSAGE)
    frame.locator(".cm-lintRange-warning").hover()
    expect(frame.locator(".cm-tooltip-lint")).to_have_text(ITEMS_MESSAGE)

    # Go to puts the caret at 3:10 and focuses the editor; asked again after the caret
    # moved away, it moves it back (same position, new request).
    with rerun(page):
        page.locator(".st-key-goto_qty button").click()
    expect(editor).to_have_attribute("data-caret", "3:10")
    expect(editor).to_contain_class("cm-focused")
    page.keyboard.press("Control+Home")
    expect(editor).to_have_attribute("data-caret", "1:1")
    with rerun(page):
        page.locator(".st-key-goto_qty button").click()
    expect(editor).to_have_attribute("data-caret", "3:10")

    # Typing at the caret, slower than the debounce: every keystroke's value reruns the
    # script, which passes back an older text; none of it is lost or overwritten.
    for _ in range(len('"three"')):
        page.keyboard.press("Delete")
    with rerun(page):
        page.keyboard.type("123", delay=DEBOUNCE_MS + 300)
    typed = TEXT.replace('"three"', "123")
    expect(returned).to_have_text(typed.rstrip("\n"))
    assert editor_text(frame) == typed
    expect(editor).to_have_attribute("data-caret", "3:13")
    # The page's marks follow its text without rebuilding the editor (undo below).
    expect(frame.locator(".cm-lintRange-error")).to_have_count(0)
    expect(frame.locator(".cm-lintRange-warning")).to_have_text("[")

    # The page's own new text (Reset) replaces the content as one change Ctrl+Z takes back.
    with rerun(page):
        page.locator(".st-key-reset button").click()
    expect(returned).to_have_text(TEXT.rstrip("\n"))
    assert editor_text(frame) == TEXT
    frame.locator(".cm-content").focus()
    with rerun(page):
        page.keyboard.press("Control+z")
    expect(returned).to_have_text(typed.rstrip("\n"))
    assert editor_text(frame) == typed

    # Those reruns did not rebuild the editor: undo walks back to the original text, and
    # Ctrl+Enter sends it at once.
    for _ in range(10):
        if editor_text(frame) == TEXT:
            break
        page.keyboard.press("Control+z")
    assert editor_text(frame) == TEXT
    with rerun(page):
        page.keyboard.press("Control+Enter")
    expect(returned).to_have_text(TEXT.rstrip("\n"))
    expect(frame.locator(".cm-lintRange-error")).to_have_text('"three"')

    # Keyboard only: F8 selects each marked token in turn (the caret ends the selection).
    frame.locator(".cm-content").focus()
    page.keyboard.press("Control+Home")
    page.keyboard.press("F8")
    expect(editor).to_have_attribute("data-caret", "3:17")
    page.keyboard.press("F8")
    expect(editor).to_have_attribute("data-caret", "4:13")

    # Go-to scrolls: with the qty line scrolled out of view, it comes back into view.
    qty_line = frame.locator(".cm-line", has_text='"qty"')
    page.keyboard.press("Control+End")
    with rerun(page):
        for _ in range(40):
            page.keyboard.press("Enter")
    expect(qty_line).not_to_be_in_viewport()
    with rerun(page):
        page.locator(".st-key-goto_qty button").click()
    expect(editor).to_have_attribute("data-caret", "3:10")
    expect(qty_line).to_be_in_viewport()

    # Tab is not captured: the keyboard can leave the editor.
    page.keyboard.press("Tab")
    expect(editor).not_to_contain_class("cm-focused")

    expect(page.locator("[data-testid='stException']")).to_have_count(0)
    assert {urlsplit(url).netloc for url in seen} == {urlsplit(page.url).netloc}
    assert any(urlsplit(url).path.endswith("/index.html") for url in seen)  # the component
    assert blocked == []


BACKGROUND = "e => getComputedStyle(e).backgroundColor"
# Perceived brightness of an "rgb(r, g, b)" colour, 0-255.
BRIGHTNESS = """e => {
  const [r, g, b] = getComputedStyle(e).backgroundColor.match(/\\d+/g).map(Number);
  return 0.299 * r + 0.587 * g + 0.114 * b;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_editor_takes_the_colours_of_streamlits_theme(
    browser: Any, editor_server: Server, scheme: str
) -> None:
    context = new_context(browser, color_scheme=scheme)  # Streamlit follows the system's
    try:
        page = goto_app(context.new_page(), editor_server.url)
        app = page.locator("[data-testid='stApp']")
        editor = page.frame_locator(".st-key-editor iframe").locator(".cm-editor")
        expect(editor).to_have_css("background-color", app.evaluate(BACKGROUND))
        assert (app.evaluate(BRIGHTNESS) < 128) == (scheme == "dark")
        expect(
            page.frame_locator(".st-key-editor iframe").locator(".cm-line span", has_text='"A-1"')
        ).to_have_css("color", STRING_COLOURS[scheme])
    finally:
        context.close()


def test_typing_over_a_selection_replaces_it_only_while_the_editor_is_editable(
    browser: Any,
) -> None:
    """The built editor alone, driven by the render messages Streamlit sends: select-all and
    a key replace the text with that key, and nothing else; a disabled editor (Streamlit
    disables components while it is disconnected) keeps its text."""
    context = new_context(browser, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    page.goto((ROOT / "frontend" / "json_editor" / "build" / "index.html").as_uri())
    lines = page.locator(".cm-line")
    try:
        for rev, disabled in ((1, True), (2, False)):
            args = {"text": TEXT, "rev": rev, "debounce_ms": DEBOUNCE_MS, "marks": [],
                    "marks_at": None, "goto": None, "height": 240, "label": "JSON"}  # fmt: skip
            page.evaluate(
                "([args, disabled]) => window.postMessage("
                "{type: 'streamlit:render', args, theme: null, disabled}, '*')",
                [args, disabled],
            )
            expect(lines).to_have_text(TEXT.split("\n"))
            page.locator(".cm-content").click()
            page.keyboard.press("Control+a")
            page.keyboard.type('{"a": 1}')
            expected = TEXT.split("\n") if disabled else ['{"a": 1}']
            expect(lines).to_have_text(expected)
    finally:
        context.close()
