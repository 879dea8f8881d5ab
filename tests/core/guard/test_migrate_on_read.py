"""`migrate=`: a thread stored under an old model is read migrated and runs on, while every row
stored before stays as it was (nothing is rewritten on read)."""

from __future__ import annotations

import operator
from typing import Annotated, Any, Literal

import pytest
from langgraph.graph import START, StateGraph
from pydantic import BaseModel

from core.guard import GuardedSaver, InvalidStateError

from .conftest import raw_rows, saver_on

CONFIG: Any = {"configurable": {"thread_id": "t"}}


class OrderV1(BaseModel):
    status: Literal["pending", "shipped"] = "pending"
    notes: Annotated[list[str], operator.add] = []


class OrderV2(BaseModel):  # "shipped" became "fulfilled"
    status: Literal["pending", "fulfilled"] = "pending"
    notes: Annotated[list[str], operator.add] = []


def shipped_is_fulfilled(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "status": "fulfilled"} if state.get("status") == "shipped" else state


def _ship(state: OrderV1) -> dict[str, Any]:
    return {"status": "shipped", "notes": ["shipped"]}


def _note(state: OrderV2) -> dict[str, Any]:
    return {"notes": [f"seen {state.status}"]}


def _graph(model: type[BaseModel], node: Any, saver: Any) -> Any:
    builder = StateGraph(model).add_node("step", node).add_edge(START, "step")
    return builder.compile(checkpointer=saver)


OLD_ROWS = [
    (1, "loop", {"status": "shipped", "notes": ["shipped"]}, []),
    (0, "loop", {"notes": []}, [("notes", ["shipped"]), ("status", "shipped")]),
    (-1, "input", {}, [("branch:to:step", None), ("notes", [])]),
]


def test_an_old_state_is_read_migrated_and_the_thread_runs_on_without_a_row_rewritten(store):
    with saver_on(*store) as saver:
        _graph(OrderV1, _ship, saver).invoke({"notes": []}, CONFIG)
        assert raw_rows(saver, "t") == OLD_ROWS
        # under the new model alone, the guard refuses the next run's first checkpoint
        with pytest.raises(InvalidStateError) as refused:
            _graph(OrderV2, _note, GuardedSaver(saver, OrderV2)).invoke(
                {"notes": ["again"]}, CONFIG, durability="sync"
            )
        assert (refused.value.step, refused.value.errors[0]["type"]) == (2, "literal_error")
        # with the migration, the same run reads "fulfilled" and goes on
        graph = _graph(OrderV2, _note, GuardedSaver(saver, OrderV2, migrate=shipped_is_fulfilled))
        assert graph.invoke({"notes": ["again"]}, CONFIG, durability="sync") == {
            "status": "fulfilled", "notes": ["shipped", "again", "seen fulfilled"],
        }  # fmt: skip
        assert [(s.metadata["step"], s.values) for s in graph.get_state_history(CONFIG)] == [
            (4, {"status": "fulfilled", "notes": ["shipped", "again", "seen fulfilled"]}),
            (3, {"status": "fulfilled", "notes": ["shipped", "again"]}),
            (2, {"status": "fulfilled", "notes": ["shipped"]}),
            (1, {"status": "fulfilled", "notes": ["shipped"]}),
            (0, {"notes": []}),
            (-1, {"notes": []}),
        ]
        assert raw_rows(saver, "t")[3:] == OLD_ROWS  # the rows stored before, as they were
