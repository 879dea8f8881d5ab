"""Cold start: seconds from `streamlit run` to the editor painted, beside Streamlit's echo app.

Run from the repository root: `python -m bench.cold_start`. Chromium is launched first (not
counted); each round spawns a fresh server for each app, alternating which goes first, so
nothing is warm but the OS file cache.
Prints; never asserts. Target (issue 44): the editor's first paint <= 1.3x the echo app's.

Where the time goes (2026-12-05, load average 6-7 on 2 shared cores, so every number is
noisy; the server-side marks are wall time inside the first run). From spawn to health both
servers are alike (0.5-1.5 s), and the page's HTML and JS load alike. The difference is the
first script run, between the websocket opening and the editor's delta leaving the server:
the echo app sends its text area within milliseconds; the Validate page's first paint
(ui/validate/first_paint.py: the frame and the editor, the heavy imports after) spent
0.3-1.3 s there, almost all of it inside the first `json_editor` call, i.e. Streamlit's v1
custom-component call: it imports pyarrow (and with it numpy) unconditionally, and it asks
`is_dataframe_like` of every argument that is not a scalar, str or tuple. The editor's
`marks` argument is a list, so that question imports pandas too (cProfile of that call:
0.56 s, of which pandas 0.29, pyarrow with numpy 0.26). Our own imports before it (app.py's
ui.access -> core.project.load -> pydantic; the first paint's modules) are about 0.1 s idle
(`python -X importtime`, streamlit already loaded: pydantic 0.04-0.06 s, ours 0.05 s);
Streamlit's declare_component for the editor spends 0.03 s in inspect.getmodule. After the
delta, the editor's iframe (one 364 KB index.html) loads and paints in 0.3-0.6 s; the heavy
imports running meanwhile in the server cost it nothing measurable (the same paint with
them held back 2 s: 0.94-1.26 s -> 1.04-1.61 s from the websocket, i.e. no gain).

Ratios, this bench on the working tree (HEAD e0db5b0 and after): 1.65x, 1.22x, 1.54x, 1.61x.
With the editor's marks passed as a tuple (serialised alike: JSON has no tuples, and
`is_dataframe_like` answers False for a tuple at once, so pandas is not imported before the
paint), in a copy of the tree, runs interleaved with the last two: 1.13x, 1.21x (median
paint 4.09 s -> 2.23 s, 3.17 s -> 2.89 s). The same copy with pydantic
imported only where a model is asked about (core.project.load and .checks: `import app`
then loads no pydantic): 1.20x, 1.47x, against 1.62x, 1.36x for the tree, interleaved, at
load 6-10. CPU time of each import in a fresh process with Streamlit loaded (robust under
load, three runs): pandas 0.19-0.28 s, pyarrow with numpy 0.14-0.21 s, pydantic 0.07-0.10 s.
What stays on the path is pyarrow and numpy, which any v1 component call imports; a
components-v2 editor would not.
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
        f"ratio {first / control:.2f}x (target <= 1.3x)"
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
