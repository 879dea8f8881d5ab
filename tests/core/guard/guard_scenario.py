"""Run by test_export.py in a subprocess, on a guard module named on the command line (the
exported `state_guard`, or `core.guard`): langgraph #6491 on SQLite, then a migrated read.
Prints what it saw as one JSON object. Uses nothing of this repository but the guard."""

from __future__ import annotations

import importlib
import importlib.util
import json
import operator
import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError


class Tagged(BaseModel):
    tags: list[str] = []


class OrderV1(BaseModel):
    status: Literal["pending", "shipped"] = "pending"
    notes: Annotated[list[str], operator.add] = []


class OrderV2(BaseModel):  # "shipped" became "fulfilled"
    status: Literal["pending", "fulfilled"] = "pending"
    notes: Annotated[list[str], operator.add] = []


def shipped_is_fulfilled(state: dict[str, Any]) -> dict[str, Any]:
    return {**state, "status": "fulfilled"} if state.get("status") == "shipped" else state


def _tagging(saver: Any) -> Any:
    builder = StateGraph(Tagged).add_node("tag", lambda s: {"tags": ["a", None]})
    builder = builder.add_node("finish", lambda s: {"tags": [*s.tags, "done"]})
    builder = builder.add_edge(START, "tag").add_edge("tag", "finish").add_edge("finish", END)
    return builder.compile(checkpointer=saver)


def _ordering(model: type[BaseModel], node: Any, saver: Any) -> Any:
    builder = StateGraph(model).add_node("step", node).add_edge(START, "step")
    return builder.compile(checkpointer=saver)


def _history(graph: Any, config: Any) -> list[Any]:
    return [[s.metadata["step"], s.values, list(s.next)] for s in graph.get_state_history(config)]


def issue_6491(guard: Any, conn: sqlite3.Connection) -> dict[str, Any]:
    config: Any = {"configurable": {"thread_id": "t-6491"}}
    bare = _tagging(SqliteSaver(conn))
    seen: dict[str, Any] = {}
    try:
        bare.invoke({"tags": []}, {"configurable": {"thread_id": "bare"}}, durability="sync")
    except ValidationError:
        pass
    try:
        _history(bare, {"configurable": {"thread_id": "bare"}})
    except ValidationError as error:
        seen["bare_history"] = type(error).__name__
    graph = _tagging(guard.GuardedSaver(SqliteSaver(conn), Tagged))
    try:
        graph.invoke({"tags": []}, config, durability="sync")
    except guard.InvalidStateError as error:
        seen["refused"] = [type(error).__name__, error.code, error.step, list(error.nodes)]
        seen["errors"] = error.errors
        seen["message"] = str(error)
    seen["history"] = _history(graph, config)
    graph.update_state(config, {"tags": ["a", "b"]}, as_node="tag")
    seen["fixed"] = graph.invoke(None, config, durability="sync")
    return seen


def migrated_read(guard: Any, conn: sqlite3.Connection) -> dict[str, Any]:
    config: Any = {"configurable": {"thread_id": "t-old"}}
    old = _ordering(
        OrderV1, lambda s: {"status": "shipped", "notes": ["shipped"]}, SqliteSaver(conn)
    )
    old.invoke({"notes": []}, config)
    saver = guard.GuardedSaver(SqliteSaver(conn), OrderV2, migrate=shipped_is_fulfilled)
    graph = _ordering(OrderV2, lambda s: {"notes": [f"seen {s.status}"]}, saver)
    read, stored = saver.get_tuple(config), SqliteSaver(conn).get_tuple(config)
    return {
        "read": read.checkpoint["channel_values"] if read else None,
        "stored": stored.checkpoint["channel_values"] if stored else None,
        "ran": graph.invoke({"notes": ["again"]}, config, durability="sync"),
        "history": _history(graph, config),
    }


PLAN = '[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\nto = "fulfilled"\n'


def plan_read(guard: Any, conn: sqlite3.Connection, workdir: Path) -> dict[str, Any]:
    """The thread migrated_read's old graph wrote, read through a plan TOML instead."""
    (workdir / "plan.toml").write_text(PLAN, encoding="utf-8")
    saver = guard.GuardedSaver(SqliteSaver(conn), OrderV2, migrate=workdir / "plan.toml")
    config: Any = {"configurable": {"thread_id": "t-plan"}}
    _ordering(
        OrderV1, lambda s: {"status": "shipped", "notes": ["shipped"]}, SqliteSaver(conn)
    ).invoke({"notes": []}, config)
    read = saver.get_tuple(config)
    return {"read": read.checkpoint["channel_values"] if read else None}


def main() -> None:
    name, workdir = sys.argv[1], Path(sys.argv[2])
    sys.path.insert(0, str(workdir))  # where the exported module is (-I leaves it off the path)
    guard = importlib.import_module(name)
    with sqlite3.connect(workdir / "threads.sqlite", check_same_thread=False) as conn:
        seen = {
            "core_importable": importlib.util.find_spec("core") is not None,
            "issue_6491": issue_6491(guard, conn),
            "migrated_read": migrated_read(guard, conn),
            "plan_read": plan_read(guard, conn, workdir),
        }
    print(json.dumps(seen, sort_keys=True))


if __name__ == "__main__":
    main()
