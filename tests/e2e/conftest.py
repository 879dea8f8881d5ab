"""Browser fixtures: one Streamlit server per test module, one Chromium per test session."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect, sync_playwright

from tests.e2e._browser import CHROMIUM, launch_chromium, new_context, open_app
from tests.e2e._server import Server, streamlit_server

VIEWPORT = {"width": 1600, "height": 1000}  # wide enough for the error table's first columns
# Rendering lags the end of a script run by a frame or two, and by seconds on a loaded
# 2-core machine; assertions retry up to this long instead of Playwright's 5 s.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session", autouse=True)
def _require_chromium() -> None:
    # Autouse and session-scoped: runs before any server starts. A missing browser fails the
    # layer (a skip would pass CI having proved nothing); `-m "not e2e"` leaves it out.
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (no browser download)")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def app_server() -> Iterator[Server]:
    with streamlit_server() as server:
        yield server


@pytest.fixture
def new_page(browser: Any, app_server: Server) -> Iterator[Callable[..., Any]]:
    """Open the app in a fresh browser context (its own cookies: its own Streamlit session).

    Call it with a path or query (`new_page("trace")`, `new_page("?s=...")`); every page
    is checked for an exception element when the test ends.
    """
    pages: list[Any] = []

    def open_page(path: str = "", *, url: str | None = None) -> Any:
        page = open_app(new_context(browser, viewport=VIEWPORT), url or f"{app_server.url}/{path}")
        pages.append(page)
        return page

    yield open_page
    try:
        for page in pages:
            exceptions = page.locator("[data-testid='stException']")
            assert exceptions.count() == 0, (
                f"{page.url} shows an exception:\n{exceptions.all_inner_texts()}\n"
                f"server log:\n{app_server.output()[-4000:]}"
            )
    finally:
        for page in pages:
            page.context.close()
