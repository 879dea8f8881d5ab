"""model_examples / example_payload: the model's own examples, else a generated valid one."""

from __future__ import annotations

import json
import re
import sys
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, Literal
from uuid import UUID

import pytest
from langchain_core.messages import AnyMessage, HumanMessage
from langgraph.graph import START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field

from core.order import AgentState, LineItem
from core.project import Project, load_project
from core.validate.entry import project_entry
from core.validate.examples import HUMAN_MESSAGE, ExampleError, example_payload, model_examples
from core.validate.pattern_sample import sample_pattern
from core.validate.report import validate_text

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures"))
from custom_reducer.graph import TagState
from shop.state import ShopState
from typed_state.graph import TicketIn


class Colour(Enum):
    red = 1
    blue = 2


class Node(BaseModel):
    name: str = Field(min_length=1)
    children: list[Node] = Field(default_factory=list)


class Everything(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    when: datetime
    day: date
    id: UUID
    price: Decimal = Field(gt=Decimal("9.99"), le=Decimal("20"), decimal_places=2)
    code: str = Field(pattern=r"^(AB|CD)-\d{4}[a-z]?$", max_length=8)
    word: str = Field(min_length=12, max_length=14)
    even: int = Field(gt=10, lt=20, multiple_of=4)
    ratio: float = Field(ge=0, lt=1)
    colour: Colour
    mode: Literal["a", "b"]
    pair: tuple[int, str]
    counts: dict[str, int]
    tree: Node
    maybe: int | None
    tags: list[str] = Field(min_length=2, max_length=3)
    email: str | None = Field(default=None, pattern=r"^[^@\s]+@[^@\s]+$")


class Chat(BaseModel):
    """A message list without a default: the example must hold one."""

    messages: Annotated[list[AnyMessage], add_messages]
    topic: str = Field(min_length=3)


class ChatWithHistory(BaseModel):
    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
    turns: int = 0


MODELS = [ShopState, TicketIn, TagState, AgentState, LineItem, Everything, Node, Chat]
MODELS += [ChatWithHistory]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_generated_examples_validate_as_json_text(model):
    payload = example_payload(model)

    report = validate_text(json.dumps(payload), model)  # JSON text, as the editor sends it

    assert (report.syntax_error, report.errors) == (None, [])


def test_shop_example_fills_nested_models_lists_enums_and_formats():
    assert example_payload(ShopState) == {
        "order_id": "550e8400-e29b-41d4-a716-446655440000",
        "placed_on": "2024-01-31",
        "customer": {
            "id": "550e8400-e29b-41d4-a716-446655440000",
            "name": "example",
            "tier": "basic",
            "address": {"street": "example", "city": "example", "postcode": "00000"},
        },
        "lines": [{"sku": "AAA-000", "qty": 1, "price": 1}],
        "coupon": "example",
        "priority": "normal",
        "total": 1,
        "route": "unrouted",
        "notes": ["example"],
    }


def test_constraints_and_patterns_are_met_where_simple():
    payload = example_payload(Everything)

    assert {k: payload[k] for k in ("price", "code", "word", "even", "ratio", "tags")} == {
        "price": 10.49,
        "code": "AB-0000",
        "word": "exampleexamp",
        "even": 12,
        "ratio": 0.5,
        "tags": ["example", "example"],
    }
    assert (payload["colour"], payload["mode"], payload["pair"]) == (1, "a", [1, "example"])
    assert payload["email"] == "a@a"


def test_model_examples_prefer_the_models_own_json_schema_extra_examples():
    examples = model_examples(TagState)

    assert {name: (e.title, e.summary, e.value) for name, e in examples.items()} == {
        "example_1": (
            "Example 1",
            "from TagState's examples",
            {"text": "refund for a broken kettle", "tags": ["support"]},
        ),
        "example_2": ("Example 2", "from TagState's examples", {"text": "hi", "tags": []}),
    }
    assert list(model_examples(TicketIn)) == ["generated"]


def test_a_model_no_example_can_satisfy_raises_with_what_to_add():
    class Impossible(BaseModel):
        code: str = Field(pattern=r"^a$", min_length=2)

    with pytest.raises(ExampleError) as caught:
        example_payload(Impossible)

    assert str(caught.value) == (
        "[no_example] could not build a valid example for Impossible; add model_config = "
        'ConfigDict(json_schema_extra={"examples": [...]}) to the model.'
    )


@pytest.mark.parametrize("model", [Chat, ChatWithHistory, AgentState], ids=lambda m: m.__name__)
def test_a_message_list_gets_one_human_message_the_model_turns_into_a_humanmessage(model):
    payload = example_payload(model)

    assert payload["messages"] == [{"type": "human", "content": "Hello"}] == [HUMAN_MESSAGE]
    value = model.model_validate_json(json.dumps(payload))
    assert [(type(m), m.content) for m in value.messages] == [(HumanMessage, "Hello")]


def test_the_order_example_is_the_generated_one_with_a_message():
    assert example_payload(AgentState) == {
        "user_id": "550e8400-e29b-41d4-a716-446655440000",
        "amount": 1,
        "status": "pending",
        "items": [{"sku": "AAA", "qty": 1, "unit_price": 1}],
        "logs": ["example"],
        "messages": [{"type": "human", "content": "Hello"}],
    }


class _Ticket(BaseModel):
    """A Pydantic state with more than its input: `queue` is the graph's to fill."""

    title: str
    severity: str
    tags: list[str] = Field(default_factory=list)
    queue: str = "unassigned"
    owner: str = Field(default="nobody", pattern=r"^[a-z]+$")


def _triage(state: _Ticket) -> dict[str, Any]:
    return {"queue": "oncall"}


def test_a_graph_with_an_input_schema_gets_its_examples_from_the_input_schema():
    builder = StateGraph(_Ticket, input_schema=TicketIn)
    builder.add_node("triage", _triage)
    builder.add_edge(START, "triage")
    project = Project(model=_Ticket, graph=builder.compile())

    assert project_entry(project).model is TicketIn
    assert {n: e.value for n, e in model_examples(project_entry(project).model).items()} == {
        "generated": {"title": "example", "severity": "low", "tags": ["example"]}
    }
    plain = StateGraph(_Ticket)
    plain.add_node("triage", _triage)
    plain.add_edge(START, "triage")
    assert project_entry(Project(model=_Ticket, graph=plain.compile())).model is _Ticket
    assert project_entry(Project()).model is AgentState  # the seed order


def test_a_typeddict_graphs_input_schema_is_the_model_payloads_are_written_for(monkeypatch):
    monkeypatch.chdir(Path(__file__).resolve().parents[2] / "fixtures")
    project = load_project(["--graph", "typed_state.graph:make_graph"], {}, ".")
    assert (project.model, project_entry(project).model) == (TicketIn, TicketIn)


@pytest.mark.parametrize(
    ("pattern", "low", "sampled"),
    [
        (r"^[A-Z0-9-]+$", 3, "AAA"),
        (r"^(AB|CD)-\d{4}[a-z]?$", 0, "AB-0000"),
        (r"^[^@\s]+@[^@\s]+$", 0, "a@a"),
        (r"x{2,}", 5, "xxxxx"),
        (r"^(?=a)a$", 0, None),  # a lookahead
        (r"^(a)\1$", 0, None),  # a backreference
        (r"[", 0, None),  # not a pattern
    ],
)
def test_pattern_samples_match_their_pattern_or_are_none(pattern, low, sampled):
    assert sample_pattern(pattern, low) == sampled
    if sampled is not None:
        assert re.search(pattern, sampled)
