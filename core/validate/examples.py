"""Example payloads for any model: its own `json_schema_extra` examples, else a generated one."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from core.errors import CodedError, ErrorCode
from core.order.presets import Preset
from core.validate.json_schema import json_schema, resolve
from core.validate.pattern_sample import sample_pattern

__all__ = ["HUMAN_MESSAGE", "Example", "ExampleError", "example_payload", "model_examples"]

_MAX_DEPTH = 6  # recursive models: below this, optional fields are left out
_FORMATS = {
    "uuid": "550e8400-e29b-41d4-a716-446655440000",
    "date": "2024-01-31",
    "date-time": "2024-01-31T12:00:00Z",
    "time": "12:00:00",
    "duration": "P1D",
    "email": "user@example.com",
    "uri": "https://example.com/",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
}
# A langchain message list (`list[AnyMessage]`) gets one human message, written as a person
# would: the schema's other fields (id, name, metadata) are optional noise in an example.
HUMAN_MESSAGE = {"type": "human", "content": "Hello"}


class ExampleError(CodedError, ValueError):
    """No valid example could be built for a model (code: no_example)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.NO_EXAMPLE, message)


Example = Preset  # a model's gallery entry: the one Preset shape, its value the payload


def model_examples(model: type[BaseModel]) -> dict[str, Preset[Any]]:
    """The model's own `examples` (from `json_schema_extra`), else one generated example.

    Example:
        >>> from core.order import LineItem
        >>> model_examples(LineItem)["generated"].value
        {'sku': 'AAA', 'qty': 1, 'unit_price': 1}
    """
    schema = json_schema(model)
    given = schema.get("examples")
    if isinstance(given, list) and given:
        return {
            f"example_{n}": Preset(f"Example {n}", f"from {model.__name__}'s examples", value)
            for n, value in enumerate(given, start=1)
        }
    payload = example_payload(model)
    return {"generated": Preset("Generated example", "built from the JSON Schema", payload)}


def example_payload(model: type[BaseModel]) -> dict[str, Any]:
    """A payload `model` accepts, built from its JSON Schema and checked against the model.

    Required fields always; each optional field only when the payload still validates with it.

    Raises:
        ExampleError: even the required fields could not be filled validly.

    Example:
        >>> from core.order import AgentState
        >>> sorted(example_payload(AgentState))
        ['amount', 'items', 'logs', 'messages', 'status', 'user_id']
        >>> example_payload(AgentState)["messages"]
        [{'type': 'human', 'content': 'Hello'}]
    """
    schema = json_schema(model)
    top = resolve(schema, schema)  # a recursive model's schema is a $ref into $defs
    props = top.get("properties", {})
    required = set(top.get("required", []))
    payload = {k: _value(v, schema, 0) for k, v in props.items() if k in required}
    if not _valid(model, payload):
        raise ExampleError(
            f"could not build a valid example for {model.__name__}; add "
            'model_config = ConfigDict(json_schema_extra={"examples": [...]}) to the model.'
        )
    for key, sub in props.items():
        if key not in required and not sub.get("readOnly"):
            trial = payload | {key: _value(sub, schema, 0)}
            if _valid(model, trial):
                payload = trial
    return payload


def _valid(model: type[BaseModel], payload: dict[str, Any]) -> bool:
    try:
        model.model_validate_json(json.dumps(payload))  # the editor holds JSON text
    except (ValidationError, TypeError, ValueError):
        return False
    return True


def _value(node: dict[str, Any], root: dict[str, Any], depth: int) -> Any:
    if node.get("default") is not None:  # the model's own choice beats a made-up value
        return node["default"]
    node = resolve(node, root)
    for key in ("examples", "enum"):
        if isinstance(node.get(key), list) and node[key]:
            return node[key][0]
    if "const" in node:
        return node["const"]
    if _is_human_message(node):
        return dict(HUMAN_MESSAGE)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in node:
            branches = [b for b in node[key] if resolve(b, root).get("type") != "null"]
            human = [b for b in branches if _is_human_message(resolve(b, root))]
            return _value((human or branches or node[key])[0], root, depth)
    kind = node.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in node:
        return _object(node, root, depth)
    if kind == "array":
        return _array(node, root, depth)
    if kind in ("integer", "number"):
        return _number(node, kind == "integer")
    if kind == "string":
        return _string(node)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return node.get("default", "example")


def _is_human_message(node: dict[str, Any]) -> bool:
    """Whether `node` (resolved) is langchain's HumanMessage: `type` fixed to "human"."""
    props = node.get("properties", {})
    return "content" in props and props.get("type", {}).get("const") == "human"


def _object(node: dict[str, Any], root: dict[str, Any], depth: int) -> dict[str, Any]:
    required = set(node.get("required", []))
    props = node.get("properties", {})
    keep = [k for k in props if k in required or depth < _MAX_DEPTH]
    return {k: _value(props[k], root, depth + 1) for k in keep}


def _array(node: dict[str, Any], root: dict[str, Any], depth: int) -> list[Any]:
    if "prefixItems" in node:
        return [_value(item, root, depth + 1) for item in node["prefixItems"]]
    count = node.get("minItems", 1 if depth < _MAX_DEPTH else 0)
    count = min(max(count, 0), node.get("maxItems", count))
    return [_value(node.get("items", {}), root, depth + 1) for _ in range(count)]


def _number(node: dict[str, Any], integer: bool) -> int | float:
    step = 1 if integer else 0.5
    low = node.get("minimum", node.get("exclusiveMinimum", None))
    value: float = 1
    if low is not None:
        value = max(value, low + (step if "exclusiveMinimum" in node else 0))
    high = node.get("maximum", node.get("exclusiveMaximum", None))
    if high is not None and value > high - (step if "exclusiveMaximum" in node else 0):
        value = high - (step if "exclusiveMaximum" in node else 0)
    multiple = node.get("multipleOf")
    if multiple:
        value = -(-value // multiple) * multiple
    return int(value) if integer or float(value).is_integer() else value


def _string(node: dict[str, Any]) -> str:
    if node.get("format") in _FORMATS:
        return _FORMATS[node["format"]]
    low: int = node.get("minLength", 0)
    high: int = node.get("maxLength", 64)
    if "pattern" in node:
        sampled = sample_pattern(node["pattern"], low)
        if sampled is not None and low <= len(sampled) <= high:
            return sampled
    text = "example"
    return (text * (low // len(text) + 1))[: max(low, min(len(text), high))]
