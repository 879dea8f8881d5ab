"""Blame in map-reduce graphs: a `Send` task's writes name the node the packet was sent to."""

from __future__ import annotations

import operator
from typing import Annotated

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from pydantic import BaseModel, Field

from core.stores import audit_store, open_store, strict_serde
from core.stores.audit import InvalidState
from core.stores.timeline import thread_timeline
from core.stores.writers import Write, node_of_path, parent_writes

from .conftest import new_store, writer


class Jokes(BaseModel):
    topics: list[str] = []
    jokes: Annotated[list[Annotated[str, Field(max_length=20)]], operator.add] = []
    rating: int = 0


def _plan(state: Jokes) -> dict:
    return {"rating": 1}


def _fan_out(state: Jokes) -> list[Send]:
    return [Send("write_joke", {"topics": [topic]}) for topic in state.topics]


def _write_joke(packet: dict) -> dict:  # a Send's argument reaches the node as sent
    topic = packet["topics"][0]
    return {"jokes": [f"a joke about {topic}"]}


def _map_reduce():
    builder = StateGraph(Jokes)
    builder.add_node("plan", _plan)
    builder.add_node("write_joke", _write_joke)
    builder.add_edge(START, "plan")
    builder.add_conditional_edges("plan", _fan_out, ["write_joke"])
    builder.add_edge("write_joke", END)
    return builder


@pytest.fixture(params=["sqlite", "postgres"])
def map_reduce_store(request, tmp_path) -> str:
    """A real map-reduce run: two Sends to write_joke; 'elephants' makes a joke too long."""
    pg = request.getfixturevalue("postgres") if request.param == "postgres" else None
    spec = new_store(request.param, "map_reduce", tmp_path, pg)
    with writer(request.param, spec) as saver:
        graph = _map_reduce().compile(checkpointer=saver)
        graph.invoke({"topics": ["cats", "elephants"]}, {"configurable": {"thread_id": "t"}})
    return spec


def test_a_send_tasks_write_is_blamed_on_the_node_it_was_sent_to(map_reduce_store):
    with open_store(map_reduce_store, strict_serde([Jokes])) as store:
        result = audit_store(store, Jokes)
        history = list(store.saver.list({"configurable": {"thread_id": "t"}}))
        step1 = next(s for s in history if s.metadata["step"] == 1)
        latest = history[0]
        writes = parent_writes(store, "t", "", step1.config["configurable"]["checkpoint_id"])
        timeline = thread_timeline(store, "t", Jokes)
    task_ids = [task for task, channel, _ in step1.pending_writes]  # the saver's own
    paths = ["~__pregel_push, 0000000000, 0000000000", "~__pregel_push, 0000000001, 0000000000"]
    assert [node_of_path(path) for path in paths] == [None, None]  # the path alone names none
    assert writes == [Write(task_ids[0], "write_joke", "jokes"),
                      Write(task_ids[1], "write_joke", "jokes")]  # fmt: skip
    error = {
        "type": "string_too_long",
        "loc": ["jokes", 1],
        "msg": "String should have at most 20 characters",
        "input": "a joke about elephants",
        "ctx": {"max_length": 20},
    }
    assert result.invalid == [
        InvalidState("t", latest.config["configurable"]["checkpoint_id"], 2, "write_joke", [error])
    ]
    assert timeline is not None
    assert [(c.step, c.node, [(w.node, w.channel) for w in c.writes]) for c in
            timeline.checkpoints] == [
        (-1, None, []),
        (0, "__start__", [("__start__", "topics"), ("__start__", "branch:to:plan")]),
        (1, "plan", [("plan", "rating"), ("plan", "__pregel_tasks"), ("plan", "__pregel_tasks")]),
        (2, "write_joke", [("write_joke", "jokes"), ("write_joke", "jokes")]),
    ]  # fmt: skip
