"""A model's JSON Schema, built once per model class (Pydantic takes tens of ms per call)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any, TypeAlias

from pydantic import BaseModel

from core.jsontext.write import dumps

__all__ = ["JsonSchema", "field_kind", "json_schema", "json_schema_text", "resolve"]

JsonSchema: TypeAlias = dict[str, Any]  # a JSON Schema document or one of its nodes


@lru_cache(maxsize=64)  # keyed by model class: server-side models, never user data
def json_schema_text(model: type[BaseModel]) -> str:
    """The model's JSON Schema as indented JSON text.

    Example:
        >>> from core.order import LineItem
        >>> json.loads(json_schema_text(LineItem))["required"]
        ['sku', 'qty', 'unit_price']
    """
    return dumps(model.model_json_schema(), indent=2)


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A fresh copy of the model's JSON Schema (safe to modify).

    Example:
        >>> from core.order import LineItem
        >>> json_schema(LineItem)["title"]
        'LineItem'
    """
    schema: dict[str, Any] = json.loads(json_schema_text(model))
    return schema


def resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """`node` with its `$ref`s into `root["$defs"]` followed (an unknown name gives {}).

    Example:
        >>> root = {"$defs": {"Item": {"type": "object"}}}
        >>> resolve({"$ref": "#/$defs/Item"}, root)
        {'type': 'object'}
    """
    while "$ref" in node:
        node = root.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    return node


def field_kind(node: dict[str, Any], root: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """How a form edits a field: (kind, its resolved schema).

    The kinds: "choice" (an enum, a const or a boolean), "text" (a string), "object" (an
    object with properties: its own fields), "table" (an array of such objects; the schema
    returned is the item's) and "json" (anything else, edited as JSON text). An optional
    field (a union with null) is the kind of its other branch.

    Example:
        >>> from core.order import AgentState
        >>> root = json_schema(AgentState)
        >>> field_kind(root["properties"]["items"], root)[0]
        'table'
    """
    node = resolve(node, root)
    branches = [resolve(b, root) for b in node.get("anyOf", node.get("oneOf", []))]
    real = [b for b in branches if b.get("type") != "null"]
    if branches and len(real) == 1:
        return field_kind(real[0], root)
    if branches:
        return "json", node  # e.g. Decimal: a number or a numeric string
    if "enum" in node or "const" in node or node.get("type") == "boolean":
        return "choice", node
    if node.get("type") == "string":
        return "text", node
    if node.get("type") == "object" and "properties" in node:
        return "object", node
    items = resolve(node.get("items", {}), root) if node.get("type") == "array" else {}
    if items.get("type") == "object" and "properties" in items:
        return "table", items
    return "json", node
