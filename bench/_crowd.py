"""Validate's crowd: 20 browser contexts x 10 validations against one server, checked for leaks.

`python -m bench.load --validate-crowd` (add `--think 0` for back-to-back validations): one
Chromium, one context (its own Streamlit session) per simulated user, driven concurrently
with Playwright's asyncio API. Like a person editing a payload, each user waits a think time
(seeded, uniform in THINK_S) before each validation; the single-session baseline waits the
same way, and latencies never include the wait. Each page makes one unmeasured validation
while it opens (its first error table loads the grid's code), and starts at a random point
of one think time, so the 20 users are not in lockstep. Every payload carries a key only
that user and round use; the result must show exactly that key as its error row. Prints
latency, errors and leaks; never asserts. Bounded: fixed loops and a timeout on every wait.
"""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import async_playwright

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from tests.e2e._browser import CHROMIUM, CHROMIUM_ARGS, IDLE_AFTER_RUNS, RUN_COUNTER_SCRIPT
from tests.e2e._server import Server, cpu_seconds, machine_load, streamlit_server

__all__ = ["FOREGROUND_ARGS", "THINK_S", "percentile", "run_crowd", "type_text"]

USERS = 20
ROUNDS = 10
TIMEOUT_MS = 30_000
OPEN_TIMEOUT_MS = 180_000  # 20 first visits at once queue behind each other's first run
OPENING_AT_ONCE = 2
THINK_S = (5.0, 10.0)  # seconds before each validation: reading the result, editing the text
FOREGROUND_ARGS = [
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
]
GIVE_UP_AFTER = 2  # consecutive failed rounds: the user's remaining rounds count as errors
MARKER = re.compile(r"leak_u\d\d_r\d\d")
ROW_SHOWN = """(marker) => [...document.querySelectorAll(
  "[data-testid='stDataFrame'] [role='gridcell']")].some((cell) => cell.textContent === marker)"""
# The run is over and the annotated text (rendered after the table) shows this payload.
SETTLED = """(marker) => document.querySelector(
  "[data-testid='stApp'][data-test-script-state='notRunning']") !== null
  && [...document.querySelectorAll("[data-testid='stCode']")]
    .some((code) => code.textContent.includes(marker))"""


def _when(condition: str) -> str:
    """A page function that resolves once `condition(marker)` holds: checked on DOM changes
    (a MutationObserver), not by polling, so 20 waiting pages cost the browser nothing."""
    return f"""(marker) => new Promise((resolve, reject) => {{
  const holds = {condition};
  if (holds(marker)) {{ resolve(true); return; }}
  const timer = setTimeout(() => {{ observer.disconnect(); reject(new Error("timed out")); }},
    {TIMEOUT_MS});
  const observer = new MutationObserver(() => {{
    if (holds(marker)) {{ observer.disconnect(); clearTimeout(timer); resolve(true); }}
  }});
  observer.observe(document, {{subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["data-test-script-state"]}});
}})"""


SHOWN_MARKERS = """() => [...document.querySelectorAll(
  "[data-testid='stDataFrame'] [role='gridcell'], [data-testid='stCode']")]
  .map((element) => element.textContent).join("\\n")"""


@dataclass
class Tally:
    """What the simulated users saw."""

    latencies: list[float] = field(default_factory=list)
    opens: list[float] = field(default_factory=list)  # goto -> editor usable
    errors: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)  # another user's payload, or editor changed
    stale: list[str] = field(default_factory=list)  # this user's own earlier payload still shown
    validations: int = 0
    slowest: tuple[float, str] = (0.0, "")


async def type_text(page: Any, editor: Any, text: str, timeout_ms: float) -> None:
    """Replace the code editor's text as a paste does (select all, insert); not yet sent."""
    await editor.locator(".cm-content").click(timeout=timeout_ms)
    await page.keyboard.press("Control+a")
    await page.keyboard.insert_text(text)


async def _user(
    browser: Any,
    url: str,
    user: int,
    tally: Tally,
    ready: asyncio.Barrier,
    door: asyncio.Semaphore,
    think: tuple[float, float],
) -> None:
    pause = random.Random(user).uniform  # the same waits in every run
    context = await browser.new_context()
    opened = False
    try:
        await context.add_init_script(RUN_COUNTER_SCRIPT)
        page = await context.new_page()
        async with door:
            start = time.perf_counter()
            await page.goto(url, wait_until="commit", timeout=OPEN_TIMEOUT_MS)
            await page.wait_for_function(
                IDLE_AFTER_RUNS, arg=[1, None, 0], polling=20, timeout=OPEN_TIMEOUT_MS
            )
            editor = page.frame_locator(".st-key-payload_editor iframe")
            await editor.locator(".cm-content").wait_for(timeout=OPEN_TIMEOUT_MS)  # lazy-loaded
            tally.opens.append(time.perf_counter() - start)
            # One unmeasured validation, as in the round-trip bench: the page's first error
            # table loads the data grid's code, once per page, not once per validation.
            warm = f"warm_u{user:02d}"
            await type_text(page, editor, to_text({**SEED_PAYLOAD, warm: 1}), OPEN_TIMEOUT_MS)
            await page.keyboard.press("Control+Enter")
            await page.evaluate(_when(ROW_SHOWN), warm)
        opened = True
        # Everyone starts validating together: page opens do not pollute the latencies.
        await ready.wait()
        # Independent people are not in step: each starts at a random point of a think time.
        await asyncio.sleep(pause(0.0, think[1]))
        failed = 0
        for n in range(ROUNDS):
            if failed >= GIVE_UP_AFTER:
                tally.errors.append(f"user {user} round {n}: skipped after {failed} failures")
                continue
            marker = f"leak_u{user:02d}_r{n:02d}"
            text = to_text({**SEED_PAYLOAD, marker: 1})
            await asyncio.sleep(pause(*think))
            try:
                await type_text(page, editor, text, TIMEOUT_MS)
                start = time.perf_counter()
                await page.keyboard.press("Control+Enter")
                await page.evaluate(_when(ROW_SHOWN), marker)
                tally.latencies.append(time.perf_counter() - start)
                tally.slowest = max(tally.slowest, (tally.latencies[-1], f"user {user} round {n}"))
                tally.validations += 1
                failed = 0
                # Check once the run is over: mid-run, later elements still show the last run.
                await page.evaluate(_when(SETTLED), marker)
                seen = set(MARKER.findall(await page.evaluate(SHOWN_MARKERS)))
                foreign = sorted(m for m in seen if not m.startswith(f"leak_u{user:02d}_"))
                shown = "\n".join(await editor.locator(".cm-line").all_text_contents())
                if foreign or shown != text:
                    tally.leaks.append(f"user {user} round {n}: saw {sorted(seen)}")
                elif seen != {marker}:  # its own earlier payload: late, not leaked
                    tally.stale.append(f"user {user} round {n}: saw {sorted(seen)}")
                if await page.locator("[data-testid='stException']").count():
                    tally.errors.append(f"user {user} round {n}: exception element")
            except Exception as exc:  # noqa: BLE001 -- a benchmark counts failures, it does not stop
                tally.errors.append(f"user {user} round {n}: {type(exc).__name__}: {exc}"[:300])
                failed += 1
    except Exception as exc:  # noqa: BLE001 -- the page never opened: all rounds failed
        tally.errors.append(f"user {user}: {type(exc).__name__}: {exc}"[:300])
        if not opened:
            await ready.wait()
    finally:
        await context.close()


async def _run(
    server: Server, users: int, think: tuple[float, float]
) -> tuple[Tally, float, float]:
    """(tally, wall seconds of the validation phase, server CPU seconds in that phase)."""
    tally = Tally()
    ready = asyncio.Barrier(users + 1)
    # Opening 20 pages at once only measures Chromium starving itself on a small machine;
    # opens go a few at a time, and the measured validations start together afterwards.
    door = asyncio.Semaphore(OPENING_AT_ONCE)
    async with async_playwright() as playwright:
        # Each simulated user has the page in front of them: no background-tab throttling.
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *FOREGROUND_ARGS]
        )
        crowd = asyncio.gather(
            *(_user(browser, server.url, user, tally, ready, door, think) for user in range(users))
        )
        await ready.wait()
        start, cpu = time.perf_counter(), cpu_seconds(server.process.pid)
        await crowd
        wall, cpu = time.perf_counter() - start, cpu_seconds(server.process.pid) - cpu
        await browser.close()
    return tally, wall, cpu


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank `q` quantile of `values` (NaN when there are none)."""
    ordered = sorted(values)
    return (
        ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else float("nan")
    )


def _report(name: str, tally: Tally, wall: float, cpu: float) -> None:
    ms = [v * 1000 for v in tally.latencies]
    print(
        f"  {name:<22} validations {tally.validations:>3}  errors {len(tally.errors)}  "
        f"leaks {len(tally.leaks)}  stale {len(tally.stale)}"
    )
    print(
        f"  {'':<22} latency p50 {percentile(ms, 0.5):.0f} ms, p95 {percentile(ms, 0.95):.0f} ms, "
        f"mean {statistics.fmean(ms) if ms else float('nan'):.0f} ms; wall {wall:.1f} s"
    )
    opens = [v * 1000 for v in tally.opens]
    per_validation = cpu / tally.validations if tally.validations else float("nan")
    print(
        f"  {'':<22} server CPU {cpu:.1f} s ({cpu / wall:.0%} of one core), "
        f"{per_validation * 1000:.0f} ms per validation"
    )
    print(
        f"  {'':<22} page opens ({OPENING_AT_ONCE} at a time, before the clock): "
        f"p50 {percentile(opens, 0.5):.0f} ms, p95 {percentile(opens, 0.95):.0f} ms"
    )
    if tally.slowest[1]:
        print(f"  {'':<22} slowest: {tally.slowest[0] * 1000:.0f} ms ({tally.slowest[1]})")
    for line in tally.leaks[:5] + tally.stale[:3] + tally.errors[:3]:
        print(f"    {line}")


def run_crowd(think: tuple[float, float]) -> None:
    """Single-session baseline, then USERS concurrent sessions, on one server; prints both."""
    with streamlit_server() as server:
        single, single_wall, single_cpu = asyncio.run(_run(server, 1, think))
        crowd, crowd_wall, crowd_cpu = asyncio.run(_run(server, USERS, think))
    print(f"load: {USERS} concurrent browser contexts x {ROUNDS} validations, one server")
    print(
        f"  think time before each validation: {think[0]:g}-{think[1]:g} s"
        + (" (back to back)" if think[1] == 0 else "")
    )
    _report("single session", single, single_wall, single_cpu)
    _report(f"{USERS} concurrent sessions", crowd, crowd_wall, crowd_cpu)
    ratio = percentile(crowd.latencies, 0.95) / percentile(single.latencies, 0.95)
    print(f"  p95 ratio concurrent/single: {ratio:.2f}x (target <= 3)")
    print(f"  throughput: {crowd.validations / crowd_wall:.1f} validations/s with {USERS} users")
    # One Streamlit process runs scripts under one GIL: users submitting back to back each
    # wait for everyone's turn, whatever the browsers do.
    per_validation = crowd_cpu / crowd.validations if crowd.validations else float("nan")
    print(
        f"  server-bound floor: {USERS} users x {per_validation * 1000:.0f} ms server CPU = "
        f"{USERS * per_validation:.1f} s per round for back-to-back users on one process "
        f"(= {USERS * per_validation / percentile(single.latencies, 0.95):.1f}x the single p95)"
    )
    print(f"  {machine_load()}")
