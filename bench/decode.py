"""Benchmark: decode bombs through `python -m core audit`, and what the budget costs a real store.

Each audit runs as its own process, `python bench/decode.py --audit MODE ...` (the CLI's own
`main`, timed around it). Its peak memory is its VmHWM (peak RSS since it started; ru_maxrss
of a forked child would also count the pages of the process it was forked from) plus the
largest VmHWM of the decoder children it waited for. MODE is how a stored value is checked
before it is decoded:
  walk   as committed: `core.stores.budget` walks what the bytes declare (pure Python);
  child  the alternative: the value is decoded first in a child process capped at the budget
         (RLIMIT_AS over its size after start-up, a time limit), then here if it fit. With
         RUST_BACKTRACE=1, ormsgpack's panic on a failed allocation hangs printing the trace
         (it allocates): the child runs with RUST_BACKTRACE=0 and aborts;
  none   no check: the code before the budget (the check replaced by a no-op).
Values of at most budget / 64 bytes are decoded directly in both checks (1 MB by default).

(a) bombs: a SQLite store of two seed threads (LangGraph's SqliteSaver) whose victim's
    latest checkpoint is a msgpack array of 2M or 8M empty maps (2 / 8 MB), one hidden in a
    model's extension payload, and a binary tree of 2^21 arrays (the walk's worst shape:
    each container declares two members; it is read until the count passes 64 MB). Printed
    per mode: the audit's wall time and its peak RSS over the same audit of the clean store
    (targets: <= 64 MB and <= 1 s for the 8 MB bomb), and the row's code.
(b) large legitimate values: the victim's latest checkpoint holding a 10 MB string and 100k
    small dicts: wall time per mode (decodes as before: the row is read).
(c) a legitimate store (bench/audit.py's generator; 1,000 threads / 10,000 checkpoints,
    --quick 1/10): `audit --history --json`, walk vs none, rounds interleaved, best of each,
    timed inside the process around `main` (target <= 1.05x).
(d) in this process: the walk alone over each payload, and the child check alone.

Measured (2 cores shared with other work, load average 2-3, one run): the CLI audit's wall
time and peak memory over the clean store's (0.9-1.2 s, 81 MB):
                      walk             child            none (before)
    2 MB bomb         1.03 s  +14 MB   1.00 s  +78 MB   1.02 s  +151 MB
    8 MB bomb         0.93 s  +50 MB   1.03 s +114 MB   1.45 s  +595 MB
    8 MB in a model   1.00 s  +50 MB   1.07 s +114 MB   1.74 s  +603 MB
    tree of 2^21      1.74 s  +26 MB   1.20 s  +90 MB   1.85 s  +166 MB
    legit 10 MB+100k  1.15 s  +73 MB   1.11 s +136 MB   1.12 s  +73 MB (the row is read)
The check alone (d): each bomb walk 0.1 ms at most (refused at its first header) vs child
110-160 ms (start-up, then decoding until the cap); the tree walk 417 ms vs child 288 ms;
the legit value walk 109 ms vs child 127 ms (then decoded again here). Of the 8 MB bomb's
+50 MB, the walk allocates nothing of note: SQLite reading and sorting the 8 MB row
(core.stores.pages' query) takes about 35 MB, its bytes object 8 MB. The child holds no
bound of 64 MB (its interpreter and cap come on top of the audit), and is slower on every
bomb: the walk is the one kept. (c): walk 0.53 s vs none 0.52 s -> 1.009x (best of 5);
bench/audit.py --quick before and after: audit 0.5 s both.
Prints numbers; never fails. Run: python bench/decode.py [--quick] [--rounds N] [--no-none]
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MB = 1024 * 1024
CHILD_SECONDS = 5.0  # the child check's time limit
# The child: its address space capped at its size now plus the budget, then the value
# decoded as the serde would (an extension payload unpacked as msgpack, recursively).
_CHILD = """
import json, resource, sys
import ormsgpack
budget, type_ = int(sys.argv[1]), sys.argv[2]
payload = sys.stdin.buffer.read()
with open("/proc/self/statm") as statm:
    size = int(statm.read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (size + budget, resource.RLIM_INFINITY))
def ext(code, data):
    return ormsgpack.unpackb(data, ext_hook=ext, option=ormsgpack.OPT_NON_STR_KEYS)
try:
    if type_ == "json":
        json.loads(payload)
    else:
        ormsgpack.unpackb(payload, ext_hook=ext, option=ormsgpack.OPT_NON_STR_KEYS)
except MemoryError:
    sys.exit(3)
except Exception:
    pass  # not over the budget: the decoder in the parent names what is wrong
with open("/proc/self/status") as status:
    print(next(line for line in status if line.startswith("VmHWM")), file=sys.stderr)
"""
_children_peak_kb = [0]  # the largest VmHWM a decoder child reported (or its cap)


def bomb(maps: int) -> bytes:
    """A msgpack array of `maps` empty maps: a byte each stored, a dict each decoded."""
    return b"\xdd" + maps.to_bytes(4, "big") + b"\x80" * maps


def _tree(depth: int) -> bytes:
    return b"\x92" + _tree(depth - 1) * 2 if depth else b"\xc0"


def _in_model(inner: bytes) -> bytes:
    """`inner` as the fields of a LineItem in LangGraph's EXT_PYDANTIC_V2 extension value."""
    import ormsgpack

    payload = (b"\x94" + ormsgpack.packb("core.order") + ormsgpack.packb("LineItem") + inner
               + ormsgpack.packb("model_validate_json"))  # fmt: skip
    return ormsgpack.packb({"channel_values": {"items": [ormsgpack.Ext(5, payload)]}})


def _legit() -> dict[str, Any]:
    return {"logs": ["x" * (10 * MB)],
            "notes": [{"sku": f"ABC-{n}", "qty": n % 7} for n in range(100_000)]}  # fmt: skip


def _store(path: str, damage: bytes | dict[str, Any] | None) -> None:
    """Two seed threads; the victim's latest checkpoint replaced by `damage` (bytes), or
    with `damage` (channel values) added to it."""
    from langgraph.checkpoint.sqlite import SqliteSaver

    from core.order import SEED_PAYLOAD, build_order_graph

    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("clean", "victim"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
        if damage is None:
            return
        saved = saver.get_tuple({"configurable": {"thread_id": "victim", "checkpoint_ns": ""}})
        assert saved is not None
        if isinstance(damage, dict):
            saved.checkpoint["channel_values"].update(damage)
            damage = saver.serde.dumps_typed(saved.checkpoint)[1]
        with conn:
            conn.execute("UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = ?",
                         (damage, saved.config["configurable"]["checkpoint_id"]))  # fmt: skip


def check_in_child(type_: str, payload: object, budget: int) -> None:
    """The alternative to the walk: `OverBudget` when decoding `payload` in a child process
    capped at `budget` bytes runs out of memory or time."""
    from core.stores.budget import OBJECT_BYTES, OverBudget

    if not isinstance(payload, bytes | str) or len(payload) <= budget // OBJECT_BYTES:
        return
    if type_ not in ("msgpack", "json"):
        return
    data = payload.encode() if isinstance(payload, str) else payload
    env = {**os.environ, "RUST_BACKTRACE": "0"}
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, str(budget), type_], input=data,
                              capture_output=True, timeout=CHILD_SECONDS, check=False,
                              env=env)  # fmt: skip
    except subprocess.TimeoutExpired:
        _children_peak_kb[0] = max(_children_peak_kb[0], budget // 1024)
        raise OverBudget(budget) from None
    said = [line for line in done.stderr.decode().splitlines() if line.startswith("VmHWM")]
    # an aborted child says nothing: it may have reached its cap (its start-up size is
    # left out, as the audit's own is in its VmHWM)
    peak = int(said[0].split()[1]) if said else budget // 1024
    _children_peak_kb[0] = max(_children_peak_kb[0], peak)
    if done.returncode != 0:
        raise OverBudget(budget)


def _audit(mode: str, spec: str, history: bool) -> None:
    """In its own process: the CLI audit with `mode`'s check; its seconds on stderr."""
    from core.__main__ import main
    from core.stores import rows, serde

    check = {"none": lambda *args: None, "child": check_in_child}.get(mode)
    if check is not None:
        rows.check_decoded_size = serde.check_decoded_size = check  # type: ignore[assignment]
    argv = ["audit", spec, "--model", "core.order:AgentState", "--json"]
    start = time.perf_counter()
    code = main([*argv, "--history"] if history else argv)
    seconds = time.perf_counter() - start
    with open("/proc/self/status") as status:
        own = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    print(f"AUDIT {seconds} {own} {_children_peak_kb[0]}", file=sys.stderr)
    sys.exit(code)


def run_audit(mode: str, spec: str, history: bool = False) -> dict[str, Any]:
    """One audit process: wall and in-process seconds, peak memory (MB: its own and its
    decoder children's), the unreadable rows' codes."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, __file__, "--audit", mode, spec, *(["--history"] if history else [])],
        cwd=ROOT, capture_output=True, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - start
    said = [line.split() for line in done.stderr.decode().splitlines() if line.startswith("AUDIT")]
    seconds, own, children = (float(part) for part in said[0][1:]) if said else (0.0, 0.0, 0.0)
    out = done.stdout
    codes = [row["code"] for row in json.loads(out)["unreadable"]] if out else ["(no output)"]
    return {"wall": wall, "seconds": seconds, "peak": (own + children) / 1024, "codes": codes}


def _bombs(tmp: Path, modes: list[str]) -> None:
    from core.stores.budget import DEFAULT_BUDGET, check_decoded_size

    cases: dict[str, Any] = {
        "clean": None, "2 MB bomb": bomb(2 * MB), "8 MB bomb": bomb(8 * MB),
        "8 MB bomb in a model": _in_model(bomb(8 * MB - 64)), "tree of 2^21 arrays": _tree(21),
        "legit 10 MB + 100k dicts": _legit(),
    }  # fmt: skip
    specs = {}
    for name, damage in cases.items():
        specs[name] = str(tmp / f"{len(specs)}.sqlite")
        _store(specs[name], damage)
    base = {mode: run_audit(mode, specs["clean"]) for mode in modes}
    for name in list(cases)[1:]:
        for mode in modes:
            run = run_audit(mode, specs[name])
            grew = run["peak"] - base[mode]["peak"]
            print(f"(a) {name:26s} {mode:5s}: wall {run['wall']:.2f} s (clean store "
                  f"{base[mode]['wall']:.2f} s; the audit itself {run['seconds']:.2f} s vs "
                  f"{base[mode]['seconds']:.2f} s), peak memory +{grew:.0f} MB over the clean "
                  f"store's {base[mode]['peak']:.0f} MB, rows {run['codes']}")  # fmt: skip
    print("    (8 MB bomb targets: <= +64 MB, <= 1 s)")
    for name, damage in cases.items():
        if damage is None:
            continue
        if isinstance(damage, dict):
            import ormsgpack

            damage = ormsgpack.packb(damage)
        for label, check in (("walk", check_decoded_size), ("child", check_in_child)):
            start = time.perf_counter()
            try:
                check("msgpack", damage, DEFAULT_BUDGET)
                said = "within"
            except Exception as exc:  # noqa: BLE001 - OverBudget, printed
                said = type(exc).__name__
            print(f"(d) {name:26s} {label:5s} check alone: "
                  f"{(time.perf_counter() - start) * 1000:7.1f} ms -> {said}")  # fmt: skip


def _legit_store(tmp: Path, quick: bool, rounds: int) -> None:
    from bench.audit import build_store

    spec = str(tmp / "legit.sqlite")
    threads, checkpoints = (100, 1_000) if quick else (1_000, 10_000)
    made = build_store("sqlite", spec, threads, checkpoints)
    times: dict[str, list[float]] = {"none": [], "walk": []}
    walls: dict[str, list[float]] = {"none": [], "walk": []}
    for _ in range(rounds):
        for mode in times:
            run = run_audit(mode, spec, history=True)
            times[mode].append(run["seconds"])
            walls[mode].append(run["wall"])
    best = {mode: min(values) for mode, values in times.items()}
    print(f"(c) legit store of {made[0]:,} threads / {made[1]:,} checkpoints, audit --history: "
          f"walk {best['walk']:.2f} s vs none {best['none']:.2f} s -> ratio "
          f"{best['walk'] / best['none']:.3f}x (target <= 1.05x; best of {rounds}; rounds "
          f"{', '.join(f'{t:.2f}' for t in times['walk'])} / "
          f"{', '.join(f'{t:.2f}' for t in times['none'])} s; wall with start-up "
          f"{min(walls['walk']):.2f} / {min(walls['none']):.2f} s; "
          f"load average {os.getloadavg()[0]:.2f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="(c) on 1/10 the store")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds for (c)")
    parser.add_argument("--no-none", action="store_true",
                        help="skip the unchecked audits of bombs (+600 MB each)")  # fmt: skip
    parser.add_argument("--audit", nargs=2, metavar=("MODE", "SPEC"), help=argparse.SUPPRESS)
    parser.add_argument("--history", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.audit:
        _audit(*args.audit, args.history)
        return
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory(prefix="bench-decode-") as tmp:
        _bombs(Path(tmp), ["walk", "child"] + ([] if args.no_none else ["none"]))
        _legit_store(Path(tmp), args.quick, args.rounds)


if __name__ == "__main__":
    main()
