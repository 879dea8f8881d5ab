"""Render work per round trip: how many React components the browser re-renders, per page.

Counts, not times: the size of a commit does not move with the machine's load (how many
commits a round takes can, as messages batch differently). They say why the round trip of
bench/browser_roundtrip.py costs what it costs. Streamlit 1.67's frontend re-renders the
page's blocks (sidebar, navigation, columns, popovers) on each message of a rerun
(new session, deltas, script finished), so the cost of a rerun follows everything the page
holds, not only what changed.

Counted through React's DevTools hook, installed before the page loads: a component counts
when its render function ran in a commit (the PerformedWork flag on a fiber that was not in
the previous commit's tree). Grouped by the nearest part of the page around it.
Run from the repository root: `python -m bench.render_work`. Prints; never asserts.
"""

from __future__ import annotations

import statistics
from collections import Counter
from contextlib import ExitStack
from typing import Any

from playwright.sync_api import sync_playwright

from bench.browser_roundtrip import GRID, open_page, round_trip, start_servers
from tests.e2e._browser import launch_chromium

__all__ = ["main"]

ROUNDS = 5
WARMUP = 2
LABELS = {
    "validate": "Validate page",
    "echo": "echo control (bare script)",
    "shell": "echo page in the app's shell",
    "table": "editor + error table page",
}
# Innermost of these around a component names the part of the page it belongs to.
PARTS = [
    "stSidebarNav",
    "stSidebarUserContent",
    "stSidebar",
    "stPopover",
    "stDataFrame",
    "stCustomComponentV1",
    "stTextArea",
    "stButtonGroup",
    "stSelectbox",
    "stButton",
    "stCode",
    "stColumn",
    "stHeader",
    "stMain",
]
HOOK = """(parts) => {
  let previous = new WeakSet();
  const wanted = new Set(parts);
  const part = (fiber) => {
    for (let f = fiber; f; f = f.return) {
      const id = f.tag === 5 && f.memoizedProps && f.memoizedProps["data-testid"];
      if (id && wanted.has(id)) return id;
    }
    return "app frame";
  };
  window.__commits = [];
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {},
    onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
    onCommitFiberRoot(id, root) {
      const seen = new WeakSet(), counts = {}, stack = [root.current];
      let total = 0;
      while (stack.length) {
        const f = stack.pop();
        seen.add(f);
        // function, class, forwardRef, memo and simple memo components whose render ran
        if ([0, 1, 11, 14, 15].includes(f.tag) && (f.flags & 1) && !previous.has(f)) {
          total += 1;
          const name = part(f);
          counts[name] = (counts[name] || 0) + 1;
        }
        if (f.sibling) stack.push(f.sibling);
        if (f.child) stack.push(f.child);
      }
      previous = seen;
      if (window.__recording && total) window.__commits.push({total, counts});
    },
  };
}"""


def _record(page: Any, name: str, n: int) -> list[dict[str, Any]]:
    """The commits of one round trip (key press to the script's finished message)."""
    page.evaluate("() => { window.__commits = []; window.__recording = true; }")
    # Short, as bench.browser_roundtrip's: Validate's path column wraps a longer name across
    # lines, and the probe waits for the whole marker drawn at once.
    round_trip(page, f"rw_{n:02d}_{name[0]}", grid=name in GRID)
    page.wait_for_timeout(500)  # the "script finished" commit comes after the result
    return page.evaluate("() => { window.__recording = false; return window.__commits; }")


def main() -> None:
    """Count the components each page re-renders per round trip and print the medians."""
    rounds: dict[str, list[list[dict[str, Any]]]] = {}
    with ExitStack() as stack, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        for name, server in start_servers(stack).items():
            page = open_page(browser, name, server, init_script=f"({HOOK})({PARTS!r})")
            rounds[name] = [_record(page, name, n) for n in range(WARMUP + ROUNDS)][WARMUP:]
        browser.close()

    print(f"React components re-rendered per round trip, median of {ROUNDS} rounds")
    print("  (how many commits a round takes depends on how messages batch; the size of a")
    print("   commit depends only on what the page holds)")
    for name, commits in rounds.items():
        top = [sorted((c["total"] for c in round_), reverse=True)[:3] for round_ in commits]
        biggest = " / ".join(
            f"{statistics.median(sizes[k] for sizes in top if len(sizes) > k):.0f}"
            for k in range(min(len(sizes) for sizes in top))
        )
        totals = [sum(c["total"] for c in round_) for round_ in commits]
        print(
            f"  {LABELS[name]:<30} three largest commits {biggest:<15} "
            f"{statistics.median(len(round_) for round_ in commits):.0f} commits, "
            f"{statistics.median(totals):5.0f} a round"
        )
    for name, commits in rounds.items():
        parts: Counter[str] = Counter()
        for commit in commits[-1]:
            parts.update(commit["counts"])
        shares = ", ".join(f"{part} {count}" for part, count in parts.most_common())
        print(f"  by part, last round, {LABELS[name]}: {shares}")


if __name__ == "__main__":
    main()
