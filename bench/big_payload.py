"""A 10,000-item payload through the Validate page in Chromium: time and server peak memory.

Run from the repository root: `python -m bench.big_payload`. The items limit is lifted in the
page's own Schema options (as a user would), then the payload is pasted and submitted; the
clock stops when the verdict and the first error row are on screen. Peak memory is the
server process's VmHWM. Prints; never asserts.
"""

from __future__ import annotations

import time

from playwright.sync_api import sync_playwright

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.schema_options import SchemaOptions, build_model
from core.validate.report import validate_text
from tests.e2e._browser import goto_app, launch_chromium, new_context, rerun, wait_for_runs
from tests.e2e._server import cpu_seconds, machine_load, peak_memory_mb, streamlit_server

__all__ = ["main"]

ITEMS = 10_000
BAD_EVERY = 10  # every 10th item has qty 0: 1,000 error rows
TIMEOUT_MS = 180_000


def _payload() -> tuple[str, int]:
    items = [
        {"sku": f"SKU-{n:05d}", "qty": 0 if n % BAD_EVERY == 0 else 1, "unit_price": 1.5}
        for n in range(ITEMS)
    ]
    return to_text({**SEED_PAYLOAD, "items": items}), len(range(0, ITEMS, BAD_EVERY))


def main() -> None:
    """Lift the limit, submit the big payload, wait for the error table; print time and memory."""
    text, expected_errors = _payload()
    # The page's headline is LangGraph's verdict (core.validate.entry), then the count of the
    # one error table's rows (both reject each qty 0: one row each).
    verdict = f"the graph would not run. {expected_errors} errors, listed below"
    with streamlit_server() as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = goto_app(
            new_context(browser, viewport={"width": 1600, "height": 1000}).new_page(),
            server.url,
            timeout_ms=TIMEOUT_MS,
        )
        baseline_mb = peak_memory_mb(server.process.pid)

        page.get_by_text("Schema options").click()
        limit = page.locator(".st-key-opt_items_max input")
        limit.fill(str(ITEMS))
        with rerun(page, timeout_ms=TIMEOUT_MS):
            limit.press("Enter")

        # Pasted into the code editor: select all, one insertion (as a paste does).
        page.frame_locator(".st-key-payload_editor iframe").locator(".cm-content").click()
        page.keyboard.press("Control+a")
        page.keyboard.insert_text(text)
        cpu = cpu_seconds(server.process.pid)
        runs, since = page.evaluate("[window.__stRuns, performance.now()]")
        start = time.perf_counter()
        page.keyboard.press("Control+Enter")
        page.get_by_text(verdict).first.wait_for(timeout=TIMEOUT_MS)
        page.locator("[data-testid='stDataFrame'] [role='gridcell']").filter(
            has_text="items[0].qty"
        ).first.wait_for(state="attached", timeout=TIMEOUT_MS)  # the grid's a11y DOM is offscreen
        shown = time.perf_counter() - start
        # The clock above stops at the table; this one at the end of the whole page.
        wait_for_runs(page, runs + 1, since=since, timeout_ms=TIMEOUT_MS)
        finished = time.perf_counter() - start
        cpu = cpu_seconds(server.process.pid) - cpu
        peak_mb = peak_memory_mb(server.process.pid)
        exceptions = page.locator("[data-testid='stException']").count()
        browser.close()

    model = build_model(SchemaOptions(items_max=ITEMS))
    start = time.perf_counter()
    report = validate_text(text, model)
    in_process = time.perf_counter() - start

    print(
        f"big payload: {ITEMS:,} items, {len(text.encode()):,} bytes, {expected_errors} bad items"
    )
    print(f"  browser: submit -> verdict + error table visible: {shown:.2f} s")
    print(f"  browser: submit -> whole page finished (script run done): {finished:.2f} s")
    print(f"  server CPU for that run: {cpu:.2f} s (the rest is transfer and browser rendering)")
    print(f"  server peak memory (VmHWM): {peak_mb:.0f} MB")
    print(f"  server peak memory after the first page load: {baseline_mb:.0f} MB")
    print(f"  exception elements on the page: {exceptions}")
    print(f"  {machine_load()}")
    print(
        f"  validate_text alone, in this process: {in_process:.2f} s ({len(report.errors)} errors)"
    )


if __name__ == "__main__":
    main()
