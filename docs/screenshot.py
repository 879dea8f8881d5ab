"""Retake the README's screenshot: the Validate page after "Try a broken order", error selected.

Run from the repo root: `python -m docs.screenshot` (Debian's Chromium, the app started on a
free loopback port and stopped after). Writes docs/screenshot.png at 1400 x 900. The seed
order's message is Chinese: without a CJK font (Debian's fonts-wqy-microhei) Chromium draws
it as boxes.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect, sync_playwright

from tests.e2e._browser import launch_chromium, new_context, open_app, rerun
from tests.e2e._server import streamlit_server

OUT = Path(__file__).with_name("screenshot.png")


def main() -> None:
    with streamlit_server() as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = open_app(new_context(browser, viewport={"width": 1400, "height": 900}), server.url)
        with rerun(page):
            page.get_by_role("button", name="Try a broken order").click()
        table = page.locator(".st-key-errors__table")
        expect(table.locator("[role='gridcell']", has_text="6:14")).to_have_count(1)
        with rerun(page):  # the first row's selection box: its details open beside the table
            table.click(position={"x": 16, "y": 70})
        expect(page.locator(".st-key-errors__details")).to_contain_text("Selected error at 6:14")
        page.wait_for_timeout(500)  # the editor's marks and caret settle after the go-to
        page.screenshot(path=str(OUT))
        browser.close()
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
