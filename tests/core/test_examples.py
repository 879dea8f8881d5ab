"""model_examples / example_payload: the model's own examples, else a generated valid one."""

from __future__ import annotations

import json
import sys
from datetime import date, datetime
from decimal import Decimal
from enum import Enum
from pathlib import Path
from typing import Literal
from uuid import UUID

import pytest
from pydantic import BaseModel, ConfigDict, Field

from core.examples import ExampleError, example_payload, model_examples
from core.order import AgentState, LineItem
from core.report import validate_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fixtures"))
from custom_reducer.graph import TagState  # noqa: E402
from shop.state import ShopState  # noqa: E402
from typed_state.graph import TicketIn  # noqa: E402


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


MODELS = [ShopState, TicketIn, TagState, AgentState, LineItem, Everything, Node]


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

    assert {name: (e.title, e.summary, e.payload) for name, e in examples.items()} == {
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
