"""Benchmark: a migration's preview against the store audit, as ratios measured in one run.

The store is bench/audit.py's (`build_store`): template threads of the seed order run through
the real seed graph and LangGraph's real saver (SqliteSaver on a file; PostgresSaver on a
throwaway PostgreSQL 15 cluster this bench starts and stops), their rows copied under new
thread ids: 10,000 threads, about 100,000 checkpoints, 10% of them faulty.

The plan carries the seed order to a candidate that adds a required field (`priority`) and
narrows `status` ("validated" is now "checked"): every checkpoint is broken under it, and
nearly every one is fixed by the two steps, so the preview validates each state again after
each step that changes it where it has an error.

(a) `preview_migration(history=True)` over every checkpoint / `audit_store(history=True)` on
    the same store, each in its own process timed around the call only, rounds interleaved,
    best round (target <= 1.5x);
(b) the preview's peak RSS (ru_maxrss of its process) on a store 1/10 the size vs the full
    one, and its growth over the process's RSS once the store is open (target: peaks within
    20%).
(c) `write_migration` (what `--apply` runs) on 2,000 threads (about 9,100 checkpoints) against
    a bare loop of LangGraph's own `update_state` forks over the same states, each on a fresh
    copy of the store: for each thread `--apply` forked, `get_tuple` of its latest checkpoint,
    the plan applied (`apply_plan`), and `update_state` with the changed fields through the
    seed graph compiled over the candidate (target <= 1.2x). Beside it, the bare loop's
    `update_state` calls alone, and the forks each wrote.
    Measured 2026-12-05 (one round, a shared 2-core machine at load average 10-12; the store
    builder's smallest thread has more checkpoints than the issue's, so 2,000 threads hold
    15,067): SQLite --apply 29.2 s vs bare 33.0 s, 0.88x; Postgres 34.7 s vs 28.2 s, 1.23x
    (1,932 and 1,934 forks; the bare loop 1,866 and 1,867: LangGraph's update_state cannot
    prepare an interrupted or failed thread's pending task from its old state). Before one
    compile per graph and LangGraph naming the writing node (a timeline per thread before),
    200 threads took 10.7 s against 3.3 s bare (3.25x). What is left on Postgres: reading and
    validating every thread's latest state before writing, ~15% of the run.
    Measured again 2026-12-05 after LangGraph's look at the thread's latest checkpoint (before
    it stores an update's writes) is answered by the head just read by id (4 -> 3 round trips
    a fork, one tuple decode fewer; the same rows written): Postgres --apply 4.03 / 6.42 /
    4.36 s vs bare 6.22 / 8.48 / 5.55 s, 0.65x / 0.76x / 0.79x in three runs at load average
    8-10 (the same machine, the same hour, before it: 1.08x at load 3.5, 1.16x at load 8-9);
    SQLite 7.64 s vs 8.32 s, 0.92x. Per fork on Postgres now: get_tuple of the head, the
    update's writes (put_writes) and the checkpoint (put), each its own round trip.
With --profile, one more preview of the full store runs under cProfile and its largest
cumulative entries are printed: where the time goes.
Prints numbers; never fails. Run: python bench/migrate.py [--quick] [--profile] [--apply-only]
(--quick: 1/10 the size)
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.audit import build_store, load_average, start_store_bench, store_bench_parser  # noqa: E402
from core.order import AgentState  # noqa: E402

PLAN = """
step = [
  { path = "status", action = "map", from = "validated", to = "checked" },
  { path = "priority", action = "default", value = "normal" },
]
"""


class NextOrder(AgentState):
    """The seed order with a required `priority`, and "validated" renamed "checked"."""

    status: Literal["pending", "checked", "confirmed"] = "pending"
    priority: Literal["normal", "rush"]


def _child(mode: str, spec: str, profile: str = "") -> None:
    """In its own process: one timed pass, its counts and this process's peak RSS as JSON."""
    from core.migrate.plan import parse_plan
    from core.migrate.preview import preview_migration
    from core.stores import audit_store, open_store, strict_serde

    plan = parse_plan(PLAN)
    with open_store(spec, strict_serde([AgentState, NextOrder])) as store:
        opened = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        start, cpu_start = time.perf_counter(), time.process_time()
        if mode == "preview":
            preview = preview_migration(store, AgentState, NextOrder, plan, history=True)
            counts = (preview.checkpoints, preview.broken_before, preview.fixed)
        else:
            result = audit_store(store, AgentState, history=True)
            counts = (result.checkpoints, len(result.invalid), 0)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        if profile:
            profiler.disable()
            profiler.dump_stats(profile)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "cpu": cpu, "checkpoints": counts[0],
                      "broken": counts[1], "fixed": counts[2], "opened_kb": opened,
                      "peak_kb": peak}))  # fmt: skip


def _measure(mode: str, spec: str, profile: str = "") -> dict:
    argv = [sys.executable, __file__, "--child", mode, spec, *([profile] if profile else [])]
    return json.loads(subprocess.run(argv, cwd=ROOT, capture_output=True, text=True,
                                     check=True).stdout)  # fmt: skip


def _profile(kind: str, spec: str, root: Path) -> None:
    """Where the preview's time goes: its 12 largest cumulative entries of our own code and
    Pydantic's, from one profiled run."""
    import pstats

    path = root / f"preview-{kind}.prof"
    _measure("preview", spec, str(path))
    stats = pstats.Stats(str(path))
    rows = [(stats.stats[key][3], key) for key in stats.stats]  # type: ignore[attr-defined]
    total = max(seconds for seconds, _ in rows)
    shown = [
        (seconds, f"{Path(file).name}:{line} {name}")
        for seconds, (file, line, name) in sorted(rows, reverse=True)
        if ("core/" in file or "pydantic" in file or "langgraph" in file) and seconds > 0.02 * total
    ][:12]
    print(f"[{kind}]     profile (cumulative seconds of {total:.1f} s under the profiler):")
    for seconds, where in shown:
        print(f"[{kind}]       {seconds:6.2f} s  {where}")


def _report(kind: str, small: str, big: str, rounds: int, root: Path, profile: bool) -> None:
    times: dict[str, list[float]] = {"preview": [], "audit": []}
    runs: dict[str, dict] = {}
    for _ in range(rounds):
        for mode in ("audit", "preview"):
            runs[mode] = _measure(mode, big)
            times[mode].append(runs[mode]["seconds"])
    ours, audit = min(times["preview"]), min(times["audit"])
    done = runs["preview"]
    print(f"[{kind}] (a) {done['checkpoints']:,} checkpoints ({done['broken']:,} broken under "
          f"the candidate, {done['fixed']:,} fixed; the audit: {runs['audit']['broken']:,} "
          f"invalid under the model): preview {ours:.1f} s, audit_store {audit:.1f} s -> ratio "
          f"{ours / audit:.2f}x (target <= 1.5x; best of {rounds}, rounds "
          f"{', '.join(f'{t:.1f}' for t in times['preview'])} / "
          f"{', '.join(f'{t:.1f}' for t in times['audit'])} s; {load_average()})")  # fmt: skip
    few = _measure("preview", small)
    grow = [(r["peak_kb"] - r["opened_kb"]) / 1024 for r in (few, done)]
    print(f"[{kind}] (b) peak RSS {few['checkpoints']:,} checkpoints {few['peak_kb'] / 1024:.0f}"
          f" MB vs {done['checkpoints']:,} {done['peak_kb'] / 1024:.0f} MB -> ratio "
          f"{done['peak_kb'] / few['peak_kb']:.2f}x (target <= 1.2x); growth after opening the "
          f"store {grow[0]:.1f} MB vs {grow[1]:.1f} MB")  # fmt: skip
    if profile:
        _profile(kind, big, root)


APPLY_SIZE = (2_000, 9_100)  # threads, checkpoints: the measured store


def _bare_forks(kind: str, spec: str, threads: list[str]) -> tuple[float, float, int]:
    """The bare loop: wall seconds in all, seconds in `update_state`, forks written."""
    from pydantic_core import to_jsonable_python

    from core.migrate.apply import apply_plan
    from core.migrate.graph import with_state
    from core.migrate.plan import parse_plan
    from core.order import build_order_graph
    from core.stores import strict_serde

    plan, serde = parse_plan(PLAN), strict_serde([AgentState, NextOrder])
    with _saver(kind, spec, serde) as saver:
        graph = with_state(build_order_graph(["parallel_status"]), NextOrder).compile(
            checkpointer=saver
        )
        start, in_update, written = time.perf_counter(), 0.0, 0
        for thread in threads:
            config = {"configurable": {"thread_id": thread, "checkpoint_ns": ""}}
            saved = saver.get_tuple(config)
            values = saved.checkpoint["channel_values"]
            state = {k: v for k, v in values.items() if not k.startswith("__") and ":" not in k}
            after = apply_plan(plan, state).state
            changed = {k: v for k, v in after.items()
                       if to_jsonable_python(state.get(k)) != to_jsonable_python(v)}  # fmt: skip
            began = time.perf_counter()
            try:
                graph.update_state(saved.config, changed)
                written += 1
            except Exception:  # noqa: BLE001 - a pending task LangGraph cannot prepare
                pass
            in_update += time.perf_counter() - began
        return time.perf_counter() - start, in_update, written


@contextmanager
def _saver(kind: str, spec: str, serde):
    if kind == "sqlite":
        import sqlite3

        from langgraph.checkpoint.sqlite import SqliteSaver

        conn = sqlite3.connect(spec, check_same_thread=False)
        try:
            yield SqliteSaver(conn, serde=serde)
        finally:
            conn.close()
        return
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver
    from psycopg.rows import dict_row

    with psycopg.connect(spec, autocommit=True, prepare_threshold=0, row_factory=dict_row) as conn:
        yield PostgresSaver(conn, serde=serde)


def _ours(spec: str) -> tuple[float, list[str]]:
    """`write_migration` as `--apply` runs it: wall seconds, the threads it forked."""
    from core.migrate.plan import parse_plan
    from core.migrate.write import write_migration
    from core.order import build_order_graph
    from core.stores import strict_serde

    graph = build_order_graph(["parallel_status"])  # as the CLI passes --graph: one graph
    start = time.perf_counter()
    written = write_migration(spec, AgentState, NextOrder, parse_plan(PLAN), lambda _: graph,
                              strict_serde([AgentState, NextOrder]))  # fmt: skip
    return time.perf_counter() - start, [w.thread_id for w in written]


def _apply_report(kind: str, root: Path, cluster, scale: int) -> None:
    os.environ["PLAYGROUND_STORE_WRITES"] = "1"  # --apply's switch; this bench's own stores
    threads, checkpoints = APPLY_SIZE[0] // scale, APPLY_SIZE[1] // scale
    specs = []
    for name in ("ours", "bare"):
        if kind == "sqlite":
            specs.append(str(root / f"apply-{name}.sqlite"))
        else:
            specs.append(cluster.create_database(f"apply{name}"))
        made = build_store(kind, specs[-1], threads, checkpoints)
    ours, forked = _ours(specs[0])
    bare, in_update, written = _bare_forks(kind, specs[1], forked)
    print(f"[{kind}] (c) {made[0]:,} threads / {made[1]:,} checkpoints: --apply {ours:.2f} s "
          f"({len(forked):,} forks), bare update_state loop {bare:.2f} s ({written:,} forks; "
          f"{in_update:.2f} s inside update_state) -> ratio {ours / bare:.2f}x (target <= 1.2x;"
          f" vs update_state alone {ours / in_update:.2f}x; {load_average()})")  # fmt: skip


def _stores(kind: str, root: Path, sizes: list[tuple[int, int]], cluster) -> list[str]:
    specs = []
    for threads, checkpoints in sizes:
        start = time.perf_counter()
        if kind == "sqlite":
            specs.append(str(root / f"store-{threads}.sqlite"))
        else:
            specs.append(cluster.create_database(f"store{threads}"))
        made = build_store(kind, specs[-1], threads, checkpoints)
        print(f"[{kind}] store of {made[0]:,} threads / {made[1]:,} checkpoints written in "
              f"{time.perf_counter() - start:.1f} s")  # fmt: skip
    return specs


def main() -> None:
    parser = store_bench_parser(__doc__, 3, "(a)")
    parser.add_argument("--profile", action="store_true", help="where the preview's time goes")
    parser.add_argument("--apply-only", action="store_true", help="only (c): --apply vs bare")
    parser.add_argument("--child", nargs="+", metavar="ARG", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes = start_store_bench(args.quick)
    scale = 10 if args.quick else 1
    with tempfile.TemporaryDirectory(prefix="bench-migrate-") as tmp:
        for kind in [args.only] if args.only else ["sqlite", "postgres"]:
            if kind == "sqlite":
                if not args.apply_only:
                    small, big = _stores(kind, Path(tmp), sizes, None)
                    _report(kind, small, big, args.rounds, Path(tmp), args.profile)
                _apply_report(kind, Path(tmp), None, scale)
                continue
            from bench._postgres import throwaway_postgres

            with throwaway_postgres() as cluster:
                if not args.apply_only:
                    small, big = _stores(kind, Path(tmp), sizes, cluster)
                    _report(kind, small, big, args.rounds, Path(tmp), args.profile)
                _apply_report(kind, Path(tmp), cluster, scale)


if __name__ == "__main__":
    main()
