"""Cold start: seconds from `streamlit run` to the first rendered page, and what it imported.

Run from the repository root: `python -m bench.cold_start`. Chromium is launched first (not
counted); each round spawns a fresh server, so nothing is warm but the OS file cache.
Prints; never asserts.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from tests.e2e._browser import launch_chromium, new_context, wait_for_runs
from tests.e2e._server import ROOT, machine_load, streamlit_server

__all__ = ["main"]

ROUNDS = 3
# Heavy labs the Validate page must not pull in; the rest show what it does need.
WATCHED = ["pydantic_ai", "core.probes", "core.retry", "core.tools", "langgraph", "pandas"]
# A fresh interpreter runs app.py (default page: Validate) through Streamlit's own script
# runner, as the server does for a first visitor, then reports which modules got imported.
# A subprocess is used because this process already imported half of them.
_IMPORTS_PROBE = """
import json, sys, time
from streamlit.testing.v1 import AppTest
start = time.perf_counter()
at = AppTest.from_file("app.py", default_timeout=120).run()
seconds = time.perf_counter() - start
print(json.dumps({
    "seconds": seconds,
    "exception": [e.value for e in at.exception],
    "title": [t.value for t in at.title],
    "loaded": {name: name in sys.modules for name in %r},
}))
"""


def _first_render(browser: object) -> tuple[float, float, float]:
    """Seconds from spawning the server to: health ok, page loaded (HTML + JS), page rendered."""
    with streamlit_server() as server:
        page = new_context(browser).new_page()
        page.goto(server.url)
        loaded = time.perf_counter()
        wait_for_runs(page, 1)
        page.frame_locator(".st-key-payload_editor iframe").locator(".cm-content").wait_for(
            state="visible"
        )
        rendered = time.perf_counter()
        page.context.close()
        return tuple(t - server.started for t in (server.healthy, loaded, rendered))


def _imports() -> dict:
    result = subprocess.run(
        [sys.executable, "-c", _IMPORTS_PROBE % WATCHED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    """Spawn the server ROUNDS times; then check the Validate page's imports in a fresh process."""
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        rounds = [_first_render(browser) for _ in range(ROUNDS)]
        browser.close()
    print(
        f"cold start: `streamlit run app.py` -> first page rendered in Chromium ({ROUNDS} rounds)"
    )
    for n, (healthy, loaded, rendered) in enumerate(rounds, 1):
        print(
            f"  round {n}: health ok {healthy:5.2f} s, page loaded {loaded:5.2f} s, "
            f"Validate rendered {rendered:5.2f} s"
        )
    print(f"  median first render: {statistics.median(r for *_, r in rounds):.2f} s")
    print(f"  {machine_load()}")

    probe = _imports()
    print(
        f"Validate page in a fresh interpreter (AppTest over app.py): {probe['seconds']:.2f} s, "
        f"title {probe['title']}, exceptions {probe['exception']}"
    )
    for name, loaded in probe["loaded"].items():
        print(f"  {name:<12} {'imported' if loaded else 'not imported'}")
    heavy = [name for name in ("pydantic_ai", "core.probes") if probe["loaded"][name]]
    print(f"  heavy labs imported at start-up: {heavy or 'none'}")


if __name__ == "__main__":
    main()
