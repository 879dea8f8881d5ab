"""Every thread is read: the empty id, blanks, unicode, and a thousand across page boundaries."""

from __future__ import annotations

import pytest

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, shard_of, strict_serde
from core.stores.threads import list_threads
from core.stores.threads import walk as walk_module
from core.stores.walk import iter_thread_ids

from .conftest import new_store, writer

ODD_IDS = ["", " ", "订单-①", "\t", "z"]


@pytest.fixture(params=["sqlite", "postgres"])
def odd_store(request, tmp_path) -> tuple[str, str]:
    """Seed runs on the odd ids; the "" thread's confirm writes a status the model refuses."""
    kind = request.param
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, "odd_ids", tmp_path, pg)
    with writer(kind, spec) as saver:
        for thread in ODD_IDS:
            faults = ["bad_status_last"] if thread == "" else []
            graph = build_order_graph(faults).builder.compile(checkpointer=saver)
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    return kind, spec


def test_a_thread_whose_id_is_empty_is_audited_and_listed(odd_store):
    kind, spec = odd_store
    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
        ids = list(iter_thread_ids(store))
        pages, after = [], None
        while True:  # one thread a page: the cursor passes "" and " " on to the next
            page = list_threads(store, AgentState, after=after, limit=1)
            pages.append([(row.thread_id, row.label()) for row in page.rows])
            if page.next_after is None:
                break
            after = page.next_after
    order = sorted(ODD_IDS)  # both backends order these ids the same way
    assert ids == order
    assert (result.threads, [(s.thread_id, s.step, s.node) for s in result.invalid]) == (
        5, [("", 2, "confirm")],
    )  # fmt: skip
    assert pages == [[(t, "broken at step 2" if t == "" else "valid")] for t in order]


def test_a_thousand_threads_are_each_read_once_across_page_boundaries(tmp_path, monkeypatch):
    spec = new_store("sqlite", "thousand", tmp_path, None)
    ids = [f"t{n:04d}" for n in range(1_000)] + ["", "\u00e9"]
    with writer("sqlite", spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ids:  # one checkpoint each is enough to be a thread
            saver.put(
                {"configurable": {"thread_id": thread, "checkpoint_ns": ""}},
                {
                    **graph.get_state({"configurable": {"thread_id": "none"}}).config,
                    "v": 4,
                    "id": f"1f0-{thread}",
                    "ts": "",
                    "channel_values": dict(SEED_PAYLOAD),
                    "channel_versions": {},
                    "versions_seen": {},
                },  # fmt: skip
                {"source": "loop", "step": 0},
                {},
            )
    monkeypatch.setattr(walk_module, "_PAGE", 97)  # pages end inside the run of ids
    with open_store(spec, strict_serde([AgentState])) as store:
        audited = list(iter_thread_ids(store))
        result = audit_store(store, AgentState)
        listed, after = [], None
        while True:
            page = list_threads(store, AgentState, after=after, limit=100)
            listed += [row.thread_id for row in page.rows]
            if page.next_after is None:
                break
            after = page.next_after
    assert audited == listed == sorted(ids)
    assert (result.threads, result.checkpoints, result.invalid, result.unreadable) == (
        1_002, 1_002, [], [],
    )  # fmt: skip


@pytest.mark.parametrize("contains", ["", "fault-", "_", "\x00"])
@pytest.mark.parametrize("shard", [(0, 1), (1, 2), (2, 3)])
def test_the_one_pager_keeps_the_ids_after_holding_and_in_the_shard_python_picks(
    demo_store, contains, shard
):
    kind, spec = demo_store
    with writer(kind, spec) as saver:
        every = sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)})
    kept = [t for t in every if contains in t and shard_of(t, shard[1]) == shard[0]]
    with open_store(spec, strict_serde([AgentState])) as store:
        pages = {after: store.thread_ids(after, 3, contains=contains, shard=shard)
                 for after in (None, "", "clean-2", "fault-z")}  # fmt: skip
        counted = store.count_threads(contains)
        starts = store.page_starts(contains, 2, 4)
    assert pages == {after: [t for t in kept if after is None or t > after][:3]
                     for after in (None, "", "clean-2", "fault-z")}  # fmt: skip
    holding = [t for t in every if contains in t]
    assert (counted, starts) == (len(holding), [""] + holding[1:7:2])
