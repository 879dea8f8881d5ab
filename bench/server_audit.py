"""Benchmark: a LangGraph server's audit against the bare SDK loop, as ratios measured in one run.

How the stores are made: two real, offline `langgraph dev` servers (tests/_langgraph_server.py)
serve tests/fixtures/server_graph, each on the in-memory runtime. Their threads are written
by the server itself, not by running the graph (`runs.wait` costs about a second a run
there, its queue polling): `threads.create(graph_id="orders", supersteps=...)` replays an
order run as LangGraph's own `bulk_update_state`, one superstep per step of a real run
(the input as `__input__`, then `__start__`, `merge_lines`, `answer`, each writing what
that node writes), so each thread holds the values a run leaves (lines, status, notes,
messages) over the same four checkpoints, their tasks and results. On the mixed server 5%
of the threads, spread through the id order, get a fifth superstep after the run: a line
with a bad SKU written as `answer` (what `threads.update_state` does after a run). The
server refuses a bad line anywhere else: preparing the next node's input validates it. A
real run (runs.wait) of one order is compared with its replay, then deleted.

Each round times, in this process, on a client opened before the clock starts:
(a) the audit: `audit_any(store, OrderState)` on `open_any(URL)`: threads.search pages of
    1000 (the next one asked for while this one is checked), each thread's values validated
    in JSON mode; one get_state per invalid thread (its
    row names the checkpoint id and step of the state checked; a few in flight at once while
    the audit reads on), none per valid one, no history (blame is `--history`'s): get_state
    and get_history calls are counted and timed, by wrapping the SDK client's methods on that
    instance, to show it;
(b) the bare SDK loop: the same search pages (limit 1000, offset, the same id order) and
    `OrderState.model_validate_json(json.dumps(values))` per thread, nothing more;
(c) the bare SDK loop with the audit's output: (b), and get_state for each invalid thread,
    one at a time, for the checkpoint id and step;
(d) the floor: those get_state requests alone (the invalid threads' ids known beforehand),
    as many in flight as the audit sends (`STATES_AT_ONCE`), no search, no validation: what
    the requests the issue asks for cost by themselves.
Rounds alternate the order of (a)-(d); both servers are measured in every round, and each
run's CPU time is read too, this process's (`time.process_time`) and the server's (its
threads' /proc schedstat, Linux). Printed: best and median of each, the ratio of the bests
(target <= 1.1x) on the mixed and on the all-valid server (the difference is the cost of
invalid states' rows), the audit against (b) + (d) (no overlap at all) and its time beyond
(b) against (d), the CPU medians, the get_state and get_history requests made,
`python -m core audit URL --json` as a subprocess (wall time, start-up included), and a
cProfile of one audit's own thread on a server whose ratio is above 1.1x (--profile: on both).

Why (d) and not fewer requests: langgraph-api's routes answer one thread's state or history
a request (/threads/{id}/state, /state/{checkpoint_id}, /history); the search's thread
record holds the values but no checkpoint id, and nothing answers several threads'
checkpoints at once. A get_state costs the server 1-1.5 ms of CPU here (its web framework
most of it: a threads.get costs nearly as much; then the graph's aget_state) and this
process about 0.6 ms (httpx and the SDK), which the GIL serialises with the validation: the
audit is CPU-bound on both sides, so overlapping the requests with the validation gains
little, and with 5% invalid threads it cannot come near (b). Compare it with (b) + (d).
Prints numbers; never fails.
Run: python bench/server_audit.py [--threads N] [--rounds N] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODEL = "server_graph.graph:OrderState"
_INVALID_EVERY = 20  # 5% of the threads
_WRITERS = 4  # threads.create requests in flight at once while the store is filled
_TARGET = 1.1
_SKUS = ("ABC-123", "DEF-456", "GHI-789", "JKL-012")


def _thread_id(n: int) -> str:
    """Ids that sort as they are numbered, so the invalid ones are spread through the pages."""
    return str(uuid.UUID(f"30000000-0000-4000-8000-{n:012x}"))


def _order_run(n: int, invalid: bool) -> list[dict[str, Any]]:
    """Supersteps that write what a run of the order graph on an order of 1-3 lines writes,
    node by node; `invalid`: then a line with a bad SKU, written as `answer`."""
    lines = [{"sku": _SKUS[(n + k) % len(_SKUS)], "qty": 1 + (n + k) % 5} for k in range(1 + n % 3)]
    order = {"lines": lines, "messages": [{"type": "human", "content": f"order {n}"}]}
    merged = {"lines": lines, "status": "counted", "notes": [f"{len(lines)} lines"]}
    reply = {"type": "ai", "content": f"{len(lines)} lines noted", "id": "answer-1"}
    steps = [
        {"updates": [{"values": order, "as_node": "__input__"}]},
        {"updates": [{"values": order, "as_node": "__start__"}]},
        {"updates": [{"values": merged, "as_node": "merge_lines"}]},
        {"updates": [{"values": {"status": "answered", "messages": [reply]}, "as_node": "answer"}]},
    ]
    if invalid:
        bad = [*lines, {"sku": f"bad-{n}", "qty": 1}]
        steps.append({"updates": [{"values": {"lines": bad}, "as_node": "answer"}]})
    return steps


def fill(url: str, threads: int, *, invalid_every: int | None) -> tuple[float, list[str]]:
    """Create `threads` threads on the server at `url`; (seconds, the invalid ones' ids)."""
    from langgraph_sdk import get_sync_client

    bad = [invalid_every is not None and n % invalid_every == invalid_every // 2
           for n in range(threads)]  # fmt: skip
    client = get_sync_client(url=url, api_key=None, timeout=60)
    start = time.perf_counter()
    with ThreadPoolExecutor(_WRITERS) as pool:
        list(pool.map(lambda n: client.threads.create(
            thread_id=_thread_id(n), graph_id="orders", supersteps=_order_run(n, bad[n])),
            range(threads)))  # fmt: skip
    seconds = time.perf_counter() - start
    client.close()
    return seconds, [_thread_id(n) for n in range(threads) if bad[n]]


def _without_ids(values: Any) -> Any:
    """Values with the human messages' ids dropped: add_messages draws a new uuid for each."""
    messages = [{k: v for k, v in m.items() if k != "id" or m.get("type") != "human"}
                for m in values.get("messages", [])]  # fmt: skip
    return {**values, "messages": messages}


def same_as_a_run(url: str, n: int = 0) -> bool:
    """Whether a real run (runs.wait) of order `n` leaves the values its replay wrote; the
    run's thread is deleted after."""
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=url, api_key=None, timeout=60)
    order = _order_run(n, invalid=False)[0]["updates"][0]["values"]
    thread = client.threads.create()["thread_id"]
    client.runs.wait(thread, "orders", input=order)
    ran, replayed = (client.threads.get(t)["values"] for t in (thread, _thread_id(n)))
    client.threads.delete(thread)
    client.close()
    return bool(_without_ids(ran) == _without_ids(replayed))


def bare_loop(client: Any, model: Any, *, checkpoints: bool = False) -> tuple[int, int]:
    """What a user would write: the search pages, each thread's values validated; with
    `checkpoints`, also each invalid thread's get_state, for the checkpoint id and step the
    audit's row names (the same output); (threads, invalid)."""
    from pydantic import ValidationError

    offset = invalid = 0
    while True:
        page = client.threads.search(limit=1000, offset=offset, sort_by="thread_id",
                                     sort_order="asc")  # fmt: skip
        offset += len(page)
        for thread in page:
            try:
                model.model_validate_json(json.dumps(thread["values"]))
            except ValidationError as exc:
                exc.errors()
                invalid += 1
                if checkpoints:
                    state = client.threads.get_state(thread["thread_id"])
                    state["checkpoint"]["checkpoint_id"], state["metadata"].get("step")
        if len(page) < 1000:
            return offset, invalid


@dataclass
class _Requests:
    """The requests one method of the SDK's threads client made, and their time."""

    count: int = 0
    seconds: float = 0.0


_MODES = ("audit", "bare", "same", "alone")


@dataclass
class _Server:
    name: str
    url: str
    threads: int
    invalid_ids: list[str]
    created: float
    pids: list[int]  # the server's processes, for its CPU time
    times: dict[str, list[float]] = field(default_factory=lambda: {m: [] for m in _MODES})
    cpu: dict[str, list[tuple[float, float]]] = field(  # (this process, the server) a run
        default_factory=lambda: {m: [] for m in _MODES}
    )
    history: list[_Requests] = field(default_factory=list)
    states: list[_Requests] = field(default_factory=list)
    search: dict[str, list[_Requests]] = field(
        default_factory=lambda: {"audit": [], "bare": [], "same": []}
    )
    found: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def invalid(self) -> int:
        return len(self.invalid_ids)


def _descendants(pid: int) -> list[int]:
    """`pid` and its child processes, all generations (Linux /proc; [] elsewhere)."""
    found, todo = [], [pid]
    while todo:
        now = todo.pop()
        found.append(now)
        for task in Path(f"/proc/{now}/task").glob("*/children"):
            todo.extend(int(child) for child in task.read_text().split())
    return found if Path(f"/proc/{pid}").exists() else []


def _cpu_seconds(pids: list[int]) -> float:
    """CPU time the processes' threads have run, from /proc/<pid>/task/*/schedstat (ns)."""
    total = 0
    for pid in pids:
        for stat in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            try:
                total += int(stat.read_text().split()[0])
            except (OSError, ValueError, IndexError):  # a thread that ended meanwhile
                continue
    return total / 1e9


@contextmanager
def _clocked(server: _Server, mode: str) -> Iterator[None]:
    """Time the block, and the CPU time this process and the server spend in it."""
    start, mine, theirs = time.perf_counter(), time.process_time(), _cpu_seconds(server.pids)
    yield
    server.times[mode].append(time.perf_counter() - start)
    server.cpu[mode].append((time.process_time() - mine, _cpu_seconds(server.pids) - theirs))


def _counted(owner: Any, method: str) -> _Requests:
    """Wrap `owner.method` (on this client instance only) to count and time its calls."""
    requests, inner = _Requests(), getattr(owner, method)

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            requests.count += 1
            requests.seconds += time.perf_counter() - start

    setattr(owner, method, timed)
    return requests


@contextmanager
def _opened(url: str) -> Iterator[Any]:
    from core.stores.reader import open_any
    from core.stores.serde import strict_serde

    with open_any(url, strict_serde([])) as store:
        yield store


def _audit(server: _Server, model: Any) -> None:
    from core.stores.reader import audit_any

    with _opened(server.url) as store:
        history = _counted(store.client.threads, "get_history")
        states = _counted(store.client.threads, "get_state")
        search = _counted(store.client.threads, "search")
        with _clocked(server, "audit"):
            result = audit_any(store, model)
    server.history.append(history)
    server.states.append(states)
    server.search["audit"].append(search)
    server.found["audit"] = (result.threads, len(result.invalid) + len(result.unreadable))


def _bare(server: _Server, model: Any, mode: str = "bare") -> None:
    from langgraph_sdk import get_sync_client

    client = get_sync_client(url=server.url, api_key=None, timeout=30)
    client.threads.count()  # connected before the clock starts, as open_any is
    search = _counted(client.threads, "search")
    with _clocked(server, mode):
        found = bare_loop(client, model, checkpoints=mode == "same")
    client.close()
    server.search[mode].append(search)
    server.found[mode] = found


def _same(server: _Server, model: Any) -> None:
    _bare(server, model, "same")


def _alone(server: _Server, model: Any) -> None:
    """(d): the audit's get_state requests by themselves, as many in flight as it sends."""
    from langgraph_sdk import get_sync_client

    from core.stores.audit.server_audit import STATES_AT_ONCE

    client = get_sync_client(url=server.url, api_key=None, timeout=30)
    client.threads.count()  # connected before the clock starts
    with ThreadPoolExecutor(STATES_AT_ONCE) as pool, _clocked(server, "alone"):
        states = list(pool.map(client.threads.get_state, server.invalid_ids))
    client.close()
    named = sum(1 for state in states if state["checkpoint"]["checkpoint_id"])
    server.found["alone"] = (len(states), named)


def _cli(url: str) -> tuple[float, dict[str, Any]]:
    """`python -m core audit URL --model ... --json`: wall seconds (start-up included) and
    its report."""
    from tests.server_fixtures import SERVER_GRAPH

    env = {**os.environ, "PYTHONPATH": f"{SERVER_GRAPH.parent}{os.pathsep}{ROOT}"}
    command = [sys.executable, "-m", "core", "audit", url, "--model", MODEL, "--json"]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    return time.perf_counter() - start, json.loads(done.stdout or "{}")


def _profile(server: _Server, model: Any, top: int = 14) -> None:
    """One audit under cProfile: the functions that take the most of its own time."""
    from core.stores.reader import audit_any

    with _opened(server.url) as store:
        profile = cProfile.Profile()
        profile.runcall(audit_any, store, model)
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"[{server.name}] cProfile of one audit ({total:.2f} s under the profiler), by own "
          f"time:")  # fmt: skip
    lines = out.getvalue().splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
    for line in lines[head : head + top + 1]:
        print(f"    {line.rstrip()}")
    stats.sort_stats("cumulative")
    for name in ("search", "get_history", "json_state_errors", "state_errors_of", "blamed_node"):
        hits = [(key, row) for key, row in stats.stats.items()  # type: ignore[attr-defined]
                if key[2] == name]  # fmt: skip
        for (path, line, func), (_, calls, _, cumulative, _) in hits[:2]:
            where = "/".join(Path(path).parts[-2:])
            print(f"    cumulative {cumulative:6.3f} s in {calls:>5} calls of {func} "
                  f"({where}:{line})")  # fmt: skip


def _stats(values: list[float]) -> str:
    return f"best {min(values):.3f} s, median {statistics.median(values):.3f} s"


def _load() -> str:
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def _cpu(server: _Server, mode: str) -> tuple[float, float]:
    """Median CPU milliseconds of a run: (this process, the server)."""
    mine, theirs = zip(*server.cpu[mode], strict=True)
    return statistics.median(mine) * 1000, statistics.median(theirs) * 1000


def _report(server: _Server) -> float:
    name, times = f"[{server.name}]", server.times
    audit, bare, same, alone = (times[mode] for mode in _MODES)
    ratio = min(audit) / min(bare)
    print(f"{name} {server.threads:,} threads, {server.invalid} invalid (written in "
          f"{server.created:.1f} s); the audit found {server.found['audit'][1]} of "
          f"{server.found['audit'][0]:,}, the bare loop {server.found['bare'][1]} of "
          f"{server.found['bare'][0]:,}")  # fmt: skip
    print(f"{name} (a) audit {_stats(audit)}; (b) bare SDK loop {_stats(bare)} -> ratio "
          f"{ratio:.2f}x (medians {statistics.median(audit) / statistics.median(bare):.2f}x; "
          f"target <= {_TARGET}x; {len(audit)} rounds)")  # fmt: skip
    print(f"{name}     (c) the bare SDK loop with the same output (a get_state per invalid "
          f"thread, one at a time, as written by hand) {_stats(same)} -> the audit is "
          f"{min(audit) / min(same):.2f}x it (medians "
          f"{statistics.median(audit) / statistics.median(same):.2f}x)")  # fmt: skip
    if server.invalid:
        from core.stores.audit.server_audit import STATES_AT_ONCE

        floor, gap = min(bare) + min(alone), min(audit) - min(bare)
        print(f"{name}     (d) the floor: the {server.invalid} get_state requests alone "
              f"({STATES_AT_ONCE} in flight, as the audit sends them; no search, no "
              f"validation) {_stats(alone)}, {min(alone) / server.invalid * 1000:.2f} ms a "
              f"request; (b) + (d) = {floor:.3f} s, {floor / min(bare):.2f}x the bare loop: "
              f"the audit is {min(audit) / floor:.2f}x that (1x: no overlap at all); its "
              f"{gap:+.3f} s beyond (b) is {gap / min(alone):.2f}x (d)")  # fmt: skip
    cpu = {mode: _cpu(server, mode) for mode in _MODES}
    print(f"{name}     CPU ms a run (medians), this process / the server: " + "; ".join(
          f"({key}) {cpu[mode][0]:.1f} / {cpu[mode][1]:.1f}"
          for key, mode in zip("abcd", _MODES, strict=True)) + f"; (a) - (b) = "
          f"{cpu['audit'][0] - cpu['bare'][0]:.1f} / {cpu['audit'][1] - cpu['bare'][1]:.1f}"
          )  # fmt: skip
    history = min(server.history, key=lambda r: r.seconds)
    search = {mode: min(server.search[mode], key=lambda r: r.seconds) for mode in ("audit", "bare")}
    asked = {r.count for r in server.states}
    print(f"{name}     requests per audit: get_state {sorted(asked)} (one per invalid "
          f"thread: {server.invalid} expected, none per valid one), "
          f"{min(r.seconds for r in server.states):.3f} s of request time in the fastest "
          f"round, in flight while the audit reads on; get_history {history.count} (none "
          f"expected: blame is --history's); search pages {search['audit'].count} in "
          f"{search['audit'].seconds:.3f} s (the audit, the next read ahead) vs "
          f"{search['bare'].count} in {search['bare'].seconds:.3f} s (bare)")  # fmt: skip
    return ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1_000, help="threads on each server")
    parser.add_argument("--rounds", type=int, default=15, help="interleaved rounds")
    parser.add_argument("--profile", action="store_true", help="profile even under 1.1x")
    args = parser.parse_args()
    from tests._langgraph_server import langgraph_dev
    from tests.server_fixtures import SERVER_GRAPH

    sys.path.insert(0, str(SERVER_GRAPH.parent))
    from server_graph.graph import OrderState

    print(f"{os.cpu_count()} cores; {_load()} at start")
    with ExitStack() as stack:
        servers = []
        for name, every in (("mixed", _INVALID_EVERY), ("all-valid", None)):
            served = stack.enter_context(langgraph_dev(SERVER_GRAPH))
            seconds, invalid = fill(served.url, args.threads, invalid_every=every)
            pids = _descendants(served.process.pid)
            servers.append(_Server(name, served.url, args.threads, invalid, seconds, pids))
            same = same_as_a_run(served.url) if every is None else None
            print(f"[{name}] langgraph dev up in {served.startup_seconds:.1f} s; {args.threads:,}"
                  f" threads written by threads.create(supersteps=...) in {seconds:.1f} s "
                  f"({seconds / args.threads * 1000:.1f} ms each, {_WRITERS} at once), "
                  f"{len(invalid)} of them invalid" + ("" if same is None else "; a real run "
                  f"(runs.wait) of the first order leaves the same values (human message ids "
                  f"aside): {'yes' if same else 'NO'}"))  # fmt: skip
        runs: list[Callable[[_Server, Any], None]] = [_bare, _same, _audit, _alone]
        for server in servers:  # warm-up: first requests, imports, the model's validators
            for run in runs:
                run(server, OrderState)
            for kept in (server.times, server.cpu, server.search):
                for values in kept.values():
                    values.clear()
            server.history.clear()
            server.states.clear()
        before = _load()
        for turn in range(args.rounds):
            for server in servers:
                for run in runs if turn % 2 else runs[::-1]:
                    run(server, OrderState)
        print(f"{before} before the rounds, {_load()} after")
        ratios = [_report(server) for server in servers]
        print(f"cost of invalid states: the mixed server's ratio {ratios[0]:.2f}x vs the "
              f"all-valid server's {ratios[1]:.2f}x")  # fmt: skip
        cli = [_cli(servers[0].url) for _ in range(3)]
        best, report = min(cli, key=lambda run: run[0])
        print(f"[mixed] python -m core audit URL --model {MODEL} --json as a subprocess: best "
              f"of 3 {best:.2f} s wall, start-up (imports, opening the server) included; it "
              f"reported {report.get('threads', '?')} threads, {len(report.get('invalid', []))} "
              f"invalid states")  # fmt: skip
        for server, ratio in zip(servers, ratios, strict=True):
            if ratio > _TARGET or args.profile:
                _profile(server, OrderState)


if __name__ == "__main__":
    main()
