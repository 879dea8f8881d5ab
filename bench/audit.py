"""Benchmark: the store audit against the bare saver loop, as ratios measured in one run.

How the store is made: eight template threads are run through the real seed graph and
LangGraph's real saver (SqliteSaver on a file; PostgresSaver on a throwaway PostgreSQL 15
cluster that this bench starts and stops): a clean order over two turns (8 checkpoints) and
over three (12), and one thread per fault of `core.order.FAULTS` (2-4 checkpoints; a
written fault is an invalid stored state). Their rows in every table of the saver
(checkpoints, writes / checkpoint_blobs, checkpoint_writes) are then copied under new
thread ids by `INSERT ... SELECT` in one transaction, so 10,000 threads are written in
seconds rather than by 10,000 graph runs. 10% of the threads are faulty copies, the rest
clean, mixed so the store holds about 100,000 checkpoints; the templates are deleted.

(a) `audit_store(history=True)` over every checkpoint / the bare loop (`saver.list` of each
    thread + `AgentState.model_validate` of its state), each in its own process timed
    around the loop only, rounds interleaved, best round (target <= 1.5x);
(b) the audit's peak RSS (ru_maxrss of its process) on a store of 1,000 threads / 10,000
    checkpoints vs 10,000 / 100,000, and its growth over the process's RSS once the
    store is open (target: peaks within 20%);
(c) `python -m core audit --history --json` wall time, whole store in one process vs
    `--shards 2` in two processes at once (each given its JOB_COMPLETION_INDEX, as a
    Kubernetes Indexed Job's pods are), best of the rounds, as a speed-up; beside it, in the
    same rounds, the machine's own ceiling for two processes at once: a plain pure-Python CPU
    loop run alone vs twice at once (2.00x on two idle, unshared cores; less when other work
    shares them). Target: speed-up >= 0.9x that ceiling. Beside it: each shard's threads and
    checkpoints, each process's start-up CPU, the audit loop alone without start-up, and
    (Postgres) the server's own CPU, which shares the same cores;
(d) the shard hash's balance: how many of 10,000 uuid4-style ids and of 10,000 sequential
    ones ("thread-00001"...) each of 2, 4 and 8 shards gets, the largest as a multiple of 1/N.
Prints numbers; never fails. Run: python bench/audit.py [--quick]  (--quick: 1/10 the size)
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# thread template -> (faults, turns); the clean ones fill the store, 5% are faulty
_TEMPLATES: dict[str, tuple[tuple[str, ...], int]] = {
    "clean-2": ((), 2),
    "clean-3": ((), 3),
    **{f"fault-{f}": ((f,), 1) for f in ("negative_amount", "bad_status_last",
       "undeclared_key", "parallel_status", "overwrite_logs", "node_exception")},
}  # fmt: skip
_FAULTY_SHARE = 0.10


def _run_templates(saver) -> None:
    from core.order import SEED_PAYLOAD, build_order_graph

    for name, (faults, turns) in _TEMPLATES.items():
        graph = build_order_graph(faults).builder.compile(checkpointer=saver)
        config = {"configurable": {"thread_id": f"tpl-{name}"}, "recursion_limit": 10}
        try:
            graph.invoke(copy.deepcopy(SEED_PAYLOAD), config)
            for turn in range(1, turns):
                graph.invoke({"messages": [{"type": "human", "content": f"turn {turn}"}]}, config)
        except Exception:  # noqa: BLE001 - a fault's raise: the store keeps what was checkpointed before it
            pass


def _mix(threads: int, checkpoints: int, sizes: dict[str, int]) -> list[str]:
    """One template per new thread: faulty ones round-robin, clean 2/3-turn ones to fit."""
    faulty = [name for name in sizes if name.startswith("fault-")]
    chosen = [faulty[n % len(faulty)] for n in range(round(threads * _FAULTY_SHARE))]
    rest = threads - len(chosen)
    left = checkpoints - sum(sizes[name] for name in chosen)
    small, big = sizes["clean-2"], sizes["clean-3"]
    n_big = min(rest, max(0, (left - small * rest) // (big - small)))
    return chosen + ["clean-3"] * n_big + ["clean-2"] * (rest - n_big)


def _replicate(conn, kind: str, plan: list[str]) -> None:
    """Copy each template's rows in every saver table under the new ids `t00000`, `t00001`..."""
    tables = ("checkpoints", "writes") if kind == "sqlite" else (
        "checkpoints", "checkpoint_blobs", "checkpoint_writes")  # fmt: skip
    mapping = [(f"t{n:05d}", f"tpl-{name}") for n, name in enumerate(plan)]
    mark = "?" if kind == "sqlite" else "%s"
    cur = conn.cursor()
    cur.execute("CREATE TEMP TABLE copies (new_id TEXT, tpl TEXT)")
    cur.executemany(f"INSERT INTO copies VALUES ({mark}, {mark})", mapping)
    for table in tables:
        if kind == "sqlite":
            columns = [row[1] for row in cur.execute(f"PRAGMA table_info({table})").fetchall()]
        else:
            cur.execute("SELECT column_name FROM information_schema.columns WHERE table_name = "
                        "%s ORDER BY ordinal_position", (table,))  # fmt: skip
            columns = [row[0] for row in cur.fetchall()]
        picked = ", ".join("m.new_id" if c == "thread_id" else f"t.{c}" for c in columns)
        cur.execute(f"INSERT INTO {table} ({', '.join(columns)}) SELECT {picked} "
                    f"FROM {table} t JOIN copies m ON t.thread_id = m.tpl")  # fmt: skip
        cur.execute(f"DELETE FROM {table} WHERE thread_id LIKE 'tpl-%'")
    cur.execute("DROP TABLE copies")


def build_store(kind: str, spec: str, threads: int, checkpoints: int) -> tuple[int, int]:
    """Write the store at `spec`; returns (threads, checkpoints) actually stored."""
    if kind == "sqlite":
        from langgraph.checkpoint.sqlite import SqliteSaver

        with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
            _run_templates(SqliteSaver(conn))
            sizes = dict(conn.execute("SELECT substr(thread_id, 5), count(*) FROM checkpoints "
                                      "GROUP BY thread_id").fetchall())  # fmt: skip
            with conn:
                _replicate(conn, kind, _mix(threads, checkpoints, sizes))
            conn.execute("VACUUM")
            return conn.execute("SELECT count(DISTINCT thread_id), count(*) "
                                "FROM checkpoints").fetchone()  # fmt: skip
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    with PostgresSaver.from_conn_string(spec) as saver:
        saver.setup()
        _run_templates(saver)
    with psycopg.connect(spec) as conn:  # one transaction, committed on exit
        sizes = dict(conn.execute("SELECT substr(thread_id, 5), count(*) FROM checkpoints "
                                  "GROUP BY thread_id").fetchall())  # fmt: skip
        _replicate(conn, kind, _mix(threads, checkpoints, sizes))
    with psycopg.connect(spec, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        return conn.execute("SELECT count(DISTINCT thread_id), count(*) "
                            "FROM checkpoints").fetchone()  # fmt: skip


def _child(mode: str, spec: str, shard: str = "0/1") -> None:
    """In its own process: one timed pass, its counts and this process's peak RSS as JSON."""
    from pydantic import ValidationError

    from core.order import AgentState
    from core.stores import audit_store, open_store, strict_serde
    from core.stores.audit import stored_state

    with open_store(spec, strict_serde([AgentState])) as store:
        if mode == "bare":  # LangGraph's saver with its default serializer, as a user would
            saver = type(store.saver)(store.saver.conn)
            if store.kind == "sqlite":
                saver.is_setup = True
            threads = [row[0] for row in store.query(
                "SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id", ())]  # fmt: skip
        opened = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start, cpu_start = time.perf_counter(), time.process_time()
        if mode == "ours":
            index, shards = (int(part) for part in shard.split("/"))
            result = audit_store(store, AgentState, history=True, shard=(index, shards))
            counts = (result.checkpoints, len(result.invalid), result.threads)
        else:
            checked = invalid = 0
            for thread in threads:
                for saved in saver.list({"configurable": {"thread_id": thread,
                                                          "checkpoint_ns": ""}}):  # fmt: skip
                    checked += 1
                    try:
                        AgentState.model_validate(stored_state(saved))
                    except ValidationError as exc:
                        exc.errors()
                        invalid += 1
            counts = (checked, invalid, len(threads))
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(json.dumps({"seconds": seconds, "cpu": cpu, "checkpoints": counts[0],
                      "invalid": counts[1], "threads": counts[2], "opened_kb": opened,
                      "peak_kb": peak}))  # fmt: skip


def _measure(mode: str, spec: str, *shards: str) -> list[dict]:
    """One child per shard (none: the whole store), all at once; each child's JSON."""
    children = [subprocess.Popen([sys.executable, __file__, "--child", mode, spec, shard],
                                 cwd=ROOT, stdout=subprocess.PIPE, text=True)
                for shard in shards or ("0/1",)]  # fmt: skip
    return [json.loads(child.communicate()[0]) for child in children]


def _cli(spec: str, index: int | None, shards: int = 2) -> subprocess.Popen:
    """`python -m core audit`: the whole store (index None), or as pod `index` of an
    Indexed Job of `shards` pods."""
    env = dict(os.environ)
    env.pop("JOB_COMPLETION_INDEX", None)
    if index is not None:
        env["JOB_COMPLETION_INDEX"] = str(index)
    return subprocess.Popen(
        [sys.executable, "-m", "core", "audit", spec, "--model", "core.order:AgentState",
         "--history", "--json", *(["--shards", str(shards)] if index is not None else [])],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _wall(*indexes: int | None, spec: str, server=None) -> tuple[float, float, float]:
    """Wall seconds until every process is done, the CPU seconds they used together, and
    the Postgres server's (0 for SQLite)."""
    served = server.server_cpu() if server is not None else 0.0
    start, cpu = time.perf_counter(), _cpu()
    for process in [_cli(spec, index) for index in indexes]:
        process.wait()
    wall, used = time.perf_counter() - start, _cpu() - cpu
    time.sleep(0.2)  # the backends exit and are reaped: their CPU reaches the postmaster
    return wall, used, (server.server_cpu() - served if server is not None else 0.0)


_SPIN = "x = 0\nfor i in range(20_000_000): x += i"  # CPU-bound pure Python, no I/O


def _spin(count: int) -> float:
    """Wall seconds of `count` processes each running the same CPU loop, all at once."""
    start = time.perf_counter()
    for process in [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(count)]:
        process.wait()
    return time.perf_counter() - start


def _balance() -> None:
    """(d) How evenly the shard hash spreads uuid4-style and sequential ids."""
    import random
    import uuid
    from collections import Counter

    from core.stores import shard_of

    draw = random.Random(20_240_601)
    sets = {
        "uuid4": [str(uuid.UUID(int=draw.getrandbits(128), version=4)) for _ in range(10_000)],
        "sequential": [f"thread-{n:05d}" for n in range(1, 10_001)],
    }
    for name, ids in sets.items():
        for shards in (2, 4, 8):
            counts = Counter(shard_of(thread, shards) for thread in ids)
            spread = [counts[index] for index in range(shards)]
            print(f"(d) {len(ids):,} {name} ids over {shards} shards: "
                  f"{' / '.join(f'{n:,}' for n in spread)}; the largest "
                  f"{max(spread) * shards / len(ids):.3f}/N (test: <= 1.25/N)")  # fmt: skip


def load_average() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _report(kind: str, small: str, big: str, rounds: int, server=None) -> None:
    times: dict[str, list[float]] = {"ours": [], "bare": []}
    runs: dict[str, dict] = {}
    for _ in range(rounds):
        for mode in ("bare", "ours"):
            runs[mode] = _measure(mode, big)[0]
            times[mode].append(runs[mode]["seconds"])
    ours, bare = min(times["ours"]), min(times["bare"])
    n = runs["ours"]["checkpoints"]
    print(f"[{kind}] (a) {n:,} checkpoints ({runs['ours']['invalid']:,} invalid; bare loop "
          f"{runs['bare']['checkpoints']:,}/{runs['bare']['invalid']:,}): audit {ours:.1f} s, "
          f"bare loop {bare:.1f} s -> ratio {ours / bare:.2f}x (target <= 1.5x; best of "
          f"{rounds}, rounds {', '.join(f'{t:.1f}' for t in times['ours'])} / "
          f"{', '.join(f'{t:.1f}' for t in times['bare'])} s; {load_average()})")  # fmt: skip
    few = _measure("ours", small)[0]
    grow = [(r["peak_kb"] - r["opened_kb"]) / 1024 for r in (few, runs["ours"])]
    print(f"[{kind}] (b) peak RSS {few['checkpoints']:,} checkpoints {few['peak_kb'] / 1024:.0f}"
          f" MB vs {n:,} {runs['ours']['peak_kb'] / 1024:.0f} MB -> ratio "
          f"{runs['ours']['peak_kb'] / few['peak_kb']:.2f}x (target <= 1.2x); growth after "
          f"opening the store {grow[0]:.1f} MB vs {grow[1]:.1f} MB")  # fmt: skip
    walls: dict[str, list[tuple[float, float, float]]] = {"one": [], "two": []}
    loops: dict[str, list[list[dict]]] = {"one": [], "two": []}
    spins: dict[int, list[float]] = {1: [], 2: []}
    before = load_average()
    for _ in range(rounds):
        walls["one"].append(_wall(None, spec=big, server=server))
        walls["two"].append(_wall(0, 1, spec=big, server=server))
        for count in (1, 2):  # the control, in the same rounds: the machine as it is now
            spins[count].append(_spin(count))
        loops["one"].append(_measure("ours", big))
        loops["two"].append(_measure("ours", big, "0/2", "1/2"))
    (one, cpu_one, srv_one), (two, cpu_two, srv_two) = min(walls["one"]), min(walls["two"])
    speedup, ceiling = one / two, 2 * min(spins[1]) / min(spins[2])
    loop_one = min(loops["one"], key=lambda runs: runs[0]["seconds"])[0]
    loop_two = min(loops["two"], key=lambda runs: max(r["seconds"] for r in runs))
    slowest = max(r["seconds"] for r in loop_two)
    print(f"[{kind}] (c) python -m core audit --history: one process {one:.1f} s, --shards 2 "
          f"as two Indexed Job pods at once {two:.1f} s -> speed-up {speedup:.2f}x; the "
          f"machine's own ceiling (a CPU loop alone vs twice at once, same rounds) "
          f"{ceiling:.2f}x -> {speedup / ceiling:.2f} of it (target >= 0.9; best of {rounds}; "
          f"{before} before, {load_average()} after)")  # fmt: skip
    startup = (cpu_two - sum(r["cpu"] for r in loop_two)) / 2
    print(f"[{kind}]     shard balance: threads {loop_two[0]['threads']:,} / "
          f"{loop_two[1]['threads']:,}, checkpoints {loop_two[0]['checkpoints']:,} / "
          f"{loop_two[1]['checkpoints']:,}, loop CPU {loop_two[0]['cpu']:.1f} / "
          f"{loop_two[1]['cpu']:.1f} s (one process: {loop_one['cpu']:.1f} s)")  # fmt: skip
    print(f"[{kind}]     why: CPU of the audit processes {cpu_one:.1f} s (one) vs {cpu_two:.1f}"
          f" s (both), of which start-up (imports, opening the store) ~{startup:.1f} s per "
          f"process; the audit loop alone (no start-up) {loop_one['seconds']:.1f} s vs "
          f"{slowest:.1f} s -> {loop_one['seconds'] / slowest:.2f}x")  # fmt: skip
    if server is not None:
        print(f"[{kind}]     the Postgres server's own CPU: {srv_one:.1f} s (one) vs "
              f"{srv_two:.1f} s (both), on the same cores")  # fmt: skip


@contextmanager
def _stores(kind: str, root: Path, sizes: list[tuple[int, int]]):
    """Specs of fresh stores of each (threads, checkpoints) size on `kind`."""
    if kind == "sqlite":
        specs = [str(root / f"store-{t}.sqlite") for t, _ in sizes]
        for spec, (threads, checkpoints) in zip(specs, sizes, strict=True):
            start = time.perf_counter()
            made = build_store(kind, spec, threads, checkpoints)
            print(f"[sqlite] store of {made[0]:,} threads / {made[1]:,} checkpoints written in "
                  f"{time.perf_counter() - start:.1f} s")  # fmt: skip
        yield specs, None
        return
    from bench._postgres import throwaway_postgres

    with throwaway_postgres() as cluster:
        specs = []
        for threads, checkpoints in sizes:
            start = time.perf_counter()
            specs.append(cluster.create_database(f"store{threads}"))
            made = build_store(kind, specs[-1], threads, checkpoints)
            print(f"[postgres] store of {made[0]:,} threads / {made[1]:,} checkpoints written "
                  f"in {time.perf_counter() - start:.1f} s")  # fmt: skip
        yield specs, cluster


def store_bench_parser(doc: str, rounds: int, measured: str) -> argparse.ArgumentParser:
    """The options of a bench on this module's stores (this one and bench/migrate.py): --quick,
    --rounds (`rounds` of the measurements named by `measured`) and --only one backend."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1/10 the size, for a smoke run")
    parser.add_argument(
        "--rounds", type=int, default=rounds, help=f"interleaved rounds for {measured}"
    )
    parser.add_argument("--only", choices=["sqlite", "postgres"], help="one backend")
    return parser


def start_store_bench(quick: bool) -> list[tuple[int, int]]:
    """Print the machine's cores and load (what every number after depends on); return the
    (threads, checkpoints) of the small and the full store, 1/10 of each with --quick."""
    print(f"{os.cpu_count()} cores; {load_average()} at start")
    scale = 10 if quick else 1
    return [(1_000 // scale, 10_000 // scale), (10_000 // scale, 100_000 // scale)]


def main() -> None:
    parser = store_bench_parser(__doc__, 2, "(a) and (c)")
    parser.add_argument("--child", nargs=3, metavar=("MODE", "SPEC", "SHARD"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    sizes = start_store_bench(args.quick)
    _balance()
    with tempfile.TemporaryDirectory(prefix="bench-audit-") as tmp:
        for kind in [args.only] if args.only else ["sqlite", "postgres"]:
            with _stores(kind, Path(tmp), sizes) as ((small, big), server):
                _report(kind, small, big, args.rounds, server)


if __name__ == "__main__":
    main()
