"""Silent losses, read off real runs and checked against LangGraph's own account of the same run.

The oracle is LangGraph itself: `stream(stream_mode="debug")` gives each task's step, input
and the result LangGraph kept, `get_state_history` the state before and after every step, and
the node's own runnable, called on the input LangGraph gave it, what the node really returned.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Overwrite

from core.order import SEED_PAYLOAD, build_fanout_graph, build_order_graph
from core.trace import run_trace
from core.trace.focus import Headline, headline, loss_notes, opened_row, row_flags
from core.trace.fork import fork_trace
from core.trace.loss import Loss, losses
from core.trace.merge import merge_view

_OVERWRITE = Loss(
    index=2,
    step=2,
    node="confirm",
    field="logs",
    kind="overwrite",
    bypassed="operator.add",
    was=["amount=99.0 items=1"],
    remains=["confirmed"],
    lost=["amount=99.0 items=1"],
)
_DROPPED = Loss(
    index=1,
    step=1,
    node="validate_order",
    field="totl",
    kind="dropped",
    bypassed="",
    was=1,
    remains=None,
    lost=[1],
)


def _oracle(faults: list[str]) -> list[tuple[Any, ...]]:
    """(step, node, field, kind, was, remains) per loss, from LangGraph's stream and history."""
    graph = build_order_graph(faults)
    run = graph.copy(update={"checkpointer": InMemorySaver()})
    config = {"configurable": {"thread_id": "oracle"}}
    tasks: dict[str, tuple[int, str, Any]] = {}
    kept: dict[str, dict[str, Any]] = {}
    for event in run.stream(SEED_PAYLOAD, config, stream_mode="debug"):
        payload = event["payload"]
        if event["type"] == "task":
            tasks[payload["id"]] = (event["step"], payload["name"], payload["input"])
        elif event["type"] == "task_result":
            kept[payload["id"]] = payload["result"]
    history = {point.metadata["step"]: point.values for point in run.get_state_history(config)}
    found = []
    for task, (step, node, given) in tasks.items():
        returned = graph.builder.nodes[node].runnable.invoke(given)  # what the node returns
        before, after = history[step - 1], history[step]
        for name, value in returned.items():
            if name not in kept[task]:  # LangGraph's streams never saw it
                assert name not in after  # nor does the state hold it
                found.append((step, node, name, "dropped", value, None))
            elif isinstance(kept[task][name], Overwrite):
                found.append((step, node, name, "overwrite", before[name], after[name]))
    return sorted(found, key=lambda loss: loss[0])


def _seen(faults: list[str], checked: bool = True) -> list[tuple[Any, ...]]:
    trace = run_trace(build_order_graph(faults), SEED_PAYLOAD, check_each_step=checked)
    return [
        (loss.step, loss.node, loss.field, loss.kind, loss.was, loss.remains)
        for loss in losses(trace)
    ]


@pytest.mark.parametrize(
    "faults", [[], ["overwrite_logs"], ["undeclared_key"], ["undeclared_key", "overwrite_logs"]]
)
@pytest.mark.parametrize("checked", [True, False], ids=["checked", "native"])
def test_the_losses_flagged_are_those_langgraphs_stream_and_history_show(faults, checked):
    assert _seen(faults, checked) == _oracle(faults)


def test_an_overwrite_names_what_the_channel_held_and_what_remains():
    trace = run_trace(build_order_graph(["overwrite_logs"]), SEED_PAYLOAD)
    assert losses(trace) == [_OVERWRITE]
    logs = [row for row in merge_view(trace, 2) if row["field"] == "logs"]
    assert logs == [
        {
            "field": "logs",
            "before": '["amount=99.0 items=1"]',
            "update": '{"Overwrite": ["confirmed"]}',
            "reducer": "Overwrite",
            "after": '["confirmed"]',
            "why": 'Overwrite bypassed operator.add. Was there: ["amount=99.0 items=1"]. '
            'Remains: ["confirmed"]. Lost: "amount=99.0 items=1".',
        }
    ]
    assert (opened_row(trace), row_flags(trace)) == (2, ["", "", "data lost"])
    assert (headline(trace), loss_notes(trace)) == (
        Headline(
            "warning",
            "LangGraph finished without raising, but step 2 lost data silently: confirm's "
            "Overwrite replaced logs, bypassing operator.add (it held "
            '["amount=99.0 items=1"], now ["confirmed"]).',
        ),
        [],
    )


def test_a_dropped_key_names_what_the_node_returned_and_that_nothing_remains():
    trace = run_trace(build_order_graph(["undeclared_key"]), SEED_PAYLOAD)
    assert losses(trace) == [_DROPPED]
    assert merge_view(trace, 1)[-1] == {
        "field": "totl",
        "before": "(unset)",
        "update": "1",
        "reducer": "dropped",
        "after": "(not a state field: discarded)",
        "why": "not a state field: LangGraph discarded the write. Was there: 1, in the node's "
        "update. Remains: nothing (the state has no totl).",
    }
    assert (opened_row(trace), row_flags(trace)) == (1, ["", "data lost", ""])
    assert headline(trace) == Headline(
        "warning",
        "LangGraph finished without raising, but step 1 lost data silently: validate_order "
        "returned totl=1, a key the state does not declare, and LangGraph discarded it.",
    )


def test_two_losses_the_headline_names_the_first_and_a_note_the_other():
    trace = run_trace(build_order_graph(["undeclared_key", "overwrite_logs"]), SEED_PAYLOAD)
    assert losses(trace) == [_DROPPED, _OVERWRITE]
    assert (opened_row(trace), row_flags(trace)) == (1, ["", "data lost", "data lost"])
    assert (headline(trace), loss_notes(trace)) == (
        Headline(
            "warning",
            "LangGraph finished without raising, but step 1 lost data silently: validate_order "
            "returned totl=1, a key the state does not declare, and LangGraph discarded it "
            "(and 1 more loss).",
        ),
        [
            "Step 2: confirm's Overwrite replaced logs, bypassing operator.add (it held "
            '["amount=99.0 items=1"], now ["confirmed"]).'
        ],
    )


def test_a_failure_keeps_the_headline_and_the_opened_row_and_the_loss_is_a_note():
    trace = run_trace(build_order_graph(["undeclared_key", "bad_status_last"]), SEED_PAYLOAD)
    assert (opened_row(trace), row_flags(trace)) == (2, ["", "data lost", "first failure"])
    assert (headline(trace), loss_notes(trace)) == (
        Headline(
            "warning",
            'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".',
        ),
        [
            "Step 1: validate_order returned totl=1, a key the state does not declare, and "
            "LangGraph discarded it."
        ],
    )


def test_a_payload_key_the_state_does_not_declare_is_a_loss_of_the_input_row():
    payload = {**SEED_PAYLOAD, "note": "rush"}
    trace = run_trace(build_order_graph(), payload, check_each_step=False)
    assert [(loss.index, loss.summary()) for loss in losses(trace)] == [
        (0, 'the input had note="rush", a key the state does not declare, and LangGraph '
            "discarded it")
    ]  # fmt: skip
    run = build_order_graph().copy(update={"checkpointer": InMemorySaver()})
    config = {"configurable": {"thread_id": "oracle"}}
    run.invoke(payload, config)
    assert "note" not in run.get_state(config).values  # LangGraph kept none of it


def test_no_loss_without_one():
    # Appends, a fan-out merged by its reducers, and a fork's edit (written with Overwrite on
    # purpose: the user replaced the state) lose nothing.
    assert losses(run_trace(build_order_graph(), SEED_PAYLOAD)) == []
    assert losses(run_trace(build_fanout_graph(), SEED_PAYLOAD)) == []
    trace = run_trace(build_order_graph(), SEED_PAYLOAD)
    edited = json.loads(json.dumps(trace.steps[1].state, default=str)) | {"logs": ["edited"]}
    edited.pop("messages")
    fork = fork_trace(trace, 1, edited)
    assert [step.reducers.get("logs") for step in fork.steps] == ["Overwrite", "operator.add"]
    assert losses(fork) == []
