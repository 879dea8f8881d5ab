"""Browser round trip: submit a payload -> its error row visible, vs an echo-only control page.

Run from the repository root: `python -m bench.browser_roundtrip`. Both servers run at once
and the measurements alternate, so machine load hits both sides alike. Prints; never asserts.
"""

from __future__ import annotations

import statistics
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
# Armed in the page right before the key press; times come from the page's own clock, one
# check per animation frame, and count from the Ctrl+Enter keydown as the page receives it
# (`dispatch` is how long Playwright took to deliver it after arming: not the page's work,
# and the same for both pages, so leaving it in would pull the ratio toward 1). `shown` is
# when this payload's result is in the DOM (a grid cell of the error table holding the
# marker, or the echo's code block); `visible` is when the error table's canvas first showed
# its final pixels (glide-data-grid paints its canvas first and fills the grid cells that
# assistive technology reads about 200 ms later). For the echo both are the same moment.
ARM = """([marker, grid]) => {
  const table = () => [...document.querySelectorAll("[data-testid='stDataFrame']")].find(
    (frame) => [...frame.querySelectorAll("[role='columnheader']")]
      .some((header) => header.textContent.includes("pointer")));
  // A checksum of the header and first rows' left part (the marker's row and path column).
  // It runs on the measured page every frame: the whole width cost 2-4 ms a frame there
  // (getImageData), a 480 x 120 px strip about a third of that.
  const pixels = () => {
    const frame = table(), canvas = frame && frame.querySelector("canvas");
    if (!canvas || !canvas.width || !canvas.height) return "";
    const data = canvas.getContext("2d")
      .getImageData(0, 0, Math.min(canvas.width, 480), Math.min(canvas.height, 120)).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 4) sum = (sum * 31 + data[i] + data[i + 1]) | 0;
    return String(sum);
  };
  const shown = () => grid
    ? [...document.querySelectorAll("[data-testid='stDataFrame'] [role='gridcell']")]
        .some((cell) => cell.textContent === marker)
    : [...document.querySelectorAll("[data-testid='stCode']")]
        .some((code) => code.textContent.includes(marker));
  let last = grid ? pixels() : "";
  const changes = [];  // [ms, checksum] each time the table's pixels changed
  const start = performance.now();
  let pressed = null;  // ms after arming: the Ctrl+Enter keydown reaches the page
  const press = (event) => {
    if (event.key === "Enter" && event.ctrlKey && pressed === null) {
      pressed = performance.now() - start;
      document.removeEventListener("keydown", press, true);
    }
  };
  document.addEventListener("keydown", press, true);
  window.__roundTrip = null;
  const check = () => {
    const now = performance.now() - start;
    const seen = grid ? pixels() : "";
    if (seen !== last) { last = seen; changes.push([now, seen]); }
    if (shown()) {
      // Visible: the first frame whose pixels equal the final ones.
      const final = grid ? pixels() : "";
      const first = changes.find(([, seen]) => seen === final);
      window.__roundTrip = pressed === null ? {missed: now} : {
        shown: now - pressed, visible: (first ? first[0] : now) - pressed, dispatch: pressed,
      };
    } else if (now < 60000) {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
}"""
DONE = "() => window.__roundTrip"


def _round_trip(page: Any, marker: str, *, grid: bool) -> dict[str, float]:
    """Seconds from Ctrl+Enter to the result shown (DOM) and visible (final pixels)."""
    area = page.locator(".st-key-payload textarea")
    area.fill(to_text({**SEED_PAYLOAD, marker: 1}))
    page.evaluate(ARM, [marker, grid])
    area.press("Control+Enter")
    page.wait_for_function(DONE, polling=50, timeout=TIMEOUT_MS)
    times = page.evaluate(DONE)
    if "missed" in times:  # never fall back to the arming clock: it flatters the ratio
        raise RuntimeError(f"the page never saw the Ctrl+Enter keydown ({marker})")
    return {name: ms / 1000 for name, ms in times.items()}


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
        samples: dict[str, list[float]] = {"validate": [], "validate_cells": [], "echo": []}
        servers = {"validate": app, "echo": echo}
        cpu: dict[str, float] = {}
        dispatch: list[float] = []
        for n in range(WARMUP + ROUNDS):
            if n == WARMUP:
                cpu = {name: cpu_seconds(server.process.pid) for name, server in servers.items()}
            ours = _round_trip(validate, f"rt_validate_{n:02d}", grid=True)
            echoed = _round_trip(control, f"rt_echo_{n:02d}", grid=False)
            if n >= WARMUP:
                samples["validate"].append(ours["visible"])
                samples["validate_cells"].append(ours["shown"])
                samples["echo"].append(echoed["shown"])
                dispatch += [ours["dispatch"], echoed["dispatch"]]
        for name, server in servers.items():
            cpu[name] = (cpu_seconds(server.process.pid) - cpu[name]) / ROUNDS
        browser.close()

    medians = {name: statistics.median(values) for name, values in samples.items()}
    print(f"browser round trip, median of {ROUNDS} (after {WARMUP} warm-up rounds)")
    labels = {
        "validate": "Validate, error table painted",
        "validate_cells": "Validate, error table's grid cells",
        "echo": "echo control, code shown",
    }
    for name, values in samples.items():
        spread = ", ".join(f"{v * 1000:.0f}" for v in values)
        print(f"  {labels[name]:<36} median {medians[name] * 1000:6.1f} ms  samples ms: {spread}")
    for name in servers:
        print(f"  server CPU per round, {name}: {cpu[name] * 1000:.0f} ms")
    print(
        "  key press delivery, Playwright -> page (not counted above): "
        f"median {statistics.median(dispatch) * 1000:.1f} ms"
    )
    print(
        f"  ratio validate/echo: {medians['validate'] / medians['echo']:.2f}x (target <= 2x); "
        f"to the grid cells: {medians['validate_cells'] / medians['echo']:.2f}x"
    )
    print(f"  {machine_load()}")


if __name__ == "__main__":
    main()
