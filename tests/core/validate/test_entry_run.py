"""core.validate.entry_run: LangGraph's own entry verdict, against LangGraph itself."""

import copy
import json
import operator
from typing import Annotated

import pytest
from langchain_core.messages import AnyMessage
from langgraph.graph import END, START, StateGraph, add_messages
from pydantic import BaseModel, ConfigDict, Field

from core.order import SEED_PAYLOAD, AgentState, build_fanout_graph, build_order_graph
from core.order.presets import PRESETS
from core.order.schema_options import SchemaOptions, build_model
from core.validate.entry import Headline, compare_entry, headline
from core.validate.entry_run import EntryVerdict, langgraph_entry
from core.validate.field_errors import FieldError
from core.validate.report import validate_text

UUID = "550e8400-e29b-41d4-a716-446655440000"


class ChatState(BaseModel):
    """The most common message state: reducer fields without a default."""

    model_config = ConfigDict(extra="forbid")
    topic: str = Field(min_length=1)
    messages: Annotated[list[AnyMessage], add_messages]
    docs: Annotated[list[str], operator.add]
    turns: int = 0


def _chat(state: ChatState) -> dict:
    return {"turns": state.turns + 1, "docs": [state.topic]}


def chat_graph():
    builder = StateGraph(ChatState)
    builder.add_node("chat", _chat)
    builder.add_edge(START, "chat")
    builder.add_edge("chat", END)
    return builder.compile()


class Question(BaseModel):
    question: str


class Answer(BaseModel):
    answer: str


class QAState(BaseModel):
    question: str
    answer: str = ""
    docs: Annotated[list[str], operator.add]


def qa_graph():
    builder = StateGraph(QAState, input_schema=Question, output_schema=Answer)
    builder.add_node("answer", lambda state: {"answer": state.question.upper(), "docs": ["d"]})
    builder.add_edge(START, "answer")
    builder.add_edge("answer", END)
    return builder.compile()


def _seed(**changes):
    payload = copy.deepcopy(SEED_PAYLOAD)
    payload.update(changes)
    return payload


def test_role_style_and_string_messages_run_though_the_model_alone_rejects_them():
    payload = _seed(messages=[{"role": "user", "content": "hi"}, "hello"])
    verdict = langgraph_entry(build_order_graph(), payload)
    assert (verdict.runs, verdict.first_nodes, verdict.error, verdict.errors, verdict.dropped) == (
        True,
        ["validate_order"],
        None,
        [],
        [],
    )
    assert [(m["type"], m["content"]) for m in verdict.node_saw["messages"]] == [
        ("human", "hi"),
        ("human", "hello"),
    ]
    report = validate_text(json.dumps(payload))
    assert [(e.path, e.type) for e in report.errors] == [
        ("messages[0]", "validator_exception"),
        ("messages[1]", "validator_exception"),
    ]
    assert headline(report, compare_entry(report, build_order_graph())) == Headline(
        "warning",
        "LangGraph runs this payload: it rewrites 1 field with its reducers before the first "
        "node starts. Your model alone rejects it: 2 errors, listed below.",
        ["first node: validate_order", "rewritten by a reducer before validation: messages"],
    )


def test_reducer_fields_without_a_default_start_empty():
    verdict = langgraph_entry(chat_graph(), {"topic": "refunds"})
    assert verdict == EntryVerdict(
        runs=True,
        input_schema=ChatState,
        first_nodes=["chat"],
        channels={"topic": "refunds", "messages": [], "docs": []},
        node_saw={"topic": "refunds", "messages": [], "docs": [], "turns": 0},
    )
    report = validate_text('{"topic": "refunds"}', ChatState)
    assert [(e.path, e.type) for e in report.errors] == [
        ("messages", "missing"),
        ("docs", "missing"),
    ]


def test_the_input_schema_takes_the_payload_and_drops_what_it_does_not_declare():
    verdict = langgraph_entry(qa_graph(), {"question": "why?", "docs": ["x"], "answer": "no"})
    assert (verdict.runs, verdict.input_schema, verdict.dropped, verdict.node_saw) == (
        True,
        Question,
        ["docs", "answer"],
        {"question": "why?", "answer": "", "docs": []},
    )


def test_the_first_nodes_model_rejects_what_the_input_schema_let_through():
    text = '{\n  "question": 3\n}'
    verdict = langgraph_entry(qa_graph(), json.loads(text), text)
    assert (verdict.runs, verdict.error) == (
        False,
        "ValidationError: 1 error: question (string_type)",
    )
    assert [(e.path, e.type, e.line, e.col) for e in verdict.errors] == [
        ("question", "string_type", 2, 15)
    ]


def test_unknown_keys_are_dropped_and_the_graph_runs():
    verdict = langgraph_entry(build_order_graph(), _seed(coupon="X", note=1))
    assert (verdict.runs, verdict.dropped) == (True, ["coupon", "note"])
    assert "coupon" not in verdict.channels and "coupon" not in verdict.node_saw


def test_a_message_with_neither_type_nor_role_is_pinned_and_the_other_errors_kept():
    payload = _seed(user_id="nope", amount=-1)
    payload["items"][0].update(sku="bad sku", qty=0)
    payload["messages"] = [{"content": "no type"}, {"type": "human", "content": "ok"}]
    text = json.dumps(payload, indent=1)
    verdict = langgraph_entry(build_order_graph(), payload, text)
    assert (verdict.runs, verdict.error) == (
        False,
        "ValueError: Message dict must contain 'role' and 'content' keys, got "
        "{'content': 'no type'}",
    )
    assert verdict.errors[-1] == FieldError(
        loc=("messages", 0),
        path="messages[0]",
        pointer="/messages/0",
        type="langgraph_exception",
        msg="LangGraph's entry raised ValueError: Message dict must contain 'role' and "
        "'content' keys, got {'content': 'no type'} For troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langchain/errors/MESSAGE_COERCION_FAILURE",
        input={"content": "no type"},
        line=12,
        col=3,
    )
    assert [(e.path, e.type, e.line, e.col) for e in verdict.errors[:-1]] == [
        ("user_id", "uuid_parsing", 2, 13),
        ("amount", "greater_than_equal", 3, 12),
        ("items[0].sku", "string_pattern_mismatch", 6, 11),
        ("items[0].qty", "greater_than_equal", 7, 11),
    ]


def test_a_payload_that_is_not_an_object_is_langgraphs_own_refusal():
    verdict = langgraph_entry(build_order_graph(), [1, 2], "[1, 2]")
    assert (verdict.runs, verdict.error[:19], [(e.path, e.type) for e in verdict.errors]) == (
        False,
        "InvalidUpdateError:",
        [("(root)", "langgraph_exception")],
    )


def test_a_valid_seed_payload_runs_with_the_coerced_state_and_raw_channels():
    verdict = langgraph_entry(build_order_graph(), _seed(amount="42"))
    assert (verdict.runs, verdict.channels["amount"], verdict.node_saw["amount"]) == (
        True,
        "42",
        42.0,
    )
    assert verdict.node_saw["status"] == "pending" and "status" not in verdict.channels
    assert AgentState.model_validate(verdict.node_saw).amount == 42.0


@pytest.mark.parametrize("build", [build_order_graph, build_fanout_graph])
def test_the_seed_graphs_nodes_read_the_schema_options_model(build):
    # Each node's annotation named AgentState, so LangGraph built their input with it and
    # refused a padded SKU the "strip item" option's model accepts.
    stripping = build_model(SchemaOptions(strip_item=True))
    payload = json.loads(PRESETS["padded_sku"].value)
    assert langgraph_entry(build(state=stripping), payload).runs
    assert build(state=stripping).invoke(payload)["status"] == "confirmed"


def test_an_integer_past_64_bits_gets_langgraphs_verdict_not_our_checkpointers_error():
    # Found by the differential test: our interrupting checkpointer could not store it (msgpack
    # holds 64-bit integers), while LangGraph itself, without one, runs the graph.
    payload = {"topic": "refunds", "unknown": [-9223372036854775809], "docs": [], "messages": []}
    assert list(chat_graph().stream(payload, stream_mode="values"))[-1]["turns"] == 1
    verdict = langgraph_entry(chat_graph(), payload)
    assert (verdict.runs, verdict.first_nodes, verdict.dropped, verdict.error) == (
        True, ["chat"], ["unknown"], None,
    )  # fmt: skip
    refused = langgraph_entry(chat_graph(), payload | {"topic": 2**70})
    assert (refused.runs, refused.channels, [(e.path, e.type) for e in refused.errors]) == (
        False, None, [("topic", "string_type")],
    )  # fmt: skip
