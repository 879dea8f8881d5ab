"""Validate's browser round trip, this checkout against an earlier commit, in one run.

Issue #22 asks that the round trip (bench/browser_roundtrip.py) be no worse than before the
code editor (commit c63ea1e). Runs a minute apart differ by about 15 ms on this 2-core machine,
more than the difference looked for, so both apps run at once here and every round times both,
in alternating order: machine load hits both sides alike.

The earlier commit is checked out in a temporary git worktree (removed afterwards) and served
from there; the page's round trip is timed exactly as bench/browser_roundtrip.py times it
(Ctrl+Enter to the marker painted in the error table).

Run from the repository root: `python -m bench.roundtrip_ab [--before c63ea1e] [--rounds 16]`.
Prints both medians, each round's pair and the ratio; never asserts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

from bench.browser_roundtrip import open_page, round_trip
from tests.e2e._browser import launch_chromium
from tests.e2e._server import ROOT, cpu_seconds, machine_load, streamlit_server

__all__ = ["main", "worktree"]

BEFORE = "c63ea1e"  # the last commit before the code editor (issue #22's "today's")
WARMUP = 2


@contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """A detached checkout of `commit` in a temporary directory, removed on leaving."""
    with tempfile.TemporaryDirectory(prefix="roundtrip-ab-") as parent:
        path = Path(parent) / "before"
        git = ["git", "-C", str(ROOT)]
        made = subprocess.run([*git, "worktree", "add", "--detach", str(path), commit],
                              capture_output=True, text=True, check=False)  # fmt: skip
        if made.returncode != 0:
            raise SystemExit(f"cannot check out {commit!r}: {made.stderr.strip()}")
        try:
            yield path
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(path)],
                           check=False, capture_output=True)  # fmt: skip


def _paired_difference(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Median of (now - before) over the rounds, with a 95% bootstrap interval for it.

    Each round times both sides back to back, so a round's difference cancels the load the
    machine had then; a seeded resampling keeps the printed interval repeatable.
    """
    differences = [now - before for now, before in pairs]
    rng = random.Random(0)
    medians = sorted(
        statistics.median(rng.choices(differences, k=len(differences))) for _ in range(2000)
    )
    return medians[50], statistics.median(differences), medians[1949]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"earlier commit (default {BEFORE})")
    parser.add_argument("--rounds", type=int, default=16, help="timed rounds (default 16)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    sides = ("before", "now")
    with ExitStack() as stack, sync_playwright() as playwright:
        before = stack.enter_context(worktree(args.before))
        servers = {
            "before": stack.enter_context(streamlit_server(cwd=before)),
            "now": stack.enter_context(streamlit_server()),
        }
        browser = launch_chromium(playwright)
        pages = {side: open_page(browser, "validate", servers[side]) for side in sides}
        samples: dict[str, list[float]] = {side: [] for side in sides}
        cpu: dict[str, float] = {}
        for n in range(WARMUP + args.rounds):
            if n == WARMUP:
                cpu = {side: cpu_seconds(servers[side].process.pid) for side in sides}
            order = sides if n % 2 else sides[::-1]
            times = {
                side: round_trip(pages[side], f"rt_{n:02d}_{side[0]}", grid=True)["visible"]
                for side in order
            }
            if n >= WARMUP:
                for side in sides:
                    samples[side].append(times[side])
        for side in sides:
            cpu[side] = (cpu_seconds(servers[side].process.pid) - cpu[side]) / args.rounds
        browser.close()
    medians = {side: statistics.median(samples[side]) for side in sides}
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True, check=False).stdout.strip()  # fmt: skip
    names = {"before": args.before, "now": f"{head or 'HEAD'} (this checkout)"}
    print(f"Validate round trip, Ctrl+Enter to the error table painted: median of {args.rounds}")
    for side in sides:
        spread = ", ".join(f"{v * 1000:.0f}" for v in samples[side])
        print(f"  {names[side]:<26} median {medians[side] * 1000:6.1f} ms  samples ms: {spread}")
    used = ", ".join(f"{names[side]} {cpu[side] * 1000:.0f} ms" for side in sides)
    print(f"  server CPU per round: {used}")
    pairs = list(zip(samples["now"], samples["before"], strict=True))
    wins = sum(now <= before for now, before in pairs)
    low, mid, high = _paired_difference(pairs)
    print(f"  now / before: {medians['now'] / medians['before']:.2f}x; "
          f"now no slower in {wins} of {args.rounds} rounds")  # fmt: skip
    print(f"  now - before, same round: median {mid * 1000:+.1f} ms "
          f"(95% bootstrap interval {low * 1000:+.1f} to {high * 1000:+.1f} ms)")  # fmt: skip
    print(f"  {machine_load()}")


if __name__ == "__main__":
    main()
