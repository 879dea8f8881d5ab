"""A graph whose node writes langgraph #6491's value (None inside a list[str]): served by
`langgraph dev` with the guarded checkpointer of checkpointer.py."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel

__all__ = ["Tagged", "graph"]


class Tagged(BaseModel):
    """The state: a list of tags."""

    tags: list[str] = []


def tag(state: Tagged) -> dict[str, Any]:
    # the node: a None among the strings; Pydantic is not asked before it is stored
    return {"tags": ["a", None]}


def finish(state: Tagged) -> dict[str, Any]:
    return {"tags": [*state.tags, "done"]}


graph = (
    StateGraph(Tagged)
    .add_node("tag", tag)
    .add_node("finish", finish)
    .add_edge(START, "tag")
    .add_edge("tag", "finish")
    .add_edge("finish", END)
    .compile()
)
