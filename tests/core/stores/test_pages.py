"""read_checkpoints on real SQLite and Postgres stores, checked against the savers' own reads."""

from __future__ import annotations

import psycopg
import pytest
from langgraph.checkpoint.serde.jsonplus import _msgpack_enc

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores import pages as pages_module
from core.stores.demo import DEMO_THREADS
from core.stores.pages import read_checkpoints

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


@pytest.mark.parametrize("latest", [False, True], ids=["history", "latest"])
def test_a_page_of_threads_reads_as_the_savers_own_list_and_get_tuple(demo_store, latest):
    kind, spec = demo_store
    threads = sorted(DEMO_THREADS)
    with open_store(spec, strict_serde([AgentState])) as store:
        read = list(read_checkpoints(store, threads, latest=latest))
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
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState, history=True)
        assert store.saver.serde.refusals == 3  # decoded (and refused) for each state
    assert not marker.exists()
    assert [(s.step, [(e["type"], e["loc"]) for e in s.errors]) for s in result.invalid] == [
        (2, [("refused_value", ["items", 1])]),
        (1, [("refused_value", ["items", 1])]),
        (0, [("refused_value", ["items", 1])]),
    ]
