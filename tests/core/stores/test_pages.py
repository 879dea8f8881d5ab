"""read_checkpoints on real SQLite and Postgres stores, checked against the savers' own reads."""

from __future__ import annotations

import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langchain_core.messages import HumanMessage

from core.lg_compat import msgpack_encode as _msgpack_enc
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.backends import page_rows as pages_module
from core.stores.demo import DEMO_THREADS
from core.stores.pages import read_checkpoints
from core.stores.state import checkpoint_errors

from .conftest import new_store, writer
from .test_serde import _crafted


def _root(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def _saver_reads(kind: str, spec: str, threads: list[str], latest: bool) -> list:
    """The oracle: LangGraph's own list / get_tuple per thread, pending writes left out."""
    with writer(kind, spec) as saver:
        if latest:
            chosen = [saver.get_tuple(_root(thread)) for thread in threads]
        else:
            chosen = [saved for thread in threads for saved in list(saver.list(_root(thread)))]
    return [saved._replace(pending_writes=None) for saved in chosen]


@pytest.mark.parametrize("share", [False, True], ids=["own", "shared"])
@pytest.mark.parametrize("latest", [False, True], ids=["history", "latest"])
def test_a_page_of_threads_reads_as_the_savers_own_list_and_get_tuple(demo_store, latest, share):
    kind, spec = demo_store
    threads = sorted(DEMO_THREADS)
    with open_store(spec, strict_serde([AgentState])) as store:
        read = list(read_checkpoints(store, threads, latest=latest, share=share))
    assert read == _saver_reads(kind, spec, threads, latest)
    assert len(read) == (len(threads) if latest else 39)


def test_only_the_pages_threads_are_read_in_thread_order(demo_store):
    kind, spec = demo_store
    with open_store(spec, strict_serde([AgentState])) as store:
        read = list(read_checkpoints(store, ["interrupted", "clean-1", "no-such-thread"]))
        assert list(read_checkpoints(store, [])) == []
    assert read == _saver_reads(kind, spec, ["clean-1", "interrupted"], latest=False)


def test_postgres_streams_the_rows_in_several_fetches(postgres_demo, monkeypatch):
    monkeypatch.setattr(pages_module, "_ROWS_PER_FETCH", 2)
    threads = sorted(DEMO_THREADS)
    with open_store(postgres_demo, strict_serde([AgentState])) as store:
        read = list(read_checkpoints(store, threads))
        # the read-only transaction the cursor needed is over: the connection reads on
        assert store.query("SELECT count(*) FROM checkpoints", ()) == [(39,)]
    assert read == _saver_reads("postgres", postgres_demo, threads, latest=False)


def _refused_in_steps_2_1_0(spec: str, marker: Path) -> None:
    """The audit refuses the crafted value in `items` at steps 2, 1 and 0, decoding (and
    counting) it once for each state, and runs nothing it names."""
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState, history=True)
        assert store.saver.serde.refusals == 3  # decoded (and refused) for each state
    assert not marker.exists()
    assert [(s.step, [(e["type"], e["loc"]) for e in s.errors]) for s in result.invalid] == [
        (2, [("refused_value", ["items", 1])]),
        (1, [("refused_value", ["items", 1])]),
        (0, [("refused_value", ["items", 1])]),
    ]


def test_postgres_decodes_a_shared_blob_once_unless_it_holds_a_refusal(postgres, tmp_path):
    spec = new_store("postgres", "shared_blob", tmp_path, postgres)
    with writer("postgres", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}})
        history = list(saver.list(_root("t")))
    items = [saved.checkpoint["channel_versions"].get("items") for saved in history]
    assert items[:3] == [items[0]] * 3 and items[3] is None  # steps 2, 1, 0 share one blob
    with open_store(spec, strict_serde([AgentState])) as store:
        read = list(read_checkpoints(store, ["t"]))
        assert len({id(saved.checkpoint["channel_values"]["items"]) for saved in read[:3]}) == 1
    marker = tmp_path / "ran"
    with psycopg.connect(spec, autocommit=True) as conn:  # one refused value in that blob
        conn.execute(
            "UPDATE checkpoint_blobs SET blob = %s WHERE channel = 'items' AND version = %s",
            (_msgpack_enc([SEED_PAYLOAD["items"][0], _crafted(marker)]), items[0]),
        )
    _refused_in_steps_2_1_0(spec, marker)


def _messages_of(saved) -> list:
    return saved.checkpoint["channel_values"].get("messages", [])


def test_sqlite_shares_a_message_the_previous_checkpoint_held_unless_it_holds_a_refusal(tmp_path):
    spec = new_store("sqlite", "shared_messages", tmp_path, None)
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}})
        history = list(saver.list(_root("t")))
    assert [len(_messages_of(saved)) for saved in history] == [2, 2, 1, 0]
    with open_store(spec, strict_serde([AgentState])) as store:
        own = list(read_checkpoints(store, ["t"]))
        shared = list(read_checkpoints(store, ["t"], share=True))
        again = list(read_checkpoints(store, ["t"], share=True))
    assert own == shared == again == [saved._replace(pending_writes=None) for saved in history]
    first = [id(_messages_of(saved)[0]) for saved in shared[:3]]
    assert len(set(first)) == 1  # steps 2, 1, 0 hold the same first message: decoded once
    assert {id(_messages_of(saved)[0]) for saved in own[:3]} & set(first) == set()
    assert id(_messages_of(again[0])[0]) not in first  # nothing is kept from one read to the next
    marker = tmp_path / "ran"
    with closing(sqlite3.connect(spec)) as conn, conn:  # one refused value in every state
        for saved in history[:3]:
            checkpoint = saved.checkpoint
            values = {**checkpoint["channel_values"],
                      "items": [*checkpoint["channel_values"]["items"], _crafted(marker)]}  # fmt: skip
            conn.execute(
                "UPDATE checkpoints SET checkpoint = ? WHERE checkpoint_id = ?",
                (_msgpack_enc({**checkpoint, "channel_values": values}),
                 saved.config["configurable"]["checkpoint_id"]),
            )  # fmt: skip
    _refused_in_steps_2_1_0(spec, marker)


def _fetchers() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "read_checkpoints-fetch"]


# Another test's helper left running would show in _fetchers(): each test compares with what
# ran before it.


def test_postgres_reader_closed_early_stops_its_fetcher_and_the_connection_reads_on(
    postgres_demo, monkeypatch
):
    monkeypatch.setattr(pages_module, "_ROWS_PER_FETCH", 2)
    with open_store(postgres_demo, strict_serde([AgentState])) as store:
        before = set(_fetchers())
        rows = read_checkpoints(store, sorted(DEMO_THREADS))
        first = [next(rows) for _ in range(3)]
        assert len(set(_fetchers()) - before) == 1  # the next rows are fetched meanwhile
        rows.close()
        assert set(_fetchers()) == before
        assert store.query("SELECT count(*) FROM checkpoints", ()) == [(39,)]
    assert first == _saver_reads("postgres", postgres_demo, sorted(DEMO_THREADS), False)[:3]


class _Cursor:
    """Hands out `batches` one fetch at a time, then raises `error`."""

    def __init__(self, batches: list[list[int]], error: Exception) -> None:
        self.batches, self.error, self.sizes = list(batches), error, []

    def fetchmany(self, size: int) -> list[int]:
        self.sizes.append(size)
        if not self.batches:
            raise self.error
        return self.batches.pop(0)


def test_what_the_fetcher_raises_is_raised_in_the_reader_after_the_rows_before_it():
    cursor = _Cursor([[1, 2], [3]], psycopg.errors.QueryCanceled("statement timeout"))
    read = []
    with pytest.raises(psycopg.errors.QueryCanceled, match="statement timeout"):
        for row in pages_module._prefetched(cursor, 2):
            read.append(row)
    assert (read, cursor.sizes) == ([1, 2, 3], [2, 2, 2])
    ended = _Cursor([[1], []], AssertionError("fetched past the end"))
    assert list(pages_module._prefetched(ended, 5)) == [1]
    assert ended.sizes == [5, 5]


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_shared_message_is_never_changed_by_the_check_so_verdicts_do_not_depend_on_sharing(
    kind, request, tmp_path
):
    # Two equal messages without ids in one input: decoded once and shared, add_messages
    # (which gives a message without an id one, in place) would have merged them into one.
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, "twins", tmp_path, pg)
    with writer(kind, spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("a", "b"):  # the same input twice: adjacent rows with equal bytes
            # new messages each time: LangGraph gives the ones it is handed ids, in place
            twins = {**SEED_PAYLOAD, "messages": [HumanMessage("ok"), HumanMessage("ok")]}
            graph.invoke(twins, {"configurable": {"thread_id": thread}})
    states = {}
    for share in (False, True):
        with open_store(spec, strict_serde([AgentState])) as store:
            read = list(read_checkpoints(store, ["a", "b"], share=share))
            states[share] = [checkpoint_errors(saved, AgentState) for saved in read]
            inputs = [s for s in read if s.metadata["source"] == "input"]
            start = [
                m.id
                for s in inputs
                for m in s.checkpoint["channel_values"]["__start__"]["messages"]
            ]
            assert start == [None] * 4  # what was read is as stored, after the checks
    assert [len(state["messages"]) for state, _ in states[False]][3::4] == [2, 2]  # inputs
    assert [(len(s["messages"]), e) for s, e in states[True]] == [
        (len(s["messages"]), e) for s, e in states[False]
    ]


class _SlowAfterFirst:
    """A server-side cursor whose fetches after the first spend 5 s in the server first."""

    def __init__(self, cursor: Any) -> None:
        self.cursor, self.fetches = cursor, 0

    def fetchmany(self, size: int) -> list[Any]:
        self.fetches += 1
        if self.fetches > 1:
            self.cursor.connection.execute("SELECT pg_sleep(5)")
        return self.cursor.fetchmany(size)

    @property
    def connection(self) -> Any:
        return self.cursor.connection


def test_postgres_reader_closed_during_a_slow_fetch_cancels_it(postgres_demo, monkeypatch):
    prefetched = pages_module._prefetched
    monkeypatch.setattr(pages_module, "_ROWS_PER_FETCH", 1)
    monkeypatch.setattr(
        pages_module, "_prefetched", lambda cursor, size: prefetched(_SlowAfterFirst(cursor), size)
    )
    before = set(_fetchers())
    with open_store(postgres_demo, strict_serde([AgentState])) as store:
        rows = read_checkpoints(store, sorted(DEMO_THREADS))
        next(rows)  # the first fetch; the helper is now in the slow one
        time.sleep(0.3)
        started = time.perf_counter()
        rows.close()
        closed = time.perf_counter() - started
        assert set(_fetchers()) == before
        assert store.query("SELECT count(*) FROM checkpoints", ()) == [(39,)]
    assert closed < 2.0  # the server dropped the fetch: not waited for (5 s)
