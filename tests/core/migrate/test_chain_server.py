"""The ledger chain (v1 -> v2 -> v3) applied to a real `langgraph dev` (mark: server).

The server (tests/fixtures/ledger_server) builds the ledger graph at the version written in
its `version` file when a request needs it, as a team redeploying its code serves it: threads
are written under v1, then v2, then v3, some migrated once (`--to v2`) while v2 was served.
The oracle is the server's own answer, read with the SDK, and `ships.log`, where the served
`ship` node writes its thread's id each time it runs.

What the server's API takes and what it does not:
- the `migration` record: `threads.update_state` has no metadata argument, but the
  `checkpoint` object it takes is merged into the configurable LangGraph's saver copies into
  the fork's metadata; get_history filters on it;
- a thread stopped before a node cannot be forked through the API once the server serves a
  model its stored state does not fit (v1 under v3): LangGraph's update_state prepares the
  pending `ship` task from the stored state first, and the served model refuses it (400);
- a thread stopped before a node whose fork keeps the channel version of a field the served
  model lacks (v2's `currency`) stops again before that node on each resume with
  `interrupt_before` (langgraph #9001): the API cannot drop a channel version;
- the way round both: a server that saves its threads in a database (langgraph.json's
  `checkpointer`) is migrated through that database, where `--apply` hides the pending tasks
  and drops the versions; the server then resumes each thread and runs the node once.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from langgraph_sdk import get_sync_client

from core.migrate.chain import Chain, load_chain
from core.migrate.standing import Standing, chain_standing
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV, UnbrickCode, UnbrickError
from tests._langgraph_server import LangGraphServer, langgraph_dev

from .cases import FIXTURES
from .ledger_stores import AT_V3, CHAIN, INPUTS, SERDE_TYPES

from migrations.ledger import InvoiceV1, InvoiceV2, InvoiceV3, build_v3  # isort: skip

pytestmark = pytest.mark.server

PROJECT = FIXTURES / "ledger_server"
# the server takes UUIDs only: a readable name per thread, its id from a fixed prefix
NAMES = ["once-done", "v1-done", "v2-done", "v3-done", "v1-paused", "v2-paused", "v3-paused"]
IDS = {name: f"30000000-0000-4000-8000-{index:012d}" for index, name in enumerate(NAMES)}
NAME_OF = {thread: name for name, thread in IDS.items()}


def _serve(**env: str) -> Any:
    config = "langgraph_sqlite.json" if "LEDGER_SQLITE" in env else "langgraph.json"
    return langgraph_dev(PROJECT, env={"LEDGER_FIXTURES": str(FIXTURES), **env}, config=config)


def _deploy(server: LangGraphServer, version: str) -> None:
    (server.workdir / "version").write_text(version)


def _run(client: Any, name: str, version: str, *, paused: bool) -> None:
    client.threads.create(thread_id=IDS[name])
    graph = "canary" if name == "once-done" else "ledger"
    client.runs.wait(IDS[name], graph, input=INPUTS[version],
                     interrupt_before=["ship"] if paused else None)  # fmt: skip


def _apply(url: str, chain: Chain, candidate: Any) -> list[str]:
    written = write_migration(url, InvoiceV1, candidate, chain, lambda _: build_v3(),
                              strict_serde(SERDE_TYPES))  # fmt: skip
    return sorted(NAME_OF.get(w.thread_id, w.thread_id) for w in written)


def _ships(server: LangGraphServer) -> Counter[str]:
    log = server.workdir / "ships.log"
    lines = log.read_text().split() if log.exists() else []
    return Counter(NAME_OF[thread] for thread in lines)


@contextmanager
def _ledger_server(names: list[str], **env: str) -> Iterator[tuple[LangGraphServer, Any]]:
    """A server holding `names`' threads: v1's written under v1, v2's under v2, v3's under v3,
    which is served after; `once-done`, a thread of the `canary` graph (the same graph under
    a second id) written under v1, was migrated to v2 while v2 was served, its graph's
    threads only (`--assistant canary`)."""
    os.environ[WRITES_ENV] = "1"
    try:
        with _serve(**env) as server:
            client = get_sync_client(url=server.url, api_key=None)
            for version in ("v1", "v2", "v3"):
                _deploy(server, version)
                for name in names:
                    if name.startswith(version) or (name == "once-done" and version == "v1"):
                        _run(client, name, version, paused=name.endswith("paused"))
                if version == "v2" and "once-done" in names:
                    once = write_migration(server.url, InvoiceV1, InvoiceV2,
                                           load_chain(CHAIN).to("v2"), lambda _: build_v3(),
                                           strict_serde(SERDE_TYPES), assistant="canary")  # fmt: skip
                    assert [NAME_OF[w.thread_id] for w in once] == ["once-done"]
            yield server, client
    finally:
        os.environ.pop(WRITES_ENV, None)


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[LangGraphServer, Any]]:
    names = ["once-done", "v1-done", "v2-done", "v3-done", "v2-paused", "v3-paused"]
    with _ledger_server(names) as found:
        yield found


def _heads(client: Any, names: list[str]) -> dict[str, tuple[dict[str, Any], list[str], Any]]:
    heads = {}
    for name in names:
        state = client.threads.get_state(IDS[name])
        heads[name] = (state["values"], state["next"], state["metadata"].get("migration"))
    return heads


def _standing(url: str) -> dict[str, tuple[str | None, str, tuple[str, ...]]]:
    with open_any(url, strict_serde(SERDE_TYPES)) as store:
        rows = [row for row in chain_standing(store, load_chain(CHAIN), InvoiceV1)
                if isinstance(row, Standing)]  # fmt: skip
    return {NAME_OF[row.thread_id]: (row.record, row.after, row.pending) for row in rows}


def test_a_servers_threads_stand_after_their_record_else_where_their_state_fits(served):
    server, _ = served
    assert _standing(server.url) == {
        "once-done": ("v2", "v2", ("v3",)),  # its fork's metadata, read back from the server
        "v1-done": (None, "", ("v2", "v3")),
        "v2-done": (None, "v2", ("v3",)),
        "v2-paused": (None, "v2", ("v3",)),
        "v3-done": (None, "", ("v2", "v3")),
        "v3-paused": (None, "", ("v2", "v3")),
    }


def test_the_chain_forks_each_thread_once_records_v3_and_a_second_apply_writes_nothing(served):
    server, client = served
    names = ["once-done", "v1-done", "v2-done", "v3-done", "v2-paused", "v3-paused"]
    assert _apply(server.url, load_chain(CHAIN), InvoiceV3) == [
        "once-done", "v1-done", "v2-done", "v2-paused"]  # fmt: skip
    after = _heads(client, names)
    assert after == {
        "once-done": (AT_V3["once-done"], [], "v3"),
        "v1-done": (AT_V3["v1-done"], [], "v3"),
        "v2-done": (AT_V3["v2-done"], [], "v3"),
        "v2-paused": (AT_V3["v2-paused"], ["ship"], "v3"),
        "v3-done": (AT_V3["v3-done"], [], None),
        "v3-paused": (AT_V3["v3-paused"], ["ship"], None),
    }
    # the record is the fork's own: get_history filtered on it finds exactly that checkpoint
    for name in ("once-done", "v1-done", "v2-done", "v2-paused"):
        found = client.threads.get_history(IDS[name], limit=5, metadata={"migration": "v3"})
        head = client.threads.get_state(IDS[name])["checkpoint"]["checkpoint_id"]
        assert [state["checkpoint"]["checkpoint_id"] for state in found] == [head]
    assert {name: row[2] for name, row in _standing(server.url).items()} == {
        name: () if after[name][2] else ("v2", "v3") for name in names}  # fmt: skip
    assert _apply(server.url, load_chain(CHAIN), InvoiceV3) == []
    assert _heads(client, names) == after
    # resumed as the server runs a paused thread (interrupt_before on the run): v3's ships
    # once; v2's fork, which keeps `currency`'s channel version, stops before ship again
    shipped = _ships(server)  # the done threads' runs
    for name in ("v3-paused", "v2-paused"):
        client.runs.wait(IDS[name], "ledger", input=None, interrupt_before=["ship"])
    assert (_ships(server) - shipped, _heads(client, ["v2-paused"])) == (
        Counter({"v3-paused": 1}), {"v2-paused": after["v2-paused"]})  # fmt: skip
    # without interrupt_before the same fork runs ship once and finishes
    client.runs.wait(IDS["v2-paused"], "ledger", input=None)
    assert (_ships(server) - shipped, _heads(client, ["v2-paused"])["v2-paused"][:2]) == (
        Counter({"v3-paused": 1, "v2-paused": 1}), (AT_V3["v2-done"], []))  # fmt: skip


def test_a_server_saving_to_a_database_is_migrated_there_and_resumes_each_node_once(tmp_path):
    sqlite = tmp_path / "ledger.sqlite"
    names = ["once-done", "v1-paused", "v2-paused", "v3-paused"]
    with _ledger_server(names, LEDGER_SQLITE=str(sqlite)) as (server, client):
        # through the API, the v1 thread stopped before ship is refused: the server prepares
        # its pending task from the v1 state under v3
        with pytest.raises(UnbrickError) as refused:
            _apply(server.url, load_chain(CHAIN), InvoiceV3)
        said = refused.value.message
        assert (refused.value.code, said.split(" (")[0], said.split("; ")[-1]) == (
            UnbrickCode.WRITE_FAILED,
            f"thread {IDS['v1-paused']!r}: the server refused its latest checkpoint",
            "nothing was written to it. The thread waits on a node whose input the graph the "
            "server serves now refuses (its state is of an older version). Apply the migration "
            "to the database the server's checkpointer writes (its file or DSN).",
        )
        os.environ[WRITES_ENV] = "1"
        assert _apply(str(sqlite), load_chain(CHAIN), InvoiceV3) == [
            "v1-paused", "v2-paused"]  # fmt: skip
        before, shipped = _heads(client, ["v1-paused", "v2-paused", "v3-paused"]), _ships(server)
        for name in ("v1-paused", "v2-paused", "v3-paused"):
            client.runs.wait(IDS[name], "ledger", input=None, interrupt_before=["ship"])
        assert (before, _heads(client, ["v1-paused", "v2-paused", "v3-paused"]),
                _ships(server) - shipped) == (  # fmt: skip
            {
                "v1-paused": (AT_V3["v1-paused"], ["ship"], "v3"),
                "v2-paused": (AT_V3["v2-paused"], ["ship"], "v3"),
                "v3-paused": (AT_V3["v3-paused"], ["ship"], None),
            },
            {name: ({**before[name][0], "status": "fulfilled"}, [], None)
             for name in ("v1-paused", "v2-paused", "v3-paused")},
            Counter({"v1-paused": 1, "v2-paused": 1, "v3-paused": 1}),
        )  # fmt: skip
