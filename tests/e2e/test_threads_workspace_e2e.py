"""Threads as a workspace in Chromium: the list beside the open thread, its tools as tabs."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e._browser import grid_with, new_context, open_app, rerun
from tests.e2e._server import Server

pytestmark = pytest.mark.e2e

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}
# Where an element is drawn, in the page's own coordinates (Streamlit scrolls its main
# section, not the window): its top, bottom, left and right, and the page's whole height.
_DRAWN = """
(element) => {
  const main = document.querySelector("[data-testid='stMain']");
  const box = element.getBoundingClientRect(), frame = main.getBoundingClientRect();
  const top = box.top - frame.top + main.scrollTop;
  return {top: Math.round(top), bottom: Math.round(top + box.height),
          left: Math.round(box.left), right: Math.round(box.right),
          page: main.scrollHeight};
}
"""
TABS = ".st-key-threads_tab [role='tablist']"
LIST = "[data-testid='stDataFrame']:has([role='columnheader']:text-is('thread_id'))"


def _drawn(page: Any, selector: str) -> dict[str, int]:
    locator = page.locator(selector).first
    expect(locator).to_be_visible()
    box: dict[str, int] = locator.evaluate(_DRAWN)
    return box


def _open(browser: Any, url: str, viewport: dict[str, int], *, timeline: bool = True) -> Any:
    page = open_app(new_context(browser, viewport=viewport), url)
    expect(page.locator(".st-key-threads_blame")).to_be_visible()
    expect(page.locator(TABS)).to_be_visible()
    # the list's grid and the timeline's drawn (a canvas each, drawn after the run ends)
    expect(page.locator(f"{LIST} [role='row']")).to_have_count(11)  # the header, 10 threads
    if timeline:
        expect(grid_with(page, "written by").locator("[role='row']")).to_have_count(5)  # clean-1
    page.wait_for_timeout(500)  # a frame for the layout to settle
    return page


def test_at_1400_px_the_list_is_beside_the_thread_and_its_tools_start_within_two_screens(
    browser: Any, app_server: Server
) -> None:
    page = _open(browser, f"{app_server.url}/threads", DESKTOP)
    try:
        listed = _drawn(page, LIST)
        blame = _drawn(page, ".st-key-threads_blame")
        tabs = _drawn(page, TABS)
        print(f"1400x900: list {listed}, headline {blame}, tabs {tabs}")
        assert listed["right"] < blame["left"]  # side by side: the list left, the thread right
        assert blame["top"] < listed["bottom"]  # and level with it, not under it
        # the thread's tools (the tabs' row) begin within two screens of the page's top
        assert tabs["bottom"] <= 2 * DESKTOP["height"], tabs
        assert [t.inner_text() for t in page.locator(f"{TABS} [role='tab']").all()] == [
            "Timeline", "Guard", "Audit", "Migrate", "Unbrick",
        ]  # fmt: skip
    finally:
        page.context.close()


def test_on_a_phone_the_thread_and_its_tabs_come_under_the_list(
    browser: Any, app_server: Server
) -> None:
    page = _open(browser, f"{app_server.url}/threads", PHONE)
    try:
        listed = _drawn(page, LIST)
        blame = _drawn(page, ".st-key-threads_blame")
        tabs = _drawn(page, TABS)
        print(f"390x844: list {listed}, headline {blame}, tabs {tabs}")
        assert listed["bottom"] <= blame["top"] < tabs["top"]  # stacked: list, thread, tools
        assert tabs["right"] <= PHONE["width"]  # the four tabs' row within the screen
    finally:
        page.context.close()


def test_a_share_link_made_on_the_audit_tab_reopens_it(browser: Any, app_server: Server) -> None:
    page = _open(browser, f"{app_server.url}/threads", DESKTOP)
    try:
        with rerun(page):
            page.locator(f"{TABS} [role='tab']").filter(has_text="Audit").click()
        with rerun(page):
            page.get_by_role("button", name="Share link").click()
        link = page.locator("[data-testid='stCode']").filter(has_text="?s=").inner_text().strip()
    finally:
        page.context.close()
    opened = _open(browser, link, DESKTOP, timeline=False)
    try:
        selected = opened.locator(f"{TABS} [role='tab'][aria-selected='true']")
        expect(selected).to_have_text("Audit")
        expect(opened.locator(".st-key-threads_audit_run button")).to_be_visible()
    finally:
        opened.context.close()
