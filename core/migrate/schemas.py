"""A state's JSON schema as Pydantic validates it: references inlined, compared by meaning."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue

__all__ = ["Schema", "deref", "inline", "same_shape", "split_null", "state_schema"]

Schema = dict[str, Any]

# What a JSON schema says only for people: left out when two schemas are compared.
_COSMETIC = frozenset({"title", "description", "examples", "default", "deprecated", "$comment"})
_NAMED = frozenset({"properties", "$defs", "patternProperties"})  # the keys below are names
_NULL = {"type": "null"}


class _Schemas(GenerateJsonSchema):
    """Pydantic's own generator, naming a type that has no JSON schema instead of refusing."""

    def handle_invalid_for_json_schema(self, schema: Any, error_info: str) -> JsonSchemaValue:
        return {"x-python": error_info}

    def emit_warning(self, kind: Any, detail: str) -> None:
        """Defaults JSON cannot hold are not compared: no warning to give."""


def state_schema(model: type[BaseModel]) -> Schema:
    """The JSON schema Pydantic validates `model` by, keyed by field name as LangGraph
    stores a state (not by alias); a type with no JSON schema appears as `x-python`.

    Example:
        >>> from core.order import AgentState
        >>> state_schema(AgentState)["properties"]["amount"]
        {'maximum': 1000000, 'minimum': 0, 'title': 'Amount', 'type': 'number'}
    """
    return model.model_json_schema(by_alias=False, schema_generator=_Schemas, mode="validation")


def deref(schema: Schema, defs: Schema) -> tuple[Schema, str]:
    """A `$ref` (or a one-element `allOf`) replaced by its definition, and the name it had.

    Example:
        >>> deref({"$ref": "#/$defs/Item", "title": "Items"}, {"Item": {"type": "object"}})
        ({'type': 'object', 'title': 'Items'}, 'Item')
    """
    if isinstance(schema.get("allOf"), list) and len(schema["allOf"]) == 1:
        rest = {key: value for key, value in schema.items() if key != "allOf"}
        schema = {**schema["allOf"][0], **rest}
    ref = schema.get("$ref")
    if not isinstance(ref, str) or not ref.startswith("#/$defs/"):
        return schema, ""
    name = ref.removeprefix("#/$defs/")
    rest = {key: value for key, value in schema.items() if key != "$ref"}
    return {**defs.get(name, {}), **rest}, name


def split_null(schema: Schema) -> tuple[Schema, bool]:
    """`X | None` as X, and whether None validates.

    Example:
        >>> split_null({"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None})
        ({'type': 'integer', 'default': None}, True)
    """
    options = schema.get("anyOf")
    if not isinstance(options, list) or _NULL not in options:
        return schema, schema.get("type") == "null"
    rest = [option for option in options if option != _NULL]
    kept = {key: value for key, value in schema.items() if key != "anyOf"}
    return ({**rest[0], **kept} if len(rest) == 1 else {**kept, "anyOf": rest}), True


def inline(schema: Schema, defs: Schema) -> Schema:
    """The schema with every `$ref` replaced by its definition (a model inside itself stays
    a reference), so it stands alone.

    Example:
        >>> inline({"items": {"$ref": "#/$defs/Id"}}, {"Id": {"type": "integer"}})
        {'items': {'type': 'integer'}}
    """
    inlined: Schema = _inline(schema, defs, ())
    return inlined


def same_shape(old: Schema, new: Schema) -> bool:
    """Whether two inlined schemas accept the same values (titles, examples, defaults aside).

    Example:
        >>> same_shape({"type": "string", "title": "Logs"}, {"type": "string", "default": ""})
        True
    """
    return bool(_bare(old) == _bare(new))


def _inline(value: Any, defs: Schema, stack: tuple[str, ...]) -> Any:
    if isinstance(value, list):
        return [_inline(item, defs, stack) for item in value]
    if not isinstance(value, dict):
        return value
    ref = value.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        if name in stack:
            return value
        return _inline(deref(value, defs)[0], defs, (*stack, name))
    return {
        key: {name: _inline(sub, defs, stack) for name, sub in item.items()}
        if key in _NAMED
        else _inline(item, defs, stack)
        for key, item in value.items()
        if key != "$defs"
    }


def _bare(value: Any) -> Any:
    if isinstance(value, list):
        return [_bare(item) for item in value]
    if not isinstance(value, dict):
        return value
    bare = {
        key: {name: _bare(sub) for name, sub in item.items()} if key in _NAMED else _bare(item)
        for key, item in value.items()
        if key not in _COSMETIC
    }
    if isinstance(bare.get("required"), list):
        bare["required"] = sorted(bare["required"])
    return bare
