"""read_checkpoints on real SQLite and Postgres stores, checked against the savers' own reads."""

from __future__ import annotations

import pytest

from core.order import AgentState
from core.stores import open_store, strict_serde
from core.stores import pages as pages_module
from core.stores.demo import DEMO_THREADS
from core.stores.pages import read_checkpoints

from .conftest import writer


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
