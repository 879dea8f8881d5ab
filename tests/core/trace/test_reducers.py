"""Reducer names from Annotated metadata and from the compiled graph; merge rows; JSON text."""

from __future__ import annotations

import operator
from typing import Annotated
from uuid import UUID

from langchain_core.messages import AIMessage
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.order import AgentState, LineItem, build_fanout_graph, build_order_graph
from core.trace.reducers import (
    dump_json,
    graph_reducers,
    merge_rows,
    model_reducers,
    reducer_for,
    reducer_name,
)

SEED_REDUCERS = {
    "user_id": "last value",
    "amount": "last value",
    "status": "last value",
    "items": "last value",
    "logs": "operator.add",
    "messages": "add_messages",
}


def keep_longest(left: list, right: list) -> list:
    return left if len(left) >= len(right) else right


class Custom(BaseModel):
    notes: Annotated[list[str], keep_longest] = []
    messages: Annotated[list, add_messages] = []
    total: Annotated[int, operator.add] = 0


def _custom_graph():
    builder = StateGraph(Custom)
    builder.add_node("noop", lambda state: {})
    builder.add_edge(START, "noop")
    return builder.compile()


def test_seed_reducers_read_from_annotated_metadata_match_the_graph_channels():
    assert model_reducers(AgentState) == SEED_REDUCERS
    assert graph_reducers(build_order_graph()) == SEED_REDUCERS
    assert graph_reducers(build_fanout_graph()) == SEED_REDUCERS


def test_custom_reducer_is_shown_by_its_qualified_name():
    custom = f"{keep_longest.__module__}.keep_longest"
    expected = {"notes": custom, "messages": "add_messages", "total": "operator.add"}

    assert model_reducers(Custom) == expected
    assert graph_reducers(_custom_graph()) == expected


def test_reducer_for_a_write_honours_overwrite_and_undeclared_keys():
    assert [
        reducer_for(SEED_REDUCERS, "logs", ["x"]),
        reducer_for(SEED_REDUCERS, "logs", Overwrite(["x"])),
        reducer_for(SEED_REDUCERS, "status", Overwrite("confirmed")),
        reducer_for(SEED_REDUCERS, "totl", 1),
        reducer_name(None),
    ] == ["operator.add", "Overwrite", "Overwrite", "dropped", "last value"]


def test_merge_rows_show_before_update_reducer_after_per_written_field():
    rows = merge_rows(
        before={"logs": ["a"]},
        update={"logs": ["b"], "status": "validated", "totl": 1},
        after={"logs": ["a", "b"], "status": "validated"},
        reducers={"logs": "operator.add", "status": "last value", "totl": "dropped"},
    )

    assert rows == [
        {"field": "logs", "before": '["a"]', "update": '["b"]', "reducer": "operator.add",
         "after": '["a", "b"]'},
        {"field": "status", "before": "(unset)", "update": '"validated"', "reducer": "last value",
         "after": '"validated"'},
        {"field": "totl", "before": "(unset)", "update": "1", "reducer": "dropped",
         "after": "(not a state field: discarded)"},
    ]  # fmt: skip


def test_dump_json_keeps_messages_models_and_overwrite_readable():
    value = {
        "messages": [AIMessage(content="订单已校验", id="m1")],
        "logs": Overwrite(["confirmed"]),
        "item": LineItem(sku="SKU-01", qty=2, unit_price=49.5),
        "user_id": UUID("550e8400-e29b-41d4-a716-446655440000"),
    }

    assert dump_json(value) == (
        '{"messages": [{"type": "ai", "content": "订单已校验", "id": "m1"}], '
        '"logs": {"Overwrite": ["confirmed"]}, '
        '"item": {"sku": "SKU-01", "qty": 2, "unit_price": 49.5}, '
        '"user_id": "550e8400-e29b-41d4-a716-446655440000"}'
    )
