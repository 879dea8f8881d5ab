"""Benchmark: each fast probe in a fresh, offline process; seconds per probe (budget 0.75 s).

Moved out of the test suite: a loaded machine stalls a child now and then, so a timing is a
number to read, not a pass/fail. Prints numbers; never fails. Run: python bench/probe_timing.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.core.probes.test_probes import FAST_IDS, _run_in_fresh_processes  # noqa: E402

BUDGET_SECONDS = 0.75


def main() -> None:
    report = _run_in_fresh_processes(FAST_IDS)
    for probe_id, (verdict, _, seconds) in sorted(report.items(), key=lambda item: -item[1][2]):
        flag = "  over budget" if seconds >= BUDGET_SECONDS else ""
        print(f"{seconds:6.3f} s  {probe_id} ({verdict}){flag}")
    slow = sum(seconds >= BUDGET_SECONDS for _, _, seconds in report.values())
    print(f"{slow} of {len(report)} probes at or over {BUDGET_SECONDS} s")


if __name__ == "__main__":
    main()
