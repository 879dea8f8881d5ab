"""Cold start: seconds from `streamlit run` to the editor painted, beside Streamlit's echo app.

Run from the repository root: `python -m bench.cold_start`. Chromium is launched first (not
counted); each round spawns a fresh server for each app, alternating which goes first, so
nothing is warm but the OS file cache.
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

ROUNDS = 5
ECHO = ROOT / "bench" / "echo_app.py"  # the control: one text area, echoed
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


def _first_render(browser: object) -> tuple[float, float, float, float]:
    """Seconds from spawning the server to: health ok, page loaded (HTML + JS), the editor
    painted (its text on screen, the verdicts may still be on their way), the first run done."""
    with streamlit_server() as server:
        page = new_context(browser).new_page()
        page.goto(server.url)
        loaded = time.perf_counter()
        page.frame_locator(".st-key-payload_editor iframe").locator(".cm-line").first.wait_for(
            state="visible"
        )
        painted = time.perf_counter()
        wait_for_runs(page, 1)
        done = time.perf_counter()
        page.context.close()
        return tuple(t - server.started for t in (server.healthy, loaded, painted, done))


def _echo_render(browser: object) -> tuple[float, float, float]:
    """The control: Streamlit's one-text-area echo app, from spawn to its text area painted."""
    with streamlit_server(ECHO) as server:
        page = new_context(browser).new_page()
        page.goto(server.url)
        loaded = time.perf_counter()
        page.locator(".st-key-payload textarea").wait_for(state="visible")
        painted = time.perf_counter()
        page.context.close()
        return tuple(t - server.started for t in (server.healthy, loaded, painted))


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
    """Spawn the app's and the echo app's servers ROUNDS times each, alternating; then check
    the Validate page's imports in a fresh process."""
    app: list[tuple[float, ...]] = []
    echo: list[tuple[float, ...]] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for n in range(ROUNDS):  # alternate which goes first, so load hits both alike
            if n % 2:
                app.append(_first_render(browser))
                echo.append(_echo_render(browser))
            else:
                echo.append(_echo_render(browser))
                app.append(_first_render(browser))
        browser.close()
    print(f"cold start: `streamlit run` -> first paint in Chromium ({ROUNDS} rounds each)")
    for n, ((healthy, loaded, painted, done), (_, e_loaded, e_painted)) in enumerate(
        zip(app, echo, strict=True), 1
    ):
        print(
            f"  round {n}: app health {healthy:5.2f} s, loaded {loaded:5.2f} s, editor painted "
            f"{painted:5.2f} s, first run done {done:5.2f} s | echo loaded {e_loaded:5.2f} s, "
            f"text area painted {e_painted:5.2f} s"
        )
    first = statistics.median(r[2] for r in app)
    control = statistics.median(r[2] for r in echo)
    print(
        f"  median first paint: Validate editor {first:.2f} s, echo app {control:.2f} s; "
        f"ratio {first / control:.2f}x (target <= 1.5x)"
    )
    print(
        "  median first run done (every verdict on screen): "
        f"{statistics.median(r[3] for r in app):.2f} s"
    )
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
