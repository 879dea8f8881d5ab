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
# Armed in the page right before the key press; times come from the page's own clock and
# count from the Ctrl+Enter keydown as the page receives it (`dispatch` is how long
# Playwright took to deliver it after arming: not the page's work, and the same for both
# pages, so leaving it in would pull the ratio toward 1). `shown` is when this payload's
# result is in the DOM (a grid cell of the error table holding the marker, or the echo's code
# block); `visible` is the first animation frame after the error table's canvas drew the
# marker (glide-data-grid paints its canvas first and fills the grid cells that assistive
# technology reads about 200 ms later). The draw is seen by wrapping the canvas' fillText,
# so the probe reads no pixels: a checksum of the canvas on every frame cost the measured
# page 1-2 ms a frame, billed to Validate only. For the echo both are the same moment.
ARM = """([marker, grid]) => {
  if (!window.__drawHook) {  // once per page: note when a canvas draws the current marker
    window.__drawHook = true;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      const probe = window.__probe;
      if (probe && probe.drawn === null && text === probe.marker
          && this.canvas.closest("[data-testid='stDataFrame']")) {
        probe.drawn = performance.now();
        requestAnimationFrame(() => { probe.painted = performance.now(); });
      }
      return fillText.call(this, text, ...rest);
    };
  }
  const probe = {marker, drawn: null, painted: null};
  window.__probe = grid ? probe : null;
  const shown = () => grid
    ? [...document.querySelectorAll("[data-testid='stDataFrame'] [role='gridcell']")]
        .some((cell) => cell.textContent === marker)
    : [...document.querySelectorAll("[data-testid='stCode']")]
        .some((code) => code.textContent.includes(marker));
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
    if (shown()) {
      const painted = grid ? probe.painted : performance.now();
      window.__roundTrip = pressed === null ? {missed: "keydown"}
        : painted === null ? {missed: "canvas draw"} : {
          shown: now - pressed, visible: painted - start - pressed, dispatch: pressed,
        };
    } else if (now < 60000) {
      requestAnimationFrame(check);
    }
  };
  requestAnimationFrame(check);
}"""
DONE = "() => window.__roundTrip"


def _round_trip(page: Any, marker: str, *, grid: bool) -> dict[str, float]:
    """Seconds from Ctrl+Enter to the result shown (DOM) and visible (painted on screen)."""
    area = page.locator(".st-key-payload textarea")
    area.fill(to_text({**SEED_PAYLOAD, marker: 1}))
    page.evaluate(ARM, [marker, grid])
    area.press("Control+Enter")
    page.wait_for_function(DONE, polling=50, timeout=TIMEOUT_MS)
    times = page.evaluate(DONE)
    if "missed" in times:  # never fall back to another clock: it would flatter the ratio
        raise RuntimeError(f"the page never saw the {times['missed']} ({marker})")
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
