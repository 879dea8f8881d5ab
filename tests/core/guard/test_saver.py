"""GuardedSaver on real stores: what it stores, refuses and names, and what it leaves alone."""

from __future__ import annotations

import asyncio
import copy
import logging
import operator
import sqlite3
from contextlib import closing
from typing import Annotated, Any

import pytest
from langchain_core.messages import AIMessage
from langgraph.checkpoint.base import BaseCheckpointSaver, empty_checkpoint
from langgraph.checkpoint.conformance.capabilities import DetectedCapabilities
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.types import Send
from pydantic import BaseModel, ConfigDict, model_validator

from core.errors import CodedError
from core.guard import GuardedSaver, InvalidStateError
from core.guard.capabilities import OPTIONAL_METHODS, overrides
from core.guard.ledger import state_channels
from core.jsontext.write import jsonable
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores.demo import run_demo_threads

from .conftest import raw_rows, saver_on

CONFIG: Any = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
STRING = {"type": "string_type", "msg": "Input should be a valid string", "input": None}


def _without_ids(value: Any) -> Any:
    """JSON data with each message's id left out: LangGraph gives a write's messages their
    ids while another thread may be saving that write, so a stored write may or may not
    hold them (with or without the guard)."""
    if isinstance(value, dict):
        message = value.get("type") in {"human", "ai"} and "content" in value
        return {k: _without_ids(v) for k, v in value.items() if not (message and k == "id")}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value


def _stored(saver: BaseCheckpointSaver[Any]) -> dict[str, list[tuple[Any, ...]]]:
    """Every thread's checkpoints, newest first: (namespace, step, source, state, writes,
    state_errors), ids and task ids left out (they differ from run to run)."""
    threads: dict[str, list[tuple[Any, ...]]] = {}
    for saved in saver.list(None):
        configurable = saved.config["configurable"]
        writes = [_without_ids(jsonable([c, v])) for _, c, v in saved.pending_writes or ()]
        threads.setdefault(configurable["thread_id"], []).append((
            configurable["checkpoint_ns"],
            saved.metadata["step"],
            saved.metadata["source"],
            _without_ids(jsonable(state_channels(saved.checkpoint["channel_values"]))),
            sorted(writes, key=repr),
            saved.metadata.get("state_errors"),
        ))  # fmt: skip
    return threads


def _refused_at(rows: list[tuple[Any, ...]], step: int) -> list[tuple[Any, ...]]:
    """A thread's rows as the guard leaves them when it refuses the state at `step`: that
    checkpoint is not stored, nor the writes that made it."""
    return [
        row[:4] + ([],) + row[5:] if row[1] == step - 1 else row for row in rows if row[1] != step
    ]


def _outcome_types(outcome: dict[str, str | None]) -> dict[str, str | None]:
    return {thread: stopped and stopped.split(":")[0] for thread, stopped in outcome.items()}


DEMO_OUTCOME = {
    "clean-1": None,
    "clean-2": None,
    "fault-negative_amount": "ValidationError",
    "fault-bad_status_last": None,
    "fault-undeclared_key": None,
    "fault-parallel_status": "InvalidUpdateError",
    "fault-overwrite_logs": None,
    "fault-node_exception": "RuntimeError",
    "interrupted": "interrupted before confirm",
    "model-change": None,
}
NEGATIVE = [
    {
        "type": "greater_than_equal",
        "loc": ["amount"],
        "msg": "Input should be greater than or equal to 0",
        "input": -1,
        "ctx": {"ge": 0.0},
    }
]
SHIPPED = [
    {
        "type": "literal_error",
        "loc": ["status"],
        "msg": "Input should be 'pending', 'validated' or 'confirmed'",
        "input": "shipped",
        "ctx": {"expected": "'pending', 'validated' or 'confirmed'"},
    }
]


def test_on_the_demo_threads_every_valid_state_is_stored_as_without_the_guard_and_no_invalid_one(
    store, tmp_path, postgres
):
    kind, spec = store
    bare_spec = (
        str(tmp_path / "bare.sqlite") if kind == "sqlite" else postgres.create_database("bare")
    )
    with saver_on(kind, bare_spec) as bare:
        bare_outcome, bare_rows = run_demo_threads(bare), _stored(bare)
    with saver_on(kind, spec) as saver:
        outcome, rows = run_demo_threads(GuardedSaver(saver, AgentState)), _stored(saver)
    assert (_outcome_types(bare_outcome), _outcome_types(outcome)) == (
        DEMO_OUTCOME,
        {**DEMO_OUTCOME, "fault-bad_status_last": "InvalidStateError"},
    )
    assert rows == {
        **bare_rows,
        "fault-negative_amount": _refused_at(bare_rows["fault-negative_amount"], 1),
        "fault-bad_status_last": _refused_at(bare_rows["fault-bad_status_last"], 2),
    }


def test_warn_stores_what_the_bare_saver_stores_with_the_errors_in_the_metadata_and_one_warning_each(
    store, tmp_path, postgres, caplog
):
    kind, spec = store
    bare_spec = (
        str(tmp_path / "bare.sqlite") if kind == "sqlite" else postgres.create_database("bare")
    )
    with saver_on(kind, bare_spec) as bare:
        run_demo_threads(bare)
        bare_rows = _stored(bare)
    with saver_on(kind, spec) as saver, caplog.at_level(logging.WARNING, "core.guard"):
        outcome = run_demo_threads(GuardedSaver(saver, AgentState, on_invalid="warn"))
        rows = _stored(saver)
    marked = {("fault-negative_amount", 1): NEGATIVE, ("fault-bad_status_last", 2): SHIPPED}
    assert _outcome_types(outcome) == DEMO_OUTCOME
    assert rows == {
        thread: [row[:5] + (marked.get((thread, row[1])),) for row in thread_rows]
        for thread, thread_rows in bare_rows.items()
    }
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        (
            "core.guard",
            "WARNING",
            "[state_invalid] Thread 'fault-negative_amount': the state at step 1 fails AgentState (amount: Input should be greater than or equal to 0 [greater_than_equal]), written by validate_order. Stored anyway (on_invalid=\"warn\"): its errors are in the checkpoint's metadata, under state_errors.",
        ),
        (
            "core.guard",
            "WARNING",
            "[state_invalid] Thread 'fault-bad_status_last': the state at step 2 fails AgentState (status: Input should be 'pending', 'validated' or 'confirmed' [literal_error]), written by confirm. Stored anyway (on_invalid=\"warn\"): its errors are in the checkpoint's metadata, under state_errors.",
        ),
    ]


def test_role_style_messages_in_the_input_are_valid_as_langgraph_writes_them(tmp_path):
    payload = {
        **copy.deepcopy(SEED_PAYLOAD),
        "messages": [{"role": "user", "content": "hi", "id": "m-1"}],
    }
    with pytest.raises(TypeError, match="Expected either a dictionary with a 'type' key"):
        AgentState.model_validate(payload)  # the model alone refuses the dict...
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        graph = build_order_graph().builder.compile(checkpointer=GuardedSaver(saver, AgentState))
        output = graph.invoke(payload, CONFIG, durability="sync")  # ...which add_messages converts
        assert (output["status"], [type(m).__name__ for m in output["messages"]]) == (
            "confirmed", ["HumanMessage", "AIMessage"],
        )  # fmt: skip
        assert [(step, source) for step, source, _, _ in raw_rows(saver, "t")] == [
            (2, "loop"), (1, "loop"), (0, "loop"), (-1, "input"),
        ]  # fmt: skip


def test_an_invalid_input_is_refused_before_its_checkpoint_is_stored(tmp_path):
    payload = {**copy.deepcopy(SEED_PAYLOAD), "amount": -1}
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        graph = build_order_graph().builder.compile(checkpointer=GuardedSaver(saver, AgentState))
        with pytest.raises(InvalidStateError) as refused:
            graph.invoke(payload, CONFIG, durability="sync")
        assert (refused.value.step, refused.value.nodes, refused.value.errors) == (
            -1, (), [{**NEGATIVE[0], "ctx": {"ge": 0.0}}],
        )  # fmt: skip
        assert raw_rows(saver, "t") == []


class Pair(BaseModel):
    good: str = ""
    tags: list[str] = []


def test_in_a_parallel_step_the_valid_write_is_kept_and_the_bad_one_refused_naming_its_node(
    tmp_path,
):
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        builder = StateGraph(Pair).add_node("good", lambda s: {"good": "ok"})
        builder = builder.add_node("bad", lambda s: {"tags": [None]}).add_node("join", lambda s: {})
        builder = builder.add_edge(START, "good").add_edge(START, "bad")
        graph = builder.add_edge(["good", "bad"], "join").compile(
            checkpointer=GuardedSaver(saver, Pair)
        )
        refusals = []
        for payload in ({}, None):  # a resume runs only the refused task again
            with pytest.raises(InvalidStateError) as refused:
                graph.invoke(payload, CONFIG, durability="sync")
            refusals.append((refused.value.step, refused.value.nodes, refused.value.errors))
        assert refusals == [(1, ("bad",), [{**STRING, "loc": ["tags", 0]}])] * 2
        assert raw_rows(saver, "t") == [
            (0, "loop", {}, [("good", "ok"), ("join:good+bad:join", "good")]),
            (-1, "input", {}, [("branch:to:bad", None), ("branch:to:good", None)]),
        ]


class Picks(BaseModel):
    tags: Annotated[list[str], operator.add] = []


def test_a_send_tasks_bad_write_is_blamed_on_the_node_it_was_sent_to(tmp_path):
    def fan_out(state: Picks) -> list[Send]:
        return [Send("pick", {"tags": []}), Send("pick", {"tags": ["x"]})]

    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        builder = StateGraph(Picks).add_node(
            "pick", lambda s: {"tags": ["ok"] if s["tags"] else [None]}
        )
        builder = builder.add_conditional_edges(START, fan_out, ["pick"]).add_edge("pick", END)
        graph = builder.compile(checkpointer=GuardedSaver(saver, Picks))
        with pytest.raises(InvalidStateError) as refused:
            graph.invoke({}, CONFIG, durability="sync")
        assert (refused.value.step, refused.value.nodes, refused.value.errors) == (
            1, ("pick",), [{**STRING, "loc": ["tags", 0]}],
        )  # fmt: skip
        assert raw_rows(saver, "t")[0] == (0, "loop", {}, [("tags", ["ok"])])


class Window(BaseModel):
    start: int = 0
    end: int = 1

    @model_validator(mode="after")
    def ordered(self) -> Window:
        if self.start > self.end:
            raise ValueError("start is after end")
        return self


def test_an_error_no_field_carries_is_refused_when_the_steps_checkpoint_is_stored(tmp_path):
    # A model validator's error has no field: a sibling task of the same step may still
    # write the other field, so the write is kept and the checkpoint it makes is refused; a
    # resume re-applies the kept write and is refused alike.
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        builder = (
            StateGraph(Window).add_node("shift", lambda s: {"start": 5}).add_edge(START, "shift")
        )
        graph = builder.compile(checkpointer=GuardedSaver(saver, Window))
        refusals = []
        for payload in ({}, None):
            with pytest.raises(InvalidStateError) as refused:
                graph.invoke(payload, CONFIG, durability="sync")
            refusals.append((refused.value.step, refused.value.nodes, refused.value.errors))
        error = {
            "type": "value_error",
            "loc": [],
            "msg": "Value error, start is after end",
            "input": {"start": 5},
            "ctx": {"error": "start is after end"},
        }
        assert refusals == [(1, ("shift",), [error])] * 2
        assert [s.values for s in graph.get_state_history(CONFIG)] == [{}, {}]
        assert raw_rows(saver, "t")[0] == (0, "loop", {}, [("start", 5)])


def test_writes_that_arrive_before_their_checkpoint_wait_for_it(tmp_path):
    # LangGraph saves in the background ("async" durability): a task's writes can reach the
    # saver before the checkpoint they go on. They are stored once it is, or never.
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        guard = GuardedSaver(saver, Pair)
        stored, refused = empty_checkpoint(), empty_checkpoint()
        stored["channel_values"] = {"tags": ["a"]}
        refused["channel_values"] = {"tags": [None]}
        for checkpoint in (stored, refused):
            at = {
                "configurable": {
                    "thread_id": "t",
                    "checkpoint_ns": "",
                    "checkpoint_id": checkpoint["id"],
                }
            }
            guard.put_writes(at, [("good", "early")], "task-1", "~__pregel_pull, good")
            assert saver.get_tuple(at) is None and raw_rows(saver, "t") == []
        metadata: Any = {"source": "loop", "step": 0}
        guard.put(CONFIG, stored, metadata, {})
        with pytest.raises(InvalidStateError):
            guard.put(CONFIG, refused, {"source": "loop", "step": 0}, {})
        assert raw_rows(saver, "t") == [(0, "loop", {"tags": ["a"]}, [("good", "early")])]


class Inner(BaseModel):
    count: int


class Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a state {"count": ...} would be refused

    good: str = ""


def test_a_subgraphs_checkpoints_pass_unchecked(tmp_path):
    # its own namespace holds its own state, which the parent's model does not describe
    inner = StateGraph(Inner).add_node("add", lambda s: {"count": s.count + 1})
    inner = inner.add_edge(START, "add").compile()

    def call(state: Outer) -> dict[str, Any]:
        return {"good": str(inner.invoke({"count": 1})["count"])}

    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        builder = StateGraph(Outer).add_node("call", call).add_edge(START, "call")
        graph = builder.compile(checkpointer=GuardedSaver(saver, Outer))
        assert graph.invoke({}, CONFIG, durability="sync") == {"good": "2"}
        states = sorted(
            (t.config["configurable"]["checkpoint_ns"].split(":")[0], t.metadata["step"],
             state_channels(t.checkpoint["channel_values"]))
            for t in saver.list(None)
        )  # fmt: skip
        assert states == [
            ("", -1, {}), ("", 0, {}), ("", 1, {"good": "2"}),
            ("call", -1, {}), ("call", 0, {"count": 1}), ("call", 1, {"count": 2}),
        ]  # fmt: skip


def test_the_guard_has_exactly_the_optional_methods_of_the_saver_it_wraps():
    async def made() -> dict[str, Any]:  # the async savers take their event loop when made
        return {
            "InMemorySaver": InMemorySaver(),
            "SqliteSaver": SqliteSaver(sqlite3.connect(":memory:", check_same_thread=False)),
            "AsyncSqliteSaver": AsyncSqliteSaver(None),  # no connection: never used
            "PostgresSaver": PostgresSaver(None),
            "AsyncPostgresSaver": AsyncPostgresSaver(None),
        }

    savers = asyncio.run(made())

    def methods(saver: Any) -> tuple[Any, list[str]]:
        own = sorted(name for name in OPTIONAL_METHODS if overrides(type(saver), name))
        return DetectedCapabilities.from_instance(saver), own

    assert {name: methods(GuardedSaver(s, Pair)) for name, s in savers.items()} == {
        name: methods(s) for name, s in savers.items()
    }
    assert methods(savers["AsyncPostgresSaver"])[1] == ["aprune", "prune"]
    assert isinstance(GuardedSaver(savers["PostgresSaver"], Pair), GuardedSaver)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((object(), Pair), "inner must be a LangGraph checkpoint saver (a BaseCheckpointSaver)"),
        ((InMemorySaver(), {"tags": []}), "model must be a Pydantic model class"),
        ((InMemorySaver(), Pair, "ignore"), 'on_invalid must be "raise" or "warn"'),
        (
            (InMemorySaver(), Pair, "raise", 42),
            "migrate must be a function taking a state dict and returning one, or the path of "
            "a plan (TOML) or of a folder of plans",
        ),
    ],
    ids=["inner", "model", "on_invalid", "migrate"],
)
def test_a_guard_is_not_built_from_the_wrong_parts(arguments, message):
    inner, model, *rest = arguments
    options = dict(zip(["on_invalid", "migrate"], rest, strict=False))
    with pytest.raises(CodedError) as refused:
        GuardedSaver(inner, model, **options)
    assert (refused.value.code, refused.value.message) == (
        "guard_option",
        f"GuardedSaver: {message}.",
    )


def test_messages_stay_as_the_run_made_them(tmp_path):
    # the write check runs each reducer on copies: a message the node returned is not given
    # an id by the guard (LangGraph gives it one itself)
    with closing(sqlite3.connect(tmp_path / "t.sqlite", check_same_thread=False)) as conn:
        guard = GuardedSaver(SqliteSaver(conn), AgentState)
        checkpoint = empty_checkpoint()
        checkpoint["channel_values"] = {"user_id": SEED_PAYLOAD["user_id"], "amount": 1}
        guard.put(CONFIG, checkpoint, {"source": "loop", "step": 0}, {})
        message = AIMessage("hi")
        at = {
            "configurable": {
                "thread_id": "t",
                "checkpoint_ns": "",
                "checkpoint_id": checkpoint["id"],
            }
        }
        guard.put_writes(at, [("messages", [message])], "task-1", "~__pregel_pull, talk")
        assert (message.id, guard.get_tuple(at).pending_writes) == (
            None, [("task-1", "messages", [AIMessage("hi")])],
        )  # fmt: skip
