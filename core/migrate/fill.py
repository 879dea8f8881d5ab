"""A value for a field stored threads lack: read off its schema, accepted by Pydantic itself."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Annotated, Any, get_args

from pydantic import BaseModel, PydanticUserError, TypeAdapter, ValidationError

from core.migrate.plan import split_path
from core.migrate.schemas import Schema

__all__ = ["field_adapter", "fill_value"]


def field_adapter(model: type[BaseModel], path: str) -> TypeAdapter[Any] | None:
    """A validator for the field at `path` of `model`: its annotation with its Field()
    constraints. None where the path passes through anything but one model class per step.

    Example:
        >>> from core.order import AgentState
        >>> field_adapter(AgentState, "items[*].qty").validate_python(3)
        3
    """
    names = [part for part in split_path(path) if part != "[*]"]
    owner: Any = model
    for depth, name in enumerate(names):
        fields = getattr(owner, "__pydantic_fields__", None)  # models and Pydantic dataclasses
        if not isinstance(fields, dict) or name not in fields:
            return None
        field = fields[name]
        if depth == len(names) - 1:
            annotated: Any = Annotated[field.annotation, field]  # the Field()'s constraints too
            try:
                return TypeAdapter(annotated)
            except PydanticUserError:  # a type Pydantic builds only inside its model's config
                return None
        owner = _one_model(field.annotation)
    return None


def fill_value(schema: Schema, adapter: TypeAdapter[Any] | None) -> tuple[Any, str] | None:
    """The first value the field's schema suggests that `adapter` validates, and where it
    came from (examples first, then allowed values, then the plainest value of its type).
    None when there is no adapter to check with, or nothing safe to make up (a pattern).

    Example:
        >>> from pydantic import TypeAdapter
        >>> fill_value({"type": "integer", "minimum": 1}, TypeAdapter(int))
        (1, 'the value nearest 0 its bounds allow')
        >>> fill_value({"type": "string", "pattern": "^[A-Z]+$"}, TypeAdapter(str)) is None
        True
    """
    if adapter is None:
        return None
    for value, source in _candidates(schema):
        try:
            adapter.validate_python(value)
        except ValidationError:
            continue
        return value, source
    return None


def _one_model(annotation: Any) -> Any:
    """The one class with fields inside `list[X]`, `X | None`, `Annotated[X, ...]`."""
    found: list[Any] = []
    pending = [annotation]
    while pending:
        current = pending.pop()
        if isinstance(current, type) and hasattr(current, "__pydantic_fields__"):
            found.append(current)
        else:
            pending.extend(arg for arg in get_args(current) if arg is not None)
    return found[0] if len(found) == 1 else None


def _candidates(schema: Schema) -> Iterator[tuple[Any, str]]:
    examples = schema["examples"] if isinstance(schema.get("examples"), list) else []
    for index, example in enumerate(examples):
        yield example, "its first example" if index == 0 else "an example its schema gives"
    if "const" in schema:
        yield schema["const"], "its only allowed value"
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        yield schema["enum"][0], "the first of its allowed values"
    options: list[Any] = schema.get("anyOf") or schema.get("oneOf") or []
    if {"type": "null"} in options or schema.get("type") == "null":
        yield None, "it accepts None"
    for option in options:
        yield from _candidates(option)
    kind = schema.get("type")
    if kind in ("integer", "number"):
        yield from _numbers(schema, integer=kind == "integer")
    elif kind == "boolean":
        yield False, "False"
    elif (
        kind == "string" and not schema.get("minLength") and not {"pattern", "format"} & set(schema)
    ):
        yield "", "an empty string"
    elif kind == "array" and not schema.get("minItems"):
        yield [], "an empty list"
    elif kind == "object" and isinstance(schema.get("properties"), dict):
        yield from _object(schema)
    elif kind == "object" and not schema.get("minProperties"):
        yield {}, "an empty object"


def _numbers(schema: Schema, *, integer: bool) -> Iterator[tuple[Any, str]]:
    """0, or the bound nearest it (an exclusive bound stepped inward by 1); for floats then
    the middle of two bounds."""
    low = max(schema.get("minimum", -math.inf), schema.get("exclusiveMinimum", -math.inf) + 1)
    high = min(schema.get("maximum", math.inf), schema.get("exclusiveMaximum", math.inf) - 1)
    value = min(max(0, low), high)
    if math.isfinite(value):
        value = (math.ceil(value) if value == low else math.floor(value)) if integer else value
        yield (int(value) if integer else float(value)), "the value nearest 0 its bounds allow"
    lows = [schema[key] for key in ("minimum", "exclusiveMinimum") if key in schema]
    highs = [schema[key] for key in ("maximum", "exclusiveMaximum") if key in schema]
    if lows and highs and not integer:
        yield (max(lows) + min(highs)) / 2, "the middle of its bounds"


def _object(schema: Schema) -> Iterator[tuple[Any, str]]:
    """Its required fields, each filled the first way its schema suggests."""
    value = {}
    for name in schema.get("required", ()):
        first = next(_candidates(schema["properties"].get(name, {})), None)
        if first is None:
            return
        value[name] = first[0]
    yield value, "its required fields filled from their schemas"
