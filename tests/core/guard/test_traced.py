"""The Trace page's run through the guard: the guard's own refusal, and the thread read back."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from core.errors import CodedError
from core.guard import GuardedSaver
from core.guard.traced import GuardedRun, HistoryRead, guarded_run, guarded_saver, read_history
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.trace.from_text import trace_text
from core.trace.run import run_trace

SEED = json.dumps(SEED_PAYLOAD)


def _guarded(text: str, **settings: Any) -> GuardedRun:
    """The Trace page's run with the Guard switch on."""
    return guarded_run(trace_text(text, checkpointer=guarded_saver, **settings))


def test_the_guard_stops_negative_amount_at_step_1_in_validate_order_and_the_thread_reads() -> None:
    guarded = _guarded(SEED, graph="seed", faults=["negative_amount"])
    refusal = guarded.refusal
    assert refusal is not None
    assert (refusal.code, refusal.step, refusal.nodes, refusal.thread_id) == (
        "state_invalid", 1, ("validate_order",), "trace",
    )  # fmt: skip
    assert refusal.errors == [
        {
            "type": "greater_than_equal",
            "loc": ["amount"],
            "msg": "Input should be greater than or equal to 0",
            "input": -1,
            "ctx": {"ge": 0.0},
        }
    ]
    # the run's checkpoints end at the last valid state; the history reads them all
    assert guarded.history == HistoryRead(checkpoints=2, steps=(-1, 0))
    trace = guarded.run.trace
    assert trace is not None
    assert [(s.step, s.node, s.committed) for s in trace.steps] == [
        (0, "__start__", True),
        (1, "validate_order", False),
    ]
    # the same run on the bare saver stores the bad state, and its history raises (#6491)
    bare = trace_text(SEED, graph="seed", faults=["negative_amount"]).trace
    assert bare is not None and bare.graph is not None
    assert read_history(bare.graph) == HistoryRead(
        0, (), "ValidationError: 1 validation error for AgentState"
    )


def test_a_bad_last_write_raises_the_guards_error_and_the_bad_state_is_not_stored() -> None:
    guarded = _guarded(SEED, graph="seed", faults=["bad_status_last"])
    assert guarded.refusal is not None
    assert (guarded.refusal.step, guarded.refusal.nodes) == (2, ("confirm",))
    trace = guarded.run.trace
    assert trace is not None and trace.error is not None
    assert (trace.error.step, trace.error.type) == (2, "InvalidStateError")
    assert guarded.history == HistoryRead(checkpoints=3, steps=(-1, 0, 1))
    # the same run on the bare saver stores the bad state as its head
    bare = trace_text(SEED, graph="seed", faults=["bad_status_last"]).trace
    assert bare is not None and bare.graph is not None
    assert read_history(bare.graph) == HistoryRead(checkpoints=4, steps=(-1, 0, 1, 2))
    config: Any = {"configurable": {"thread_id": "trace"}}
    assert bare.graph.get_state(config).values["status"] == "shipped"


def test_a_valid_run_is_the_same_trace_with_the_guard_and_nothing_is_refused() -> None:
    guarded = _guarded(SEED, graph="seed")
    bare = trace_text(SEED, graph="seed").trace
    assert guarded.refusal is None
    assert guarded.history == HistoryRead(checkpoints=4, steps=(-1, 0, 1, 2))
    assert guarded.run.trace is not None and bare is not None
    assert guarded.run.trace.rows() == bare.rows()
    assert guarded.run.trace.output == bare.output


def test_nothing_runs_nothing_is_read_back_when_our_gate_refuses_or_the_json_is_broken() -> None:
    refused = _guarded('{"amount": -1}', graph="seed")
    assert (refused.refusal, refused.history) == (None, None)
    assert refused.run.trace is not None
    assert [e.path for e in refused.run.trace.gate_errors] == ["user_id", "amount"]
    broken = _guarded("{", graph="seed")
    assert (broken.refusal, broken.history, broken.run.trace) == (None, None, None)
    assert broken.run.syntax == trace_text("{", graph="seed").syntax


def test_run_trace_takes_a_checkpointer_and_reads_the_trace_back_through_it() -> None:
    made: list[tuple[str, type]] = []

    def saver_for(graph: Any, model: Any) -> InMemorySaver:
        made.append((type(graph).__name__, model))
        return InMemorySaver()

    trace = run_trace(build_order_graph(), SEED_PAYLOAD, checkpointer=saver_for)
    assert made == [("CompiledStateGraph", AgentState)]
    assert trace.graph is not None and type(trace.graph.checkpointer) is InMemorySaver
    assert [s.node for s in trace.steps] == ["__start__", "validate_order", "confirm"]


def test_a_graph_without_a_pydantic_state_cannot_be_guarded() -> None:
    with pytest.raises(CodedError) as refused:
        guarded_saver(build_order_graph(), None)
    assert refused.value.code == "guard_option"
    assert isinstance(guarded_saver(build_order_graph(), AgentState), GuardedSaver)
