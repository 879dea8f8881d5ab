"""Hostile strings typed into payload fields stay text: no dialog, no injected element, no egress."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from tests.e2e._browser import (
    editor_frame,
    editor_value,
    goto_app,
    new_context,
    rerun,
    submit_payload,
)
from tests.e2e._server import Server

pytestmark = pytest.mark.e2e

HOSTILE = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
    "![x](http://203.0.113.1/p.png)",
    "[click](javascript:alert(1))",
    "$x$",
]
# Anything here means user text was rendered as HTML or Markdown (KaTeX renders `$x$`).
INJECTED = ", ".join(
    [
        "img[src='x']",
        "[onerror]",
        "img[src*='203.0.113.1']",
        "a[href^='javascript:' i]",
        ".katex",
    ]
)
INLINE_ALERT_SCRIPTS = "() => [...document.scripts].filter(s => s.text.includes('alert(')).length"


@dataclass
class Guard:
    """What a page did besides rendering: dialogs, requests (by URL), extra windows."""

    page: Any
    host: str
    dialogs: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    popups: int = 0

    def assert_inert(self) -> None:
        assert self.dialogs == []
        assert self.page.locator(INJECTED).count() == 0
        assert self.page.evaluate(INLINE_ALERT_SCRIPTS) == 0
        assert self.page.get_by_role("link", name="click").count() == 0
        assert self.popups == 0
        hosts = [urlsplit(url).netloc for url in self.urls]
        assert self.host in hosts  # the recorder sees the app's own traffic, so it is on
        assert [url for url, host in zip(self.urls, hosts, strict=True) if host != self.host] == []
        expect(self.page.locator("[data-testid='stException']")).to_have_count(0)


@pytest.fixture
def guarded(browser: Any, app_server: Server) -> Iterator[Guard]:
    context = new_context(browser, viewport={"width": 1600, "height": 1000})
    guard = Guard(page=None, host=app_server.host)

    def route(request_route: Any) -> None:
        url = request_route.request.url
        guard.urls.append(url)
        if urlsplit(url).netloc == guard.host:
            request_route.continue_()
        else:  # recorded above; never let it leave the machine
            request_route.abort()

    def on_dialog(dialog: Any) -> None:
        guard.dialogs.append(dialog.message)
        dialog.dismiss()

    def on_page(_: Any) -> None:
        guard.popups += 1

    context.route("**/*", route)
    page = context.new_page()
    context.on("page", on_page)  # registered after our own page: any later one is a popup
    page.on("dialog", on_dialog)
    page.on("websocket", lambda socket: guard.urls.append(socket.url))
    guard.page = goto_app(page, app_server.url)
    try:
        yield guard
    finally:
        context.close()


def _annotated(page: Any) -> str:
    code = page.locator("[data-testid='stCode']").filter(has_text="│")
    expect(code).to_have_count(1)
    return code.inner_text()


def test_hostile_json_text_is_shown_as_text_on_validate_and_trace(guarded: Guard) -> None:
    page = guarded.page
    raw = "\n".join(HOSTILE)
    submit_payload(page, raw)
    assert all(text in _annotated(page) for text in HOSTILE)
    guarded.assert_inert()

    payload = {
        **SEED_PAYLOAD,
        "user_id": HOSTILE[4],
        "items": [{"sku": HOSTILE[1], "qty": 1, "unit_price": 1}],
        "messages": [{"type": "human", "content": text} for text in HOSTILE],
        HOSTILE[0]: HOSTILE[3],  # a hostile key: extra_forbidden puts it in the path column
    }
    submit_payload(page, to_text(payload))
    expect(page.locator("[data-testid='stAlert']").filter(has_text="LangGraph ")).to_have_text(
        "LangGraph raises before the first node runs: the graph would not run. 3 errors, "
        "listed below: 2 that both LangGraph and your model reject, 1 that only your model "
        "rejects."
    )
    assert all(json.dumps(text) in _annotated(page) for text in HOSTILE)
    guarded.assert_inert()

    with rerun(page):
        page.locator("[data-testid='stSidebarNav'] a[href$='/trace']").click()
    with rerun(page):
        page.locator(".st-key-run").get_by_role("button").click()
    expect(page.get_by_text("Gate closed — 3 errors in the payload;")).to_be_visible()
    # The page's own payload editor holds the text, drawn as text (its first lines in view).
    lines = editor_frame(page, "payload").locator(".cm-line").all_text_contents()
    assert lines[:3] == to_text(payload).splitlines()[:3], lines
    guarded.assert_inert()


def test_hostile_form_inputs_are_shown_as_text(guarded: Guard) -> None:
    page = guarded.page
    with rerun(page):
        page.locator(".st-key-editor_view").get_by_role("radio", name="Form").click()
    for text in HOSTILE:
        for key in ("form_user_id", "form_amount"):
            field_input = page.locator(f".st-key-{key} input")
            field_input.fill(text)
            with rerun(page):
                field_input.press("Enter")
        expect(page.locator(".st-key-form_user_id input")).to_have_value(text)
        # The editor adopts the form's text a frame or two after the run ends.
        for _ in range(50):
            written = json.loads(editor_value(page))
            if (written["user_id"], written["amount"]) == (text, text):
                break
            page.wait_for_timeout(200)
        assert (written["user_id"], written["amount"]) == (text, text)
        guarded.assert_inert()
