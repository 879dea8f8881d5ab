"""One store walk: the audit and the migration read the same threads' checkpoints, in order."""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from core.migrate.states import StoredState, stored_states
from core.order import SEED_PAYLOAD, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.shards import shard_of
from core.stores.threads import walk as walk_module
from core.stores.walk import walk_store

from .conftest import writer


class Never(BaseModel):
    """No stored state holds `never`: the audit lists every checkpoint it reads as invalid."""

    never: int


def _saver_walk(kind: str, spec: str, history: bool, shard: tuple[int, int]) -> list:
    """LangGraph's own saver: (thread, checkpoint id, latest) of each root checkpoint, threads
    in id order, each thread's newest first."""
    with writer(kind, spec) as saver:
        threads = sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)})
        walked = []
        for thread in (t for t in threads if shard_of(t, shard[1]) == shard[0]):
            listed = list(saver.list({"configurable": {"thread_id": thread, "checkpoint_ns": ""}}))
            walked += [(thread, saved.config["configurable"]["checkpoint_id"], index == 0)
                       for index, saved in enumerate(listed[: None if history else 1])]  # fmt: skip
    return walked


@pytest.mark.parametrize("shard", [(0, 1), (1, 3)], ids=["whole", "shard-1-of-3"])
@pytest.mark.parametrize("history", [False, True], ids=["latest", "history"])
def test_the_audit_and_the_migration_walk_the_same_checkpoints_in_the_same_order(
    demo_store, history, shard
):
    kind, spec = demo_store
    with open_store(spec, strict_serde([Never])) as store:
        walked = [
            (page.thread_ids, [(w.saved.config["configurable"]["thread_id"],
                                w.saved.config["configurable"]["checkpoint_id"], w.latest)
                               for w in page])
            for page in walk_store(store, history=history, shard=shard)
        ]  # fmt: skip
        audited = audit_store(store, Never, history=history, shard=shard)
        migrated = list(stored_states(store, Never, history_too=history, shard=shard))
    expected = _saver_walk(kind, spec, history, shard)
    threads = list(dict.fromkeys(thread for thread, _, _ in expected))
    assert walked == [(threads, expected)]  # ten demo threads: one page
    assert [(s.thread_id, s.checkpoint_id, True) for s in audited.invalid] == [
        (thread, checkpoint_id, True) for thread, checkpoint_id, _ in expected
    ]
    assert (audited.threads, audited.checkpoints, audited.unreadable) == (
        len(threads), len(expected), [],
    )  # fmt: skip
    assert all(isinstance(read, StoredState) for read in migrated)
    assert [(s.thread_id, s.checkpoint_id, s.latest) for s in migrated] == expected


def test_threads_are_walked_a_page_at_a_time_each_page_read_after_the_last(tmp_path, monkeypatch):
    spec = str(tmp_path / "pages.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("a", "b", "c", "d", "e"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    monkeypatch.setattr(walk_module, "THREADS_PER_QUERY", 2)
    with open_store(spec, strict_serde([Never])) as store:
        pages = [
            (page.thread_ids, [(w.saved.config["configurable"]["thread_id"],
                                w.saved.metadata["step"]) for w in page])
            for page in walk_store(store)
        ]  # fmt: skip
        audited = audit_store(store, Never)
    assert pages == [
        (["a", "b"], [("a", 2), ("b", 2)]),
        (["c", "d"], [("c", 2), ("d", 2)]),
        (["e"], [("e", 2)]),
    ]
    assert [(s.thread_id, s.step) for s in audited.invalid] == [(thread, 2) for thread in "abcde"]
