"""Benchmark: the seed graph on SQLite through GuardedSaver against the bare SqliteSaver.

1,000 invokes of core.order.build_order_graph, each storing its input checkpoint and one per
step, on a real SQLite file (LangGraph's default durability, "async"):
(a) on one thread, whose state grows as a conversation's does (logs and messages appended);
(b) each on a thread of its own (the state stays the seed's size).
Target: guarded / bare <= 1.3x in wall time. Runs alternate, bare first, and the medians are
compared; the process's CPU time (every thread: LangGraph saves in the background) is printed
beside it, steadier than wall time on a shared machine.
Prints numbers; never fails. Run: python bench/guard.py [invokes] [rounds]

Measured 2026-12-05 (1,000 invokes, 3 rounds, a shared 2-core machine whose load moves the
wall times): (a) wall 1.01x, CPU 1.11x; (b) wall 0.76x, CPU 1.02x. Where the guard's time
goes on (a)'s growing state: the input checkpoint's check (its input written through the
reducers, then validated) and one validation per task's writes; the checkpoint a step
stores holds the state its writes made and is not validated again. Before a stored
checkpoint's parent was forgotten, the guard kept every state of the thread it had seen
(256) and the garbage collector's passes over them made (a) 1.4-1.5x in CPU.
"""

from __future__ import annotations

import copy
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from core.guard import GuardedSaver
from core.order import SEED_PAYLOAD, AgentState, build_order_graph

TARGET = 1.3


def _run(folder: Path, guarded: bool, invokes: int, one_thread: bool) -> tuple[float, float]:
    """Wall and CPU seconds for `invokes` runs of the seed graph on a new SQLite file."""
    path = folder / f"{'guarded' if guarded else 'bare'}-{time.monotonic_ns()}.sqlite"
    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        saver: BaseCheckpointSaver[Any] = SqliteSaver(conn)
        if guarded:
            saver = GuardedSaver(saver, AgentState)
        graph = build_order_graph().builder.compile(checkpointer=saver)
        payloads = [copy.deepcopy(SEED_PAYLOAD) for _ in range(invokes)]
        start, cpu = time.perf_counter(), time.process_time()
        for n, payload in enumerate(payloads):
            thread = "one" if one_thread else f"t-{n}"
            graph.invoke(payload, {"configurable": {"thread_id": thread}})
        return time.perf_counter() - start, time.process_time() - cpu


def _report(title: str, invokes: int, rounds: int, one_thread: bool) -> None:
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    with tempfile.TemporaryDirectory(prefix="bench-guard-") as folder:
        _run(Path(folder), True, 5, one_thread)  # warm-up: imports, compiled validators
        for _ in range(rounds):
            for guarded in (False, True):
                runs[guarded].append(_run(Path(folder), guarded, invokes, one_thread))
    (bare, bare_cpu), (ours, ours_cpu) = (
        (statistics.median(w for w, _ in runs[g]), statistics.median(c for _, c in runs[g]))
        for g in (False, True)
    )
    print(
        f"{title}: bare {bare:.2f} s ({bare / invokes * 1000:.2f} ms/invoke), guarded "
        f"{ours:.2f} s ({ours / invokes * 1000:.2f} ms/invoke) -> ratio {ours / bare:.2f}x "
        f"(target <= {TARGET}x); CPU {bare_cpu:.2f} s vs {ours_cpu:.2f} s "
        f"-> {ours_cpu / bare_cpu:.2f}x"
    )


if __name__ == "__main__":
    invokes = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    _report(f"(a) {invokes:,} invokes on one thread", invokes, rounds, one_thread=True)
    _report(f"(b) {invokes:,} invokes, a thread each", invokes, rounds, one_thread=False)
