"""Benchmark: the seed graph on SQLite through GuardedSaver against the bare SqliteSaver.

1,000 invokes of core.order.build_order_graph, each storing its input checkpoint and one per
step, on a real SQLite file (LangGraph's default durability, "async"):
(a) on one thread, whose state grows as a conversation's does (logs and messages appended);
(b) each on a thread of its own (the state stays the seed's size).
Target: guarded / bare <= 1.3x in wall time. Runs alternate, bare first, and the medians are
compared; the process's CPU time (every thread: LangGraph saves in the background) is printed
beside it, steadier than wall time on a shared machine.
(c) `get_tuple` of a thread written before the model changed (AgentState's `amount` renamed
`total`), read through GuardedSaver with `migrate=` a plan TOML (one rename), against the
bare saver's `get_tuple` of the same thread (no target: the issue asks for the ratio).
Prints numbers; never fails. Run: python bench/guard.py [invokes] [rounds]

Measured 2026-12-05 (1,000 invokes, 3 rounds, a shared 2-core machine whose load moves the
wall times): (a) wall 1.01x, CPU 1.11x; (b) wall 0.76x, CPU 1.02x. Where the guard's time
goes on (a)'s growing state: the input checkpoint's check (its input written through the
reducers, then validated) and one validation per task's writes; the checkpoint a step
stores holds the state its writes made and is not validated again. Before a stored
checkpoint's parent was forgotten, the guard kept every state of the thread it had seen
(256) and the garbage collector's passes over them made (a) 1.4-1.5x in CPU.
(c), 500 old threads, 5 rounds: bare 287 us, migrated on read 934 us per get_tuple: 3.25x
(3.84x before the read's check stopped working out a rejected state's errors in full only to
learn that it is rejected). What is left: the two checks (the stored state, the migrated
one), the plan, and the saver's own read. LangGraph reads a thread once per run, and the
run's first checkpoint stores the migrated state: from then on a read costs the bare
saver's plus one validation.
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
from pydantic import BaseModel, create_model

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


PLAN = '[[step]]\npath = "amount"\naction = "rename"\nto = "total"\n'


def _renamed_model() -> type[BaseModel]:
    """AgentState with `amount` renamed `total`: every thread the seed graph wrote is old."""
    fields: dict[str, Any] = {n: (f.annotation, f) for n, f in AgentState.model_fields.items()}
    fields["total"] = fields.pop("amount")
    return create_model("AgentStateV2", __config__=AgentState.model_config, **fields)


def _read_report(threads: int, rounds: int) -> None:
    """(c): median seconds per `get_tuple`, bare vs guarded with a migration on read."""
    with tempfile.TemporaryDirectory(prefix="bench-guard-") as folder:
        plan = Path(folder) / "plan.toml"
        plan.write_text(PLAN, encoding="utf-8")
        with closing(sqlite3.connect(Path(folder) / "old.sqlite", check_same_thread=False)) as c:
            bare = SqliteSaver(c)
            graph = build_order_graph().builder.compile(checkpointer=bare)
            configs: list[Any] = [{"configurable": {"thread_id": f"t-{n}"}} for n in range(threads)]
            for config in configs:
                graph.invoke(copy.deepcopy(SEED_PAYLOAD), config, durability="sync")
            guarded = GuardedSaver(bare, _renamed_model(), migrate=plan)
            read = guarded.get_tuple(configs[0])
            assert read is not None and "total" in read.checkpoint["channel_values"]
            times: dict[bool, list[float]] = {False: [], True: []}
            for _ in range(rounds):
                for saver in (bare, guarded):
                    start = time.perf_counter()
                    for config in configs:
                        saver.get_tuple(config)
                    times[saver is guarded].append((time.perf_counter() - start) / threads)
    plain, migrated = statistics.median(times[False]), statistics.median(times[True])
    print(
        f"(c) get_tuple of {threads:,} old threads: bare {plain * 1e6:.0f} us, guarded and "
        f"migrated on read {migrated * 1e6:.0f} us -> ratio {migrated / plain:.2f}x"
    )


if __name__ == "__main__":
    invokes = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    _report(f"(a) {invokes:,} invokes on one thread", invokes, rounds, one_thread=True)
    _report(f"(b) {invokes:,} invokes, a thread each", invokes, rounds, one_thread=False)
    _read_report(min(invokes, 500), max(rounds, 5))
