"""Benchmark: a decode bomb uploaded to the Threads page, against the same store without it.

One fresh server per store, one Chromium page: the page opens on the demo store, the visitor
picks "Upload" and drops the file; timed from the drop to the page showing the upload's
thread list (or saying it cannot read it), then from Run audit to the audit's end. Printed
per store: those times and the server's peak resident memory (VmHWM) over what it was just
before the drop (targets for the bomb, issue 39: answered in <= 1 s, <= 64 MB more than the
clean store's). The bomb is bench/_hostile.py's: a real SqliteSaver store whose first
thread's latest checkpoint is a msgpack array of 8,000,000 empty maps (8 MB).
Prints numbers; never fails. Run: python -m bench.decode_page

Measured 2026-12-05 (load average 3 on 2 CPUs, another test run beside it): clean store
upload -> list 0.50 s, +2 MB; audit 1.16 s. Bomb: upload -> list 0.59 s, +56 MB; audit
0.66 s (its bomb row refused as row_too_large, not read); +55 MB over the clean store's peak.
Before the budget (issue 39 at filing): +1.14 GB and 15 s.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench._hostile import AUDIT_ENDED, READ, write_bomb_stores
from bench.audit import build_store
from tests.e2e._browser import launch_chromium, new_context, open_app
from tests.e2e._server import machine_load, peak_memory_mb, streamlit_server

__all__ = ["main"]

_UPLOAD_INPUT = ".st-key-threads_upload input[type='file']"
_TIMEOUT_MS = 300_000
_CODE = re.compile(r"\[(row_[a-z_]+)\]")


def _measure(store: Path) -> dict[str, object]:
    with streamlit_server() as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            page = open_app(new_context(browser), f"{server.url}/threads")
            page.get_by_text("Upload a SQLite store").click()
            page.locator(_UPLOAD_INPUT).wait_for(state="attached", timeout=_TIMEOUT_MS)
            time.sleep(1.0)  # the page's run after the click has ended
            before = peak_memory_mb(server.process.pid)
            start = time.perf_counter()
            page.locator(_UPLOAD_INPUT).set_input_files(store)
            page.wait_for_function(READ, arg=store.name, timeout=_TIMEOUT_MS)
            read = time.perf_counter() - start
            after_read = peak_memory_mb(server.process.pid)
            codes = sorted(set(_CODE.findall(page.locator("[data-testid='stMain']").inner_text())))
            start = time.perf_counter()
            page.locator(".st-key-threads_audit_run").get_by_role("button").click()
            page.wait_for_function(AUDIT_ENDED, timeout=_TIMEOUT_MS)
            audit = time.perf_counter() - start
            after_audit = peak_memory_mb(server.process.pid)
        finally:
            browser.close()
    return {
        "read_s": read,
        "audit_s": audit,
        "read_mb": after_read - before,
        "audit_mb": after_audit - before,
        "codes": codes,
    }


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="decode-page-") as tmp:
        bomb, _ = write_bomb_stores(Path(tmp))
        clean = Path(tmp) / "clean.sqlite"
        build_store("sqlite", str(clean), 10, 60)
        print(machine_load())
        results = {name: _measure(path) for name, path in (("clean", clean), ("bomb", bomb))}
    for name, got in results.items():
        print(
            f"{name:5}: upload -> thread list {got['read_s']:.2f} s, peak +{got['read_mb']:.0f} MB;"
            f" audit {got['audit_s']:.2f} s, peak +{got['audit_mb']:.0f} MB; codes {got['codes']}"
        )
    extra = results["bomb"]["audit_mb"] - results["clean"]["audit_mb"]  # type: ignore[operator]
    print(f"the bomb's peak over the clean store's: {extra:+.0f} MB (target <= 64 MB)")


if __name__ == "__main__":
    main()
