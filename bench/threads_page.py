"""Benchmark: opening the Threads page on a 10,000-thread store, beside the Validate round trip.

Two stores are written as bench/audit.py writes them (real seed-graph runs through
LangGraph's SqliteSaver, their rows copied under new thread ids): 10,000 threads / about
100,000 checkpoints, and 1,000 / 10,000. The app is started once per store with
PLAYGROUND_STORE set, so the Threads page opens on it. Each round, in a fresh browser
context (a new session, nothing cached for it):

- threads 10k / 1k: from navigation (the page's time origin) to the first animation frame
  after the thread list's canvas drew a thread id (glide-data-grid paints its canvas before
  the grid cells that assistive technology reads);
- validate: the Validate round trip of bench/browser_roundtrip.py (Ctrl+Enter -> the error
  table painted), on a page of the 10k server opened once;
- control, opening the Validate page (the app's default) in a new session: navigation ->
  its first script run done (what any page of the app costs to open); the Threads page's
  first script run is printed too.

Rounds alternate the order. Prints medians and ratios (10k over 1k: does opening grow with
the store?; 10k over the Validate round trip), never pass/fail, with the load average.
Run from the repository root: `python -m bench.threads_page [--rounds N] [--quick]`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from bench.audit import build_store
from bench.browser_roundtrip import open_page, round_trip
from core.stores.open import STORE_ENV
from tests.e2e._browser import launch_chromium, new_context
from tests.e2e._server import Server, cpu_seconds, machine_load, streamlit_server

TIMEOUT_MS = 120_000
VIEWPORT = {"width": 1600, "height": 1000}
# In every document of the context, before the app's scripts: note when a data grid's
# canvas first draws a bench thread id (t00000...), then the next frame (painted).
FIRST_ROWS = r"""
window.__rows = {drawn: null, painted: null};
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
  const rows = window.__rows;
  if (rows.drawn === null && typeof text === "string" && /^t\d{5}$/.test(text)
      && this.canvas.closest("[data-testid='stDataFrame']")) {
    rows.drawn = performance.now();
    requestAnimationFrame(() => { rows.painted = performance.now(); });
  }
  return fillText.call(this, text, ...rest);
};
window.__firstRun = null;  // when the first script run of the page finished
new MutationObserver((records, observer) => {
  for (const record of records) {
    if (record.target.getAttribute("data-test-script-state") === "notRunning"
        && record.oldValue !== "notRunning" && window.__firstRun === null) {
      window.__firstRun = performance.now();
      observer.disconnect();
    }
  }
}).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                      attributeFilter: ["data-test-script-state"]});
"""


@contextmanager
def _server_on(spec: str) -> Iterator[Server]:
    with streamlit_server(env={STORE_ENV: spec}) as server:
        yield server


def open_page_timed(browser: Any, server: Server, path: str) -> dict[str, float]:
    """Seconds from navigation to the first script run done (`run`) and, on the Threads
    page, to its thread list's first rows painted (`rows`), in a new session."""
    context = new_context(browser, viewport=VIEWPORT)
    context.add_init_script(FIRST_ROWS)
    try:
        page = context.new_page()
        page.goto(f"{server.url}/{path}", timeout=TIMEOUT_MS)
        done = "window.__rows.painted !== null" if path == "threads" else "true"
        page.wait_for_function(f"() => window.__firstRun !== null && {done}", polling=50,
                               timeout=TIMEOUT_MS)  # fmt: skip
        times: dict[str, float] = page.evaluate(
            "() => ({run: window.__firstRun, rows: window.__rows.painted})"
        )
        return {name: ms / 1000 for name, ms in times.items() if ms is not None}
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="1/10 the store sizes")
    args = parser.parse_args()
    scale = 10 if args.quick else 1
    sizes = {"10k": (10_000 // scale, 100_000 // scale), "1k": (1_000 // scale, 10_000 // scale)}
    print(f"{os.cpu_count()} cores; {machine_load()} at start")
    with tempfile.TemporaryDirectory(prefix="bench-threads-") as tmp, ExitStack() as stack:
        servers: dict[str, Server] = {}
        for name, (threads, checkpoints) in sizes.items():
            spec = str(Path(tmp) / f"store-{name}.sqlite")
            start = time.perf_counter()
            made = build_store("sqlite", spec, threads, checkpoints)
            print(f"store {name}: {made[0]:,} threads / {made[1]:,} checkpoints, written in "
                  f"{time.perf_counter() - start:.1f} s")  # fmt: skip
            servers[name] = stack.enter_context(_server_on(spec))
        playwright = stack.enter_context(sync_playwright())
        browser = launch_chromium(playwright)
        validate = open_page(browser, "validate", servers["10k"])
        samples: dict[str, list[float]] = {
            "10k": [], "10k_run": [], "1k": [], "open_validate": [], "validate": []
        }  # fmt: skip
        cpu = {name: cpu_seconds(server.process.pid) for name, server in servers.items()}
        for n in range(args.rounds + 1):  # round 0 warms both servers up, not counted
            order = ["10k", "1k", "open_validate", "validate"]
            times: dict[str, float] = {}
            for name in order if n % 2 else order[::-1]:
                if name == "validate":
                    times[name] = round_trip(validate, f"tp_{n:02d}", grid=True)["visible"]
                elif name == "open_validate":  # the app's default page, 10k server
                    times[name] = open_page_timed(browser, servers["10k"], "")["run"]
                else:
                    opened = open_page_timed(browser, servers[name], "threads")
                    times[name] = opened["rows"]
                    if name == "10k":
                        times["10k_run"] = opened["run"]
            if n:
                for name, value in times.items():
                    samples[name].append(value)
        cpu = {name: cpu_seconds(s.process.pid) - cpu[name] for name, s in servers.items()}
        browser.close()
    _report(samples, cpu, sizes, args.rounds)


def _report(
    samples: dict[str, list[float]], cpu: dict[str, float], sizes: dict, rounds: int
) -> None:
    medians = {name: statistics.median(values) for name, values in samples.items()}
    labels = {
        "10k": f"Threads page, {sizes['10k'][0]:,} threads: first rows painted",
        "10k_run": "  the same, its first script run done",
        "1k": f"Threads page, {sizes['1k'][0]:,} threads: first rows painted",
        "open_validate": "control: Validate page opened, first script run done",
        "validate": "Validate round trip, error table painted",
    }
    print(f"median of {rounds} rounds (after a warm-up round), fresh session per page open")
    for name, values in samples.items():
        spread = ", ".join(f"{v * 1000:.0f}" for v in values)
        print(f"  {labels[name]:<52} median {medians[name] * 1000:7.1f} ms  samples ms: {spread}")
    print(
        f"  ratio threads {sizes['10k'][0]:,} / {sizes['1k'][0]:,}: "
        f"{medians['10k'] / medians['1k']:.2f}x; threads {sizes['10k'][0]:,} / Validate round "
        f"trip: {medians['10k'] / medians['validate']:.2f}x; threads {sizes['10k'][0]:,} / "
        f"opening the Validate page: {medians['10k'] / medians['open_validate']:.2f}x"
    )
    print("  server CPU over the rounds: " + ", ".join(f"{k} {v:.1f} s" for k, v in cpu.items()))
    print(f"  {machine_load()}")


if __name__ == "__main__":
    main()
