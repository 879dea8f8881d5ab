"""core.validate.json_schema: a model's schema, `$ref`s followed, and the kind of form field each needs."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel

from core.order import AgentState
from core.validate.json_schema import field_kind, json_schema, resolve


class Address(BaseModel):
    street: str
    zip_code: str | None = None


class Customer(BaseModel):
    name: str
    vip: bool = False
    tier: Literal["gold", "silver"] = "silver"
    credit: Decimal = Decimal("0")
    home: Address | None = None
    addresses: list[Address] = []
    tags: list[str] = []
    scores: dict[str, int] = {}


def _kinds(model: type[BaseModel]) -> dict[str, str]:
    root = json_schema(model)
    return {name: field_kind(node, root)[0] for name, node in root["properties"].items()}


def test_every_field_of_a_model_gets_the_form_kind_its_type_needs():
    assert _kinds(Customer) == {
        "name": "text",
        "vip": "choice",
        "tier": "choice",
        "credit": "json",  # a number or a numeric string
        "home": "object",  # optional: the kind of its non-null branch
        "addresses": "table",
        "tags": "json",
        "scores": "json",
    }


def test_the_seed_order_model_gets_its_kinds():
    assert _kinds(AgentState) == {
        "user_id": "text",
        "amount": "json",
        "status": "choice",
        "items": "table",
        "logs": "json",
        "messages": "json",
    }


def test_an_object_and_a_table_return_the_schema_their_fields_come_from():
    root = json_schema(Customer)
    address = root["$defs"]["Address"]
    assert field_kind(root["properties"]["home"], root) == ("object", address)
    assert field_kind(root["properties"]["addresses"], root) == ("table", address)


def test_resolve_follows_refs_and_gives_an_empty_schema_for_an_unknown_name():
    root = {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"type": "string"}}}
    assert resolve({"$ref": "#/$defs/A"}, root) == {"type": "string"}
    assert resolve({"$ref": "#/$defs/Missing"}, root) == {}
    assert resolve({"type": "integer"}, root) == {"type": "integer"}
