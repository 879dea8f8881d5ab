"""Whose gate: LangGraph native runs what LangGraph runs; checked mode gates with our model
(the input schema's), or records the refusal and runs anyway; the output is invoke's own."""

from __future__ import annotations

import re
from typing import Annotated, Any

import pytest
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.trace import TraceError, run_trace
from core.trace.reducers import dump_json

GATE_CASES = [
    ({"user_id": "not-a-uuid"}, [("uuid_parsing", "user_id")]),
    ({"amount": -1}, [("greater_than_equal", "amount")]),
    ({"items": [{"sku": "bad sku", "qty": 2, "unit_price": 49.5}]},
     [("string_pattern_mismatch", "items[0].sku")]),
    ({"coupon": "WELCOME10"}, [("extra_forbidden", "coupon")]),
    ({"messages": [{"content": "no type, no role"}]}, [("validator_exception", "messages[0]")]),
]  # fmt: skip


def _ids(n: int) -> str:
    return f"msg-{n}"


def _stable(value: Any) -> str:
    # LangGraph's own run gives its messages uuid4 ids: name them by first appearance.
    names: dict[str, str] = {}
    return re.sub(
        r'"id": "([^"]*)"',
        lambda m: f'"id": "m{names.setdefault(m.group(1), str(len(names) + 1))}"',
        dump_json(value),
    )


def _langgraph(payload: dict) -> tuple[str, Any]:
    """What LangGraph itself does with `payload` on a fresh graph: ("returned"|error type, ...)."""
    try:
        return "returned", _stable(build_order_graph().invoke(payload))
    except Exception as exc:  # noqa: BLE001 - whatever LangGraph raises is the oracle
        return type(exc).__name__, str(exc)


def _traced(trace) -> tuple[str, Any]:
    if trace.error is None:
        return "returned", _stable(trace.output)
    return trace.error.type, trace.error.message


@pytest.mark.parametrize(("change", "refused"), GATE_CASES)
def test_native_mode_has_no_gate_of_ours_and_does_what_langgraph_does(change, refused):
    payload = {**SEED_PAYLOAD, **change}

    native = run_trace(build_order_graph(), payload, check_each_step=False)

    assert (native.ran, native.gate_errors) == (True, [])
    assert _traced(native) == _langgraph(payload)
    assert "blame" not in native.rows()[0]


def test_langgraph_native_accepts_what_our_model_refuses_and_says_where_it_raises():
    unknown, bad_uuid, no_role = (
        run_trace(build_order_graph(), {**SEED_PAYLOAD, **change}, check_each_step=False)
        for change, _ in (GATE_CASES[3], GATE_CASES[0], GATE_CASES[4])
    )

    assert (unknown.error, unknown.steps[-1].node, unknown.output["status"]) == (
        None, "confirm", "confirmed"
    )  # fmt: skip
    assert (bad_uuid.error.code, bad_uuid.error.step, bad_uuid.error.node) == (
        "input_invalid", 1, "validate_order"
    )  # fmt: skip
    assert (no_role.error.code, no_role.error.type, [s.node for s in no_role.steps]) == (
        "graph_error", "ValueError", ["__start__"]
    )  # fmt: skip


@pytest.mark.parametrize(("change", "refused"), GATE_CASES)
def test_checked_mode_refuses_at_our_gate_and_runs_nothing(change, refused):
    trace = run_trace(build_order_graph(), {**SEED_PAYLOAD, **change})

    assert [(e.type, e.path) for e in trace.gate_errors] == refused
    assert (trace.ran, trace.steps, trace.graph, trace.output, trace.error) == (
        False, [], None, None, None
    )  # fmt: skip


@pytest.mark.parametrize(("change", "refused"), GATE_CASES)
def test_run_anyway_records_our_refusal_and_runs_what_langgraph_runs(change, refused):
    payload = {**SEED_PAYLOAD, **change}

    anyway = run_trace(build_order_graph(), payload, run_anyway=True, message_ids=_ids)
    native = run_trace(build_order_graph(), payload, check_each_step=False, message_ids=_ids)

    assert ([(e.type, e.path) for e in anyway.gate_errors], anyway.ran) == (refused, True)
    assert (anyway.error, anyway.output) == (native.error, native.output)
    assert [s.state for s in anyway.steps] == [s.state for s in native.steps]
    assert _traced(anyway) == _langgraph(payload)


def test_run_anyway_checks_each_merged_step_as_checked_mode_does():
    trace = run_trace(build_order_graph(), {**SEED_PAYLOAD, "coupon": "X"}, run_anyway=True)

    # The unknown key never reaches a channel: every merged state is valid.
    assert [(row["node"], row["check"], row["blame"]) for row in trace.rows()] == [
        ("__start__", "✓", ""), ("validate_order", "✓", ""), ("confirm", "✓", "")
    ]  # fmt: skip


def test_run_anyway_is_moot_when_the_gate_is_open():
    trace = run_trace(build_order_graph(), SEED_PAYLOAD, run_anyway=True)

    assert (trace.gate_errors, trace.ran, trace.error) == ([], True, None)


class Question(BaseModel):
    model_config = ConfigDict(extra="forbid")
    question: str = Field(min_length=1)


class Answer(BaseModel):
    answer: str


class QAState(BaseModel):
    question: str
    answer: str = ""  # a state field, yet not an input: Question forbids it
    notes: Annotated[list[str], lambda a, b: a + b] = Field(default_factory=list)


def _qa_graph(*, output: bool = True):
    def think(state: QAState) -> dict:
        return {"notes": [f"asked {state.question}"]}

    def reply(state: QAState) -> dict:
        return {"answer": state.question.upper()}

    kwargs = {"output_schema": Answer} if output else {}
    builder = StateGraph(QAState, input_schema=Question, **kwargs)
    builder.add_node("think", think)
    builder.add_node("reply", reply)
    builder.add_edge(START, "think")
    builder.add_edge("think", "reply")
    builder.add_edge("reply", END)
    return builder.compile()


def test_the_gate_validates_the_input_schema_not_the_state_schema():
    accepted = run_trace(_qa_graph(), {"question": "why"})
    refused = run_trace(_qa_graph(), {"question": "", "answer": "x"})

    assert (accepted.options.input_model, accepted.options.model) == (Question, QAState)
    assert (accepted.gate_errors, accepted.error) == ([], None)
    assert [(e.type, e.path) for e in refused.gate_errors] == [
        ("string_too_short", "question"),
        ("extra_forbidden", "answer"),
    ]
    assert QAState.model_validate({"question": "", "answer": "x"})  # the state would pass it


def test_output_is_exactly_what_invoke_returns_with_the_output_schema():
    trace = run_trace(_qa_graph(), {"question": "why"})

    assert trace.output == _qa_graph().invoke({"question": "why"}) == {"answer": "WHY"}
    assert trace.steps[-1].state == {"question": "why", "answer": "WHY", "notes": ["asked why"]}
    assert (trace.output_schema, trace.output_model) == (Answer, Answer(answer="WHY"))
    assert trace.output_model == _qa_graph().invoke({"question": "why"}, version="v2").value


def test_without_an_output_schema_the_output_is_the_whole_state_and_the_model_the_states():
    trace = run_trace(_qa_graph(output=False), {"question": "why"})
    expected = _qa_graph(output=False).invoke({"question": "why"})

    assert trace.output == expected == {"question": "why", "answer": "WHY", "notes": ["asked why"]}
    assert trace.output_schema is QAState
    assert (
        trace.output_model
        == _qa_graph(output=False).invoke({"question": "why"}, version="v2").value
    )


def test_an_output_langgraph_cannot_build_its_model_from_has_no_output_model():
    graph = build_order_graph(["bad_status_last"])
    trace = run_trace(graph, SEED_PAYLOAD, check_each_step=False, message_ids=_ids)

    with pytest.raises(ValidationError):
        build_order_graph(["bad_status_last"]).invoke(SEED_PAYLOAD, version="v2")
    assert (trace.output["status"], trace.output_schema, trace.output_model) == (
        "shipped", AgentState, None
    )  # fmt: skip
    assert _stable(trace.output) == _stable(
        build_order_graph(["bad_status_last"]).invoke(SEED_PAYLOAD)
    )


def test_run_anyway_shows_langgraph_raising_before_the_first_node_blaming_the_input():
    trace = run_trace(build_order_graph(), {**SEED_PAYLOAD, "amount": -1}, run_anyway=True)

    assert trace.error == TraceError(
        "input_invalid", 1, "validate_order", "__start__", "ValidationError",
        _langgraph({**SEED_PAYLOAD, "amount": -1})[1],
    )  # fmt: skip


def test_the_state_model_the_caller_gives_checks_the_steps_and_the_input_schema_still_gates():
    refused = run_trace(_qa_graph(), {"question": "", "answer": "x"}, model=QAState)

    assert (refused.options.input_model, refused.options.model) == (Question, QAState)
    assert ([(e.type, e.path) for e in refused.gate_errors], refused.ran) == (
        [("string_too_short", "question"), ("extra_forbidden", "answer")], False
    )  # fmt: skip


def test_a_gate_model_the_caller_gives_gates_instead_of_the_input_schema():
    trace = run_trace(_qa_graph(), {"question": "", "answer": "x"}, input_model=QAState)

    assert (trace.options.input_model, trace.options.model) == (QAState, QAState)
    assert (trace.gate_errors, trace.ran, trace.output) == ([], True, {"answer": ""})
