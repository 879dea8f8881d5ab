"""list_threads and thread_timeline on real SQLite and Postgres stores, against the savers."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from core.order import AgentState, build_order_graph
from core.stores import Refused, open_store, strict_serde
from core.stores.demo import DEMO_THREADS, CandidateState, run_demo_threads
from core.stores.reader import page_starts
from core.stores.threads import ThreadStatus, list_threads
from core.stores.timeline import thread_timeline

from .conftest import writer
from .test_audit import _expected_errors, _expected_node, _root, written_inputs
from .test_serde import poisoned  # noqa: F401 - the fixture: a store with a crafted row

# thread -> (status as listed, detail) with AgentState as written and CandidateState current
DEMO_STATUSES = {
    "clean-1": ("valid", ""),
    "clean-2": ("valid", ""),
    "fault-bad_status_last": ("broken at step 2", "written by confirm"),
    "fault-negative_amount": ("broken at step 1", "written by validate_order"),
    "fault-node_exception": ("interrupted", "a task raised; next: confirm"),
    "fault-overwrite_logs": ("valid", ""),
    "fault-parallel_status": ("interrupted", "next: audit, validate_order"),
    "fault-undeclared_key": ("valid", ""),
    "interrupted": ("interrupted", "next: confirm"),
    "model-change": ("would not resume", "less_than_equal at amount"),
}


def _saver_rows(kind: str, spec: str) -> dict[str, tuple[int, int, str]]:
    """The oracle: checkpoint count, latest step and time from the saver's own reads."""
    rows = {}
    with writer(kind, spec) as saver:
        for thread in DEMO_THREADS:
            history = list(saver.list(_root(thread)))
            latest = saver.get_tuple(_root(thread))
            rows[thread] = (len(history), latest.metadata["step"], latest.checkpoint["ts"])
    return rows


def test_every_demo_thread_is_listed_with_its_status_and_the_savers_counts(demo_store):
    kind, spec = demo_store
    with open_store(spec, strict_serde([AgentState])) as store:
        page = list_threads(store, AgentState, current=CandidateState, limit=100)
    assert page.next_after is None and page.scanned == len(DEMO_THREADS)
    expected = _saver_rows(kind, spec)
    assert {
        row.thread_id: ((row.checkpoints, row.last_step, row.last_time), (row.label(), row.detail))
        for row in page.rows
    } == {thread: (expected[thread], DEMO_STATUSES[thread]) for thread in sorted(DEMO_THREADS)}


def test_without_a_changed_model_the_model_change_thread_is_valid(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        page = list_threads(store, AgentState, contains="model")
    assert [(row.thread_id, row.label()) for row in page.rows] == [("model-change", "valid")]


def test_pages_follow_each_other_and_filters_keep_what_they_name(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        seen, after = [], ""
        while after is not None:
            page = list_threads(store, AgentState, after=after, limit=3)
            seen.append([row.thread_id for row in page.rows])
            after = page.next_after
        interrupted = list_threads(store, AgentState, status=ThreadStatus.INTERRUPTED)
        fault_broken = list_threads(
            store, AgentState, contains="fault-", status=ThreadStatus.BROKEN, limit=1
        )
        rest = list_threads(
            store, AgentState, contains="fault-", status=ThreadStatus.BROKEN,
            after=fault_broken.next_after,
        )  # fmt: skip
        nothing = list_threads(store, AgentState, contains="no such thread")
        nul = list_threads(store, AgentState, contains="fault\x00")  # typed, or pasted
    ordered = sorted(DEMO_THREADS)
    assert seen == [ordered[0:3], ordered[3:6], ordered[6:9], ordered[9:]]
    assert [r.thread_id for r in interrupted.rows] == [
        "fault-node_exception", "fault-parallel_status", "interrupted",
    ]  # fmt: skip
    assert [r.thread_id for r in fault_broken.rows] == ["fault-bad_status_last"]
    assert [r.thread_id for r in rest.rows] == ["fault-negative_amount"]
    assert (nothing.rows, nothing.next_after) == ([], None)
    assert (nul.rows, nul.next_after, nul.scanned) == ([], None, 0)


@pytest.mark.parametrize(("contains", "size"), [("", 3), ("", 1), ("fault-", 4), ("-", 10)])
def test_page_numbers_start_where_next_pages_to(demo_store, contains, size):
    """`page_starts`, the page-number jump, gives each page's cursor as paging with Next
    reaches it: the cursors up to any page are the chain of `next_after`."""
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        chain, after = [""], None
        while (after := list_threads(store, AgentState, contains=contains, after=after,
                                     limit=size).next_after) is not None:  # fmt: skip
            chain.append(after)
        starts = [page_starts(store, contains, size, pages) for pages in range(1, len(chain) + 1)]
        nul = page_starts(store, "fault\x00", size, 3)
    assert starts == [chain[:pages] for pages in range(1, len(chain) + 1)]
    assert nul == [""]


@pytest.mark.parametrize("thread", sorted(DEMO_THREADS))
def test_the_timeline_is_the_savers_history_validated_by_pydantic(demo_store, thread):
    kind, spec = demo_store
    with open_store(spec, strict_serde([AgentState])) as store:
        timeline = thread_timeline(store, thread, AgentState)
    with writer(kind, spec) as saver:
        history = list(saver.list(_root(thread)))[::-1]
        written = written_inputs(saver, thread)
        by_id = {t.config["configurable"]["checkpoint_id"]: t for t in history}
        expected = []
        for saved in history:
            parent = (
                saved.parent_config and by_id[saved.parent_config["configurable"]["checkpoint_id"]]
            )
            expected.append((
                saved.config["configurable"]["checkpoint_id"],
                parent and parent.config["configurable"]["checkpoint_id"],
                saved.metadata["step"], saved.metadata["source"], saved.checkpoint["ts"],
                saved.checkpoint["channel_values"],
                _expected_errors(saved.checkpoint["channel_values"], saved.metadata, AgentState,
                                 written.get(saved.config["configurable"]["checkpoint_id"])),
                [(t, c, v) for t, c, v in parent.pending_writes] if parent else [],
            ))  # fmt: skip
        nodes = [_expected_node(saver, saved) for saved in history]
    assert [
        (c.checkpoint_id, c.parent_id, c.step, c.source, c.time, c.values, c.errors,
         [(w.task_id, w.channel, w.value) for w in c.writes])
        for c in timeline.checkpoints
    ] == expected  # fmt: skip
    # the writing node, as LangGraph names the tasks (state channels only, as audit blames)
    assert [
        ", ".join(dict.fromkeys(
            w.node for w in c.writes if w.node and ":" not in w.channel and w.channel[0] != "_"
        )) or None
        for c in timeline.checkpoints
    ] == nodes  # fmt: skip


def test_a_broken_thread_shows_its_stored_values_where_get_state_history_raises(demo_store):
    kind, spec = demo_store
    with writer(kind, spec) as saver:
        graph = build_order_graph(["negative_amount"]).builder.compile(checkpointer=saver)
        with pytest.raises(ValidationError):
            list(graph.get_state_history(_root("fault-negative_amount")))
    with open_store(spec, strict_serde([AgentState])) as store:
        timeline = thread_timeline(store, "fault-negative_amount", AgentState)
    latest = timeline.checkpoints[-1]
    assert latest.values["amount"] == -1 and latest.pending == ["confirm"]
    assert [(c.step, c.node, [e["type"] for e in c.errors]) for c in timeline.checkpoints] == [
        (-1, None, []),
        (0, "__start__", []),
        (1, "validate_order", ["greater_than_equal"]),
    ]
    assert [c.changed for c in timeline.checkpoints] == [
        # the input written into an empty state through the channels, as LangGraph writes
        # it (add_messages turns the input's dict into a HumanMessage)...
        ["user_id", "amount", "items", "messages", "logs"],  # logs: its channel, empty
        [],  # ...which is exactly the state LangGraph stored after it
        ["amount", "status", "logs", "messages"],
    ]
    assert timeline.blamed is latest
    assert timeline.blame_line() == "First invalid at step 1, written by validate_order."
    assert (timeline.interrupts, timeline.namespaces) == ([], [])


def test_a_valid_thread_blames_no_one_and_an_unknown_thread_has_no_timeline(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        clean = thread_timeline(store, "clean-1", AgentState)
        missing = thread_timeline(store, "no-such-thread", AgentState)
    assert clean.blamed is None and missing is None
    assert clean.blame_line() == "Every state the latest run stored is valid under the model."


def test_a_crafted_row_is_listed_broken_and_shown_refused_without_running(poisoned):  # noqa: F811
    kind, spec, marker, checkpoint_id = poisoned
    with open_store(spec, strict_serde([AgentState])) as store:
        page = list_threads(store, AgentState)
        timeline = thread_timeline(store, "poisoned", AgentState)
    assert not marker.exists(), "nothing the crafted row names was called"
    # SQLite stores the crafted value in the latest checkpoint only; Postgres in the messages
    # blob of its version, which every checkpoint since validate_order's write points to
    step, node = (2, "confirm") if kind == "sqlite" else (1, "validate_order")
    assert [(row.thread_id, row.label(), row.detail) for row in page.rows] == [
        ("clean", "valid", ""),
        ("poisoned", f"broken at step {step}", f"written by {node}"),
    ]
    latest = timeline.checkpoints[-1]
    assert (latest.checkpoint_id, latest.values["messages"][2]) == (
        checkpoint_id, Refused("os.system"),
    )  # fmt: skip
    assert [(e["type"], e["loc"], e["input"]) for e in latest.errors] == [
        ("refused_value", ["messages", 2], "os.system")
    ]
    assert timeline.blame_line() == f"First invalid at step {step}, written by {node}."


def test_blame_follows_the_latest_checkpoints_ancestry_not_the_order_of_ids(tmp_path):
    spec = str(tmp_path / "forked.sqlite")
    with writer("sqlite", spec) as saver:
        run_demo_threads(saver)
        graph = build_order_graph(["bad_status_last"]).builder.compile(checkpointer=saver)
        step_1 = [s for s in saver.list(_root("fault-bad_status_last")) if s.metadata["step"] == 1]
        # a fork from the valid step 1 that breaks it another way: the old broken step 2 is
        # now an abandoned branch, older in id order than the fork
        forked = graph.update_state(step_1[0].config, {"status": "cancelled"}, as_node="confirm")
    with open_store(spec, strict_serde([AgentState])) as store:
        timeline = thread_timeline(store, "fault-bad_status_last", AgentState)
        row = list_threads(store, AgentState, contains="bad_status").rows[0]
    blamed = timeline.blamed
    assert (blamed.checkpoint_id, blamed.source, blamed.parent_id) == (
        forked["configurable"]["checkpoint_id"], "update",
        step_1[0].config["configurable"]["checkpoint_id"],
    )  # fmt: skip
    assert [e["input"] for e in blamed.errors] == ["cancelled"]
    assert (row.label(), row.detail) == ("broken at step 2", "written by confirm")
