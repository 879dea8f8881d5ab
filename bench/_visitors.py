"""The light visitors of bench/load.py's mixed run: the pages they open, what they do there
and what each action waits for."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench._crowd import type_text
from bench.audit import build_store
from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.stores.demo import DEMO_THREADS
from tests.e2e._browser import IDLE_AFTER_RUNS, RUN_COUNTER_SCRIPT

__all__ = [
    "CLOSE_TIMEOUT_S",
    "KINDS",
    "OPEN_TIMEOUT_MS",
    "VIEWPORT",
    "Session",
    "Store",
    "Tally",
    "broken",
    "closed",
    "light_session",
    "open_page",
    "runs",
    "said",
    "settled",
    "until",
    "write_light_stores",
]

KINDS = ("validate", "trace", "threads", "upload", "audit")
# A role's measured actions, in order, each round
ACTIONS = {
    "validate": ("validate",),
    "trace": ("trace",),
    "threads": ("threads",),
    "upload": ("upload", "audit"),
}
ACTION_TIMEOUT_MS = 60_000
OPEN_TIMEOUT_MS = 180_000  # pages open a few at a time, each queued behind the others' runs
CLOSE_TIMEOUT_S = 30
GIVE_UP_AFTER = 2  # consecutive failed actions: the session's remaining ones count as errors
VIEWPORT = {"width": 1400, "height": 1000}
UPLOAD_INPUT = ".st-key-threads_upload input[type='file']"
TRACE_FAULT = "bad_status_last"  # every other Trace run has it: each run's headline differs
HEADLINES = {
    TRACE_FAULT: "LangGraph finished, but the final state is invalid",
    None: "LangGraph finished the run without raising.",
}
THREAD_IDS = list(DEMO_THREADS)  # the demo store's threads, picked in turn
_IDLE = "document.querySelector(\"[data-testid='stApp'][data-test-script-state='notRunning']\")"

# Predicates of one argument, true once an action's own result is on the page.
VALIDATED = """(marker) => [...document.querySelectorAll(
  "[data-testid='stDataFrame'] [role='gridcell']")].some((cell) => cell.textContent === marker)"""
TRACED = """(headline) => [...document.querySelectorAll(
  "[data-testid='stMain'] [data-testid='stAlert']")]
  .some((alert) => alert.textContent.replaceAll("\\u2060", "").startsWith(headline))"""
PICKED = """(thread) => [...document.querySelectorAll("[data-testid='stDataFrame'] "
  + "[role='row'][aria-selected='true'] [role='gridcell']:first-child")]
  .some((cell) => cell.textContent.trim() === thread)"""
UPLOADED = """([name, threads]) => {
  const text = document.querySelector("[data-testid='stMain']")?.textContent ?? "";
  return text.includes(`uploaded file ${name}`) && text.includes(`threads shown of ${threads}`);
}"""
AUDITED = """(threads) => [...document.querySelectorAll("[data-testid='stProgress']")]
  .some((bar) => bar.textContent.includes(`All ${threads} threads checked`))"""
UPLOAD_READY = f"() => document.querySelector({UPLOAD_INPUT!r}) !== null"
BROKEN = """() => document.querySelector("[data-testid='stException']") !== null
  || document.body.textContent.includes("Traceback (most recent call last)")"""


def until(predicate: str, timeout_ms: int) -> str:
    """A page function of `[arg, runs]`: resolves once `predicate(arg)` holds and the script
    run is over, with whether the page said it waited for a heavy-job slot meanwhile. Rejects
    after `timeout_ms`, or at once when a run finished after the first `runs` (the page's
    count before the action: RUN_COUNTER_SCRIPT) left an exception on the page. Checked on
    DOM changes (a MutationObserver), not by polling, so 31 waiting pages cost little."""
    return f"""([arg, runs]) => new Promise((resolve, reject) => {{
  const holds = {predicate};
  let queued = false;
  const check = () => {{
    queued = queued || [...document.querySelectorAll("[data-testid='stAlert']")]
      .some((alert) => alert.textContent.includes("Waiting for a free slot"));
    if ({_IDLE} === null) return false;
    if (window.__stRuns > runs && document.querySelector("[data-testid='stException']")) {{
      throw new Error("the page shows an exception");
    }}
    return holds(arg);
  }};
  const timer = setTimeout(() => {{
    observer.disconnect();
    reject(new Error("no expected result within {timeout_ms // 1000} s"));
  }}, {timeout_ms});
  const observer = new MutationObserver(() => {{
    try {{
      if (check()) {{ observer.disconnect(); clearTimeout(timer); resolve(queued); }}
    }} catch (error) {{ observer.disconnect(); clearTimeout(timer); reject(error); }}
  }});
  observer.observe(document, {{subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["data-test-script-state", "aria-selected"]}});
  observer.takeRecords();
  try {{
    if (check()) {{ observer.disconnect(); clearTimeout(timer); resolve(queued); }}
  }} catch (error) {{ observer.disconnect(); clearTimeout(timer); reject(error); }}
}})"""


async def runs(page: Any) -> int:
    """How many script runs the page has finished (RUN_COUNTER_SCRIPT): read before an action."""
    return int(await page.evaluate("window.__stRuns"))


async def settled(
    page: Any, predicate: str, arg: Any, timeout_ms: int, runs_before: int = 0
) -> bool:
    """Wait (bounded twice: in the page and here) for `until(predicate)`; whether it queued.
    `runs_before`: the page's `runs` before the action (0 while a page opens)."""
    waiting = page.evaluate(until(predicate, timeout_ms), [arg, runs_before])
    return bool(await asyncio.wait_for(waiting, timeout_ms / 1000 + 10))


async def closed(thing: Any) -> None:
    """Close a browser, context or Playwright (`stop`) within CLOSE_TIMEOUT_S, whatever the
    state it is in: a cleanup that waits on a dead driver would outlast the run's time cap."""
    close = thing.stop if hasattr(thing, "stop") else thing.close
    with suppress(Exception):
        await asyncio.wait_for(close(), CLOSE_TIMEOUT_S)


def said(error: Exception) -> str:
    """An error in one line: its type and its message's first line (Playwright appends the
    page's stack)."""
    lines = str(error).strip().splitlines() or [""]
    return f"{type(error).__name__}: {lines[0]}"[:200]


async def broken(page: Any) -> bool:
    """Whether the page shows a Streamlit exception element or a traceback."""
    return bool(await page.evaluate(BROKEN))


@dataclass(frozen=True)
class Store:
    """A small legitimate SQLite checkpoint store to upload, and its thread count."""

    path: Path
    threads: int


def write_light_stores(directory: Path) -> tuple[Store, Store]:
    """Two stores of 40 and 60 threads (bench/audit.py's build: real seed-graph runs through
    SqliteSaver, rows copied), uploaded in turn: each upload and audit shows a new count."""
    stores = []
    for name, threads in (("store-a.sqlite", 40), ("store-b.sqlite", 60)):
        path = directory / name
        build_store("sqlite", str(path), threads, threads * 8)
        stores.append(Store(path, threads))
    return stores[0], stores[1]


@dataclass
class Tally:
    """What the light sessions saw: seconds per action kind, errors, heavy-job queueing."""

    times: dict[str, list[float]] = field(default_factory=lambda: {kind: [] for kind in KINDS})
    errors: list[str] = field(default_factory=list)
    opens: list[float] = field(default_factory=list)  # goto -> ready for the first action
    queued: int = 0  # actions during which the page said it waited for a free slot


@dataclass
class Session:
    """One light visitor: its role, its number (its seed and its markers), shared gates."""

    role: str
    who: int
    url: str
    tally: Tally
    ready: asyncio.Barrier  # everyone starts acting together, after every page opened
    door: asyncio.Semaphore  # pages open a few at a time
    think: tuple[float, float]
    rounds: int
    stores: tuple[Store, Store]


async def open_page(page: Any, url: str, role: str) -> None:
    """Open `role`'s page and wait until it is ready for its first action (unmeasured)."""
    path = {"validate": "", "trace": "/trace"}.get(role, "/threads")
    await page.goto(url + path, wait_until="commit", timeout=OPEN_TIMEOUT_MS)
    await page.wait_for_function(
        IDLE_AFTER_RUNS, arg=[1, None, 0], polling=100, timeout=OPEN_TIMEOUT_MS
    )
    if role == "validate":  # its first error table loads the grid's code: once per page
        await _validate(page, "warm_up", OPEN_TIMEOUT_MS)
    elif role == "trace":  # likewise its first trace table
        await _run_trace(page, HEADLINES[None], OPEN_TIMEOUT_MS)
    else:  # the demo store is built for the session, its first thread listed and picked
        await settled(page, PICKED, THREAD_IDS[0], OPEN_TIMEOUT_MS)
    if role == "upload":
        source = page.locator(".st-key-threads_source")
        await source.get_by_text("Upload a SQLite store (.sqlite, .db)").click()
        await settled(page, UPLOAD_READY, None, OPEN_TIMEOUT_MS)


async def _timed(
    page: Any,
    act: Callable[[], Awaitable[None]],
    predicate: str,
    arg: Any,
    timeout_ms: int = ACTION_TIMEOUT_MS,
) -> tuple[float, bool]:
    before = await runs(page)
    start = time.perf_counter()
    await act()
    queued = await settled(page, predicate, arg, timeout_ms, before)
    return time.perf_counter() - start, queued


async def _validate(page: Any, marker: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> Any:
    """Paste a payload holding the key `marker` (unmeasured), then Ctrl+Enter: its error row."""
    editor = page.frame_locator(".st-key-payload_editor iframe")
    await type_text(page, editor, to_text({**SEED_PAYLOAD, marker: 1}), timeout_ms)
    return await _timed(
        page, lambda: page.keyboard.press("Control+Enter"), VALIDATED, marker, timeout_ms
    )


async def _run_trace(page: Any, headline: str, timeout_ms: int = ACTION_TIMEOUT_MS) -> Any:
    run = page.locator(".st-key-run").get_by_role("button")
    return await _timed(page, lambda: run.click(timeout=timeout_ms), TRACED, headline, timeout_ms)


async def _trace(page: Any, n: int) -> Any:
    """Add or remove the fault (unmeasured: its own rerun first), then Run: the headline."""
    fault = TRACE_FAULT if n % 2 == 0 else None
    before, since = await page.evaluate("[window.__stRuns, performance.now()]")
    box = page.locator(".st-key-trace_faults input")
    await box.click(timeout=ACTION_TIMEOUT_MS)
    if fault is None:
        await page.keyboard.press("Backspace")  # the empty box's Backspace drops the last one
    else:
        await box.fill(fault, timeout=ACTION_TIMEOUT_MS)
        await page.keyboard.press("Enter")
    await page.keyboard.press("Escape")
    await page.wait_for_function(
        IDLE_AFTER_RUNS, arg=[before + 1, since, 1_500], polling=100, timeout=ACTION_TIMEOUT_MS
    )
    return await _run_trace(page, HEADLINES[fault])


async def _pick_thread(page: Any, n: int) -> Any:
    """Type the next demo thread's id into the Thread box, Enter: its row selected in the list."""
    thread = THREAD_IDS[(n + 1) % len(THREAD_IDS)]
    box = page.locator(".st-key-threads_thread input")
    await box.click(timeout=ACTION_TIMEOUT_MS)
    await box.fill(thread, timeout=ACTION_TIMEOUT_MS)
    return await _timed(page, lambda: page.keyboard.press("Enter"), PICKED, thread)


async def _step(session: Session, page: Any, kind: str, n: int) -> tuple[float, bool]:
    store = session.stores[n % 2]
    if kind == "validate":
        return await _validate(page, f"mix_u{session.who:02d}_r{n:02d}")
    if kind == "trace":
        return await _trace(page, n)
    if kind == "threads":
        return await _pick_thread(page, n)
    if kind == "upload":
        chooser = page.locator(UPLOAD_INPUT)
        return await _timed(
            page,
            lambda: chooser.set_input_files(store.path, timeout=ACTION_TIMEOUT_MS),
            UPLOADED,
            [store.path.name, store.threads],
        )
    button = page.locator(".st-key-threads_audit_run").get_by_role("button")
    return await _timed(
        page, lambda: button.click(timeout=ACTION_TIMEOUT_MS), AUDITED, store.threads
    )


async def light_session(browser: Any, session: Session) -> None:
    """Open the role's page, then `rounds` rounds of its actions, each after a think time."""
    tally, name = session.tally, f"{session.role} {session.who}"
    pause = random.Random(session.who).uniform  # the same waits in every run
    context = await browser.new_context(viewport=VIEWPORT)
    opened = False
    try:
        await context.add_init_script(RUN_COUNTER_SCRIPT)
        page = await context.new_page()
        async with session.door:
            start = time.perf_counter()
            await open_page(page, session.url, session.role)
            tally.opens.append(time.perf_counter() - start)
        opened = True
        await session.ready.wait()
        # Independent people are not in step: each starts at a random point of a think time.
        await asyncio.sleep(pause(0.0, session.think[1]))
        failed = 0
        for n in range(session.rounds):
            for kind in ACTIONS[session.role]:
                if failed >= GIVE_UP_AFTER:
                    tally.errors.append(f"{name} round {n} {kind}: skipped after {failed} failures")
                    continue
                await asyncio.sleep(pause(*session.think))
                try:
                    seconds, queued = await _step(session, page, kind, n)
                    tally.times[kind].append(seconds)
                    tally.queued += queued
                    failed = 0
                    if await broken(page):
                        tally.errors.append(f"{name} round {n} {kind}: exception or traceback")
                except Exception as exc:  # noqa: BLE001 -- a benchmark counts failures
                    tally.errors.append(f"{name} round {n} {kind}: {said(exc)}")
                    failed += 1
    except Exception as exc:  # noqa: BLE001 -- the page never opened: its actions all failed
        tally.errors.append(f"{name}: {said(exc)}")
        if not opened:
            await session.ready.wait()
    finally:
        await closed(context)
