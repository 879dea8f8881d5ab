"""One blame: `written_by` names the nodes LangGraph's own run says wrote each checkpoint."""

from __future__ import annotations

from typing import Literal

import pytest
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel

from core.order import AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.demo import DEMO_THREADS
from core.stores.pages import read_checkpoints
from core.stores.threads import list_threads
from core.stores.timeline import thread_timeline
from core.stores.writers import violated_fields, written_by

from .conftest import langgraphs_writer, new_store, writer

# every root checkpoint of each demo thread, newest first: the node(s) whose writes made it
DEMO_WRITERS = {
    "clean-1": ["confirm", "validate_order", "__start__", None],
    "clean-2": ["confirm", "validate_order", "__start__", None,
                "confirm", "validate_order", "__start__", None],
    "fault-negative_amount": ["validate_order", "__start__", None],
    "fault-bad_status_last": ["confirm", "validate_order", "__start__", None],
    "fault-undeclared_key": ["confirm", "validate_order", "__start__", None],
    "fault-parallel_status": ["__start__", None],
    "fault-overwrite_logs": ["confirm", "validate_order", "__start__", None],
    "fault-node_exception": ["validate_order", "__start__", None],
    "interrupted": ["validate_order", "__start__", None],
    "model-change": ["confirm", "validate_order", "__start__", None],
}  # fmt: skip


def _root(thread_id: str) -> dict:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def test_every_demo_checkpoint_is_written_by_the_tasks_langgraph_ran(demo_store):
    kind, spec = demo_store
    with open_store(spec, strict_serde([AgentState])) as store:
        ours = {thread: [written_by(store, saved, []) for saved in read_checkpoints(store, [thread])]
                for thread in DEMO_THREADS}  # fmt: skip
    theirs = {}
    with writer(kind, spec) as saver:
        for thread, (faults, *_) in DEMO_THREADS.items():
            graph = build_order_graph(faults).builder.compile(checkpointer=saver)
            listed = list(saver.list(_root(thread)))  # list() holds the saver's lock: read whole
            theirs[thread] = [langgraphs_writer(saver, graph, saved) for saved in listed]
    assert ours == theirs == DEMO_WRITERS


class Pair(BaseModel):
    left: Literal["ok"] = "ok"
    right: Literal["ok"] = "ok"


def _pair_graph() -> StateGraph:
    builder = StateGraph(Pair)
    builder.add_node("bad_left", lambda state: {"left": "broken"})
    builder.add_node("fine_right", lambda state: {"right": "ok"})
    builder.add_edge(START, "bad_left")
    builder.add_edge(START, "fine_right")
    builder.add_edge(["bad_left", "fine_right"], END)
    return builder


@pytest.fixture(params=["sqlite", "postgres"])
def pair_store(request, tmp_path) -> tuple[str, str]:
    """Two nodes in one step, the last: one writes a value the model refuses, one a valid one."""
    pg = request.getfixturevalue("postgres") if request.param == "postgres" else None
    spec = new_store(request.param, "pair", tmp_path, pg)
    with writer(request.param, spec) as saver:
        _pair_graph().compile(checkpointer=saver).invoke({}, {"configurable": {"thread_id": "t"}})
    return request.param, spec


def test_of_two_writers_in_one_step_the_one_that_wrote_the_refused_field_is_blamed(pair_store):
    kind, spec = pair_store
    with open_store(spec, strict_serde([Pair])) as store:
        latest = next(read_checkpoints(store, ["t"], latest=True))
        audited = audit_store(store, Pair)
        [error] = audited.invalid[0].errors
        said = (written_by(store, latest, [error]), written_by(store, latest, []))
        listed = [(row.label(), row.detail) for row in list_threads(store, Pair).rows]
        timeline = thread_timeline(store, "t", Pair)
    with writer(kind, spec) as saver:
        graph = _pair_graph().compile(checkpointer=saver)
        saved = saver.get_tuple(_root("t"))
        theirs = (
            langgraphs_writer(saver, graph, saved, violated_fields([error])),
            langgraphs_writer(saver, graph, saved),
        )
    assert error["loc"] == ["left"]
    assert said == theirs == ("bad_left", "bad_left, fine_right")
    assert [(s.step, s.node) for s in audited.invalid] == [(1, "bad_left")]
    assert listed == [("broken at step 1", "written by bad_left")]
    assert timeline is not None
    # the input {} wrote no field: its __start__ task wrote only the triggers of the nodes
    assert [(c.step, c.node) for c in timeline.checkpoints] == [
        (-1, None), (0, None), (1, "bad_left"),
    ]  # fmt: skip
