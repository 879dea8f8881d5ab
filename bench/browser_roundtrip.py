"""Browser round trip: submit a payload -> its error row visible, vs an echo-only control page.

Run from the repository root: `python -m bench.browser_roundtrip`. Both servers run at once
and the measurements alternate, so machine load hits both sides alike. Prints; never asserts.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from playwright.sync_api import sync_playwright

from core.order import SEED_PAYLOAD
from core.presets import to_text
from tests.e2e._browser import goto_app, launch_chromium, new_context
from tests.e2e._server import ROOT, cpu_seconds, machine_load, streamlit_server

__all__ = ["main"]

ROUNDS = 10
WARMUP = 2
TIMEOUT_MS = 60_000
# The result each side must show: a grid cell holding the marker (the Validate page's error
# row for the unknown key), or a code block holding it (the echo page).
ERROR_ROW_SHOWN = """(marker) => [...document.querySelectorAll(
  "[data-testid='stDataFrame'] [role='gridcell']")].some((cell) => cell.textContent === marker)"""
ECHO_SHOWN = """(marker) => [...document.querySelectorAll("[data-testid='stCode']")]
  .some((code) => code.textContent.includes(marker))"""


def _round_trip(page: Any, marker: str, shown: str) -> float:
    """Seconds from Ctrl+Enter to the page showing this payload's result."""
    area = page.locator(".st-key-payload textarea")
    area.fill(to_text({**SEED_PAYLOAD, marker: 1}))
    start = time.perf_counter()
    area.press("Control+Enter")
    page.wait_for_function(shown, arg=marker, polling="raf", timeout=TIMEOUT_MS)
    return time.perf_counter() - start


def main() -> None:
    """Measure both round trips in one run and print the medians and their ratio."""
    with (
        streamlit_server() as app,
        streamlit_server(ROOT / "bench" / "echo_app.py") as echo,
        sync_playwright() as playwright,
    ):
        browser = launch_chromium(playwright)
        validate = goto_app(new_context(browser).new_page(), app.url, timeout_ms=TIMEOUT_MS)
        control = goto_app(new_context(browser).new_page(), echo.url, timeout_ms=TIMEOUT_MS)
        samples: dict[str, list[float]] = {"validate": [], "echo": []}
        servers = {"validate": app, "echo": echo}
        cpu: dict[str, float] = {}
        for n in range(WARMUP + ROUNDS):
            if n == WARMUP:
                cpu = {name: cpu_seconds(server.process.pid) for name, server in servers.items()}
            timed = {
                "validate": _round_trip(validate, f"rt_validate_{n:02d}", ERROR_ROW_SHOWN),
                "echo": _round_trip(control, f"rt_echo_{n:02d}", ECHO_SHOWN),
            }
            if n >= WARMUP:
                for name, seconds in timed.items():
                    samples[name].append(seconds)
        for name, server in servers.items():
            cpu[name] = (cpu_seconds(server.process.pid) - cpu[name]) / ROUNDS
        browser.close()

    medians = {name: statistics.median(values) for name, values in samples.items()}
    print(f"browser round trip, median of {ROUNDS} (after {WARMUP} warm-up rounds)")
    for name, values in samples.items():
        spread = ", ".join(f"{v * 1000:.0f}" for v in values)
        print(
            f"  {name:<9} median {medians[name] * 1000:6.1f} ms  "
            f"(server CPU {cpu[name] * 1000:4.0f} ms per round)  samples ms: {spread}"
        )
    print(f"  ratio validate/echo: {medians['validate'] / medians['echo']:.2f}x (target <= 2x)")
    print(f"  {machine_load()}")


if __name__ == "__main__":
    main()
