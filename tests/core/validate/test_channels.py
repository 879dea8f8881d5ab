"""write_input against LangGraph itself: the state its entry writes, field by field."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage
from langgraph.checkpoint.memory import InMemorySaver

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.validate.channels import write_input
from core.validate.entry_run import entry_graph

INPUTS = {
    "seed": SEED_PAYLOAD,
    "role_style": {**SEED_PAYLOAD, "messages": [{"role": "user", "content": "hi", "id": "m1"}]},
    "plain_string": {**SEED_PAYLOAD, "messages": ["hello"], "logs": ["a", "b"]},
    "unknown_key": {**SEED_PAYLOAD, "coupon": "X"},
    "second_turn": {"messages": [{"type": "human", "content": "again", "id": "m2"}], "logs": ["c"]},
}


def _plain(value):
    if isinstance(value, BaseMessage):
        return (value.type, value.content)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _langgraph_writes(payload: dict, before: dict | None) -> tuple[dict, dict]:
    """The oracle: the state so far (after a whole first turn, if any) and the channel values
    LangGraph stores once it has written the input, before any node runs."""
    graph = build_order_graph().builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    stored = {}
    if before is not None:
        graph.invoke(before, config)
        stored = graph.get_state(config).values
    graph.invoke(payload, config, interrupt_before="*")
    return stored, graph.get_state(config).values


@pytest.mark.parametrize("name", list(INPUTS))
def test_an_input_is_written_as_langgraphs_own_entry_writes_it(name):
    before = SEED_PAYLOAD if name == "second_turn" else None
    stored, expected = _langgraph_writes(INPUTS[name], before)
    written, raised = write_input(entry_graph(AgentState), stored, INPUTS[name])
    assert raised == []
    fields = set(AgentState.model_fields) & (set(written) | set(expected))
    assert {k: _plain(written.get(k)) for k in fields} == {
        k: _plain(expected.get(k)) for k in fields
    }


def test_a_message_no_reducer_can_read_is_an_error_at_its_field():
    written, raised = write_input(entry_graph(AgentState), {}, {"messages": [{"content": "x"}]})
    # the field is left as it was: its channel's empty start, as before the input
    assert (written["messages"], [(r["type"], r["loc"]) for r in raised]) == (
        [], [("langgraph_exception", ("messages",))],
    )  # fmt: skip
