"""Load with a hostile visitor: 30 light sessions' round trips without and with a decode bomb.

Run from the repository root: `python -m bench.load` (about 12 minutes on two cores),
`python -m bench.load --quick` for a smoke run (5 light sessions, 2 rounds, about 2 minutes),
`--think MIN MAX` to change the think time, and `python -m bench.load --validate-crowd` for
the earlier Validate-only crowd (20 sessions x 10 validations beside a single session,
bench/_crowd.py). Loopback only.

The mix (bench/_visitors.py): one headless Chromium, one context (its own Streamlit session)
per visitor, driven concurrently with Playwright's asyncio API. 30 light sessions: 12 edit
Validate's payload (a key only that session and round use, pasted, Ctrl+Enter: that key's
error row), 8 press Trace's Run (the fault bad_status_last added and removed in turn,
unmeasured: each run's own headline), 6 pick the next thread of the demo store on the Threads
page (typed into the Thread box: its row selected in the list), 4 upload a small legitimate
SQLite store (40 and 60 threads in turn, real SqliteSaver rows: the page's thread list of
that file) and then run its audit ("All N threads checked"). Each waits a seeded think time
before each action; pages open two at a time before the clock, then all start together at
random points of one think time. The hostile session (bench/_hostile.py) uploads a real
store of 10 threads whose first thread's latest checkpoint is a msgpack array of 8,000,000
empty maps (8 MB), waits for the page to settle on it, runs its audit, pauses 3 s, again,
until the light sessions are done. The same light mix runs twice, each phase on a fresh
server: without the hostile session, then with it.

Figures, per phase, for the light sessions only:
- round trip per action kind and overall: from the key press, click or file set to its own
  result on the page with the script run over (observed in the page, not polled); p50/p95,
  and the p95 ratio with/without beside its target (<= 1.5x);
- errors: an action whose own result did not show within 60 s (a timeout, or a missing or
  wrong result: each waits for exactly its result), a Streamlit exception element or a
  traceback on the page after an action; a page that never opened counts one;
- queued: actions during which the page said "Waiting for a free slot" (the heavy-job gate,
  where the app has one, PLAYGROUND_HEAVY_JOBS);
- server peak memory: the high-water mark of resident memory (VmHWM) of the server process,
  plus its child processes' if any, after the pages opened and at the end of the phase;
- server CPU seconds during the rounds, beside their wall time: on a small machine most of a
  round trip is the 31 pages' own rendering, which shares the cores with the server;
- the hostile session's own times (not in the figures above) and the row codes its page
  showed for the bomb (row_too_large: a decode bound refused it unbuilt; row_not_a_checkpoint:
  it was decoded, then found not to be a checkpoint).
Prints numbers, never pass/fail. Bounded: fixed rounds, a timeout on every wait, the hostile
session's cycles capped, the whole run capped (30 minutes; 8 with --quick).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from playwright.async_api import async_playwright

from bench._crowd import FOREGROUND_ARGS, THINK_S, percentile, run_crowd
from bench._hostile import BOMB_MAPS, HostileTally, hostile_session, write_bomb_stores
from bench._visitors import (
    CLOSE_TIMEOUT_S,
    KINDS,
    Session,
    Store,
    Tally,
    closed,
    light_session,
    write_light_stores,
)
from tests.e2e._browser import CHROMIUM, CHROMIUM_ARGS
from tests.e2e._server import ROOT, cpu_seconds, machine_load, peak_memory_mb, streamlit_server

__all__ = ["main"]

MIX = {"validate": 12, "trace": 8, "threads": 6, "upload": 4}  # light sessions per role
QUICK_MIX = {"validate": 2, "trace": 1, "threads": 1, "upload": 1}
ROUNDS, QUICK_ROUNDS = 6, 2
CAP_S, QUICK_CAP_S = 30 * 60, 8 * 60
OPENING_AT_ONCE = 2
HOSTILE_GRACE_S = 5.0  # after the light sessions end, for the hostile cycle to end by itself
TARGET_P95_RATIO = 1.5


@dataclass(frozen=True)
class Plan:
    """What both phases run: the light sessions per role, their rounds and think time."""

    mix: dict[str, int]
    rounds: int
    think: tuple[float, float]
    stores: tuple[Store, Store]  # the light uploads
    bombs: tuple[Path, Path]  # the hostile uploads

    @property
    def session_args(self) -> tuple[tuple[float, float], int, tuple[Store, Store]]:
        """What every light session is given: the think time, its rounds, the stores."""
        return self.think, self.rounds, self.stores


@dataclass
class Phase:
    """One run of the light mix on a fresh server, with or without the hostile session."""

    tally: Tally = field(default_factory=Tally)
    hostile: HostileTally | None = None
    wall: float = float("nan")  # seconds from the common start to the last light action
    cpu: float = float("nan")  # server CPU seconds in that time
    opened_mb: float = float("nan")  # server peak memory once every page had opened
    peak_mb: float = 0.0
    capped: bool = False


def _tree_peak_mb(pid: int) -> float:
    """VmHWM of `pid` plus that of each live descendant (0 for one that just ended)."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            total += peak_memory_mb(current)
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except (OSError, RuntimeError):
            continue
    return total


async def _watch_memory(pid: int, phase: Phase) -> None:
    while True:  # cancelled at the phase's end
        phase.peak_mb = max(phase.peak_mb, _tree_peak_mb(pid))
        await asyncio.sleep(0.5)


async def _run_phase(
    url: str, pid: int, phase: Phase, plan: Plan, bombs: tuple[Path, Path] | None
) -> None:
    roles = [role for role, count in plan.mix.items() for _ in range(count)]
    ready = asyncio.Barrier(len(roles) + (bombs is not None) + 1)
    door, stop = asyncio.Semaphore(OPENING_AT_ONCE), asyncio.Event()
    playwright = await async_playwright().start()
    visitors: list[asyncio.Future[None]] = []
    hostile: asyncio.Future[None] | None = None
    try:
        # Each visitor has the page in front of them: no background-tab throttling.
        browser = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, *FOREGROUND_ARGS]
        )
        for who, role in enumerate(roles):
            session = Session(role, who, url, phase.tally, ready, door, *plan.session_args)
            visitors.append(asyncio.ensure_future(light_session(browser, session)))
        if bombs is not None:
            phase.hostile = HostileTally()
            hostile = asyncio.ensure_future(
                hostile_session(browser, url, bombs, phase.hostile, ready, door, stop)
            )
        await ready.wait()
        phase.opened_mb = phase.peak_mb = _tree_peak_mb(pid)
        _say(f"{len(roles)} light sessions{' and the hostile one' if bombs else ''} acting")
        visitors.append(asyncio.ensure_future(_watch_memory(pid, phase)))
        start, cpu = time.perf_counter(), cpu_seconds(pid)
        await asyncio.gather(*visitors[:-1])
        phase.wall, phase.cpu = time.perf_counter() - start, cpu_seconds(pid) - cpu
        stop.set()
        if hostile is not None:  # its cycle ends by itself, or is cancelled below
            await asyncio.wait([hostile], timeout=HOSTILE_GRACE_S)
    finally:
        leftover = [*visitors, *([hostile] if hostile else [])]
        for task in leftover:
            task.cancel()
        # each closes its own context within CLOSE_TIMEOUT_S, then the browser and driver go
        await asyncio.gather(*leftover, return_exceptions=True)
        await closed(playwright)


def _phase(plan: Plan, bombs: tuple[Path, Path] | None, deadline: float) -> Phase:
    """The light mix (with the hostile session when `bombs`) on a fresh server."""
    phase = Phase()
    _say(f"{'with' if bombs else 'without'} the hostile session: pages opening")
    with streamlit_server() as server:
        run = _run_phase(server.url, server.process.pid, phase, plan, bombs)
        try:
            asyncio.run(asyncio.wait_for(run, max(1.0, deadline - time.monotonic())))
        except TimeoutError:
            phase.capped = True
        phase.peak_mb = max(phase.peak_mb, _tree_peak_mb(server.process.pid))
    return phase


def _say(text: str) -> None:
    """Progress on stderr (a full run takes minutes); the figures go to stdout."""
    print(f"load: {text}", file=sys.stderr, flush=True)


def _watchdog(seconds: float) -> None:
    """End the process `seconds` from now, a last resort that needs no event loop: the
    server dies with it (PR_SET_PDEATHSIG), Playwright's driver and Chromium when its pipe
    closes."""

    def abandon() -> None:
        _say(f"stopped after {seconds:.0f} s, past the time cap: no figures")
        os._exit(3)

    timer = threading.Timer(seconds, abandon)
    timer.daemon = True
    timer.start()


def _ms(values: list[float], q: float) -> float:
    return percentile(values, q) * 1000


def _report(plan: Plan, without: Phase, with_: Phase) -> None:
    mix = ", ".join(f"{count} {role}" for role, count in plan.mix.items())
    think = plan.think
    print(
        f"load: {sum(plan.mix.values())} light sessions ({mix}) x {plan.rounds} rounds, "
        f"think {think[0]:g}-{think[1]:g} s; a fresh server per phase"
    )
    print(
        f"  hostile: a store with a msgpack array of {BOMB_MAPS:,} empty maps "
        f"({plan.bombs[0].stat().st_size / 1e6:.1f} MB file), uploaded and audited every few "
        "seconds"
    )
    print(f"  {'':<9}{'without hostile':>24}{'with hostile':>24}   p95 with/without")
    print(f"  {'action':<9}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}{'n':>6}{'p50 ms':>9}{'p95 ms':>9}")
    rows = {kind: (without.tally.times[kind], with_.tally.times[kind]) for kind in KINDS}
    rows["overall"] = tuple(sum((p.tally.times[k] for k in KINDS), []) for p in (without, with_))
    for kind, (off, on) in rows.items():
        ratio = f"{percentile(on, 0.95) / percentile(off, 0.95):.2f}x" if off and on else "-"
        print(
            f"  {kind:<9}{len(off):>6}{_ms(off, 0.5):>9.0f}{_ms(off, 0.95):>9.0f}"
            f"{len(on):>6}{_ms(on, 0.5):>9.0f}{_ms(on, 0.95):>9.0f}"
            f"   {ratio} (target <= {TARGET_P95_RATIO:g}x)"
        )
    for label, value in (
        ("errors", lambda p: f"{len(p.tally.errors)}"),
        ("queued for a slot", lambda p: f"{p.tally.queued}"),
        ("server peak MB, opened", lambda p: f"{p.opened_mb:,.0f}"),
        ("server peak MB, end", lambda p: f"{p.peak_mb:,.0f}"),
        ("server CPU s (rounds)", lambda p: f"{p.cpu:.0f} of {p.wall:.0f} s"),
    ):
        print(f"  {label:<24}{value(without):>15}{value(with_):>24}")
    hostile = with_.hostile or HostileTally()
    codes = ", ".join(f"{code} x{n}" for code, n in hostile.codes.most_common()) or "none"
    print(
        f"  hostile: {len(hostile.reads)} uploads read (p50 {_ms(hostile.reads, 0.5):.0f} ms), "
        f"{len(hostile.audits)} audits (p50 {_ms(hostile.audits, 0.5):.0f} ms), "
        f"{len(hostile.failures)} failures; the page showed {codes}"
    )
    for name, phase in (("without", without), ("with", with_)):
        if phase.capped:
            print(f"  {name}: stopped at the time cap; figures cover what finished")
        for line in phase.tally.errors[:4]:
            print(f"    {name}: {line}")
    for line in hostile.failures[:3]:
        print(f"    hostile: {line}")


def _measured_code() -> str:
    """The commit measured, and whether the app's files differ from it in this tree."""

    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout

    changed = git("status", "--porcelain", "--", "app.py", "core", "ui", "views").strip()
    return f"commit {git('rev-parse', '--short', 'HEAD').strip()}" + (
        " with uncommitted changes to the app" if changed else ""
    )


def main() -> None:
    """The mixed run without, then with, the hostile session; or the Validate crowd."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="5 light sessions, 2 rounds")
    parser.add_argument(
        "--validate-crowd",
        action="store_true",
        help="the Validate-only crowd: 20 sessions x 10 validations",
    )
    parser.add_argument(
        "--think",
        type=float,
        nargs="*",
        default=list(THINK_S),
        help="think time before each action: MIN MAX seconds, or 0",
    )
    args = parser.parse_args()
    think = (args.think[0], args.think[-1]) if args.think else (0.0, 0.0)
    if args.validate_crowd:
        run_crowd(think)
        return
    cap = QUICK_CAP_S if args.quick else CAP_S
    deadline = time.monotonic() + cap
    _watchdog(cap + 4 * CLOSE_TIMEOUT_S)
    with tempfile.TemporaryDirectory(prefix="bench-load-") as directory:
        _say("writing the stores to upload")
        plan = Plan(
            mix=QUICK_MIX if args.quick else MIX,
            rounds=QUICK_ROUNDS if args.quick else ROUNDS,
            think=think,
            stores=write_light_stores(Path(directory)),
            bombs=write_bomb_stores(Path(directory)),
        )
        without = _phase(plan, None, deadline)
        load_without = machine_load()
        with_ = _phase(plan, plan.bombs, deadline)
        _report(plan, without, with_)
    print(
        f"  {_measured_code()}; PLAYGROUND_HEAVY_JOBS="
        f"{os.environ.get('PLAYGROUND_HEAVY_JOBS') or 'unset'}"
    )
    print(f"  after the run without: {load_without}")
    print(f"  after the run with: {machine_load()}")


if __name__ == "__main__":
    main()
