"""Plain-words lint of a tool model's JSON Schema: what an LLM will find unclear or refuse."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, PydanticInvalidForJsonSchema

if TYPE_CHECKING:  # an annotation only: the tool lab never loads core.validate for it
    from core.validate.json_schema import JsonSchema

__all__ = ["Finding", "lint_model", "lint_schema", "ref_paths", "walk_schema"]

# Keywords that give a node a type; a node with none of them accepts anything.
_TYPED = ("type", "$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not")
_MAX_PATHS = 50


@dataclass(frozen=True)
class Finding:
    """One lint finding: a stable code, where in the schema, what is wrong and the fix."""

    code: str
    where: str
    message: str
    fix: str


def lint_model(model: type[BaseModel]) -> list[Finding]:
    """Lint the JSON Schema Pydantic generates for `model` (or say why there is none).

    Example:
        >>> from pydantic import BaseModel
        >>> class Tool(BaseModel):
        ...     x: int
        >>> [f.code for f in lint_model(Tool)]
        ['missing_description']
    """
    try:
        schema = model.model_json_schema()
    except PydanticInvalidForJsonSchema as exc:
        return [
            Finding(
                "no_json_schema",
                "(model)",
                f"Pydantic cannot describe {model.__name__} as JSON Schema: "
                f"{str(exc).splitlines()[0]}",
                "Give the custom type a __get_pydantic_json_schema__ hook (or build its core "
                "schema from JSON-describable parts), or use a standard type.",
            )
        ]
    return lint_schema(schema)


def lint_schema(schema: JsonSchema) -> list[Finding]:
    """Lint a JSON Schema: missing descriptions, open objects, untyped values, unions, cycles.

    Example:
        >>> [f.code for f in lint_schema({"type": "object", "additionalProperties": True})]
        ['open_additional_properties', 'untyped_any']
    """
    defs = schema.get("$defs", {})
    findings: list[Finding] = []
    for pointer, node in walk_schema(schema):
        findings += _object_findings(pointer, node, defs)
        findings += _union_findings(pointer, node)
    for path in ref_paths(schema):
        if len(path) > 1 and path[-1] in path[:-1]:
            findings.append(
                Finding(
                    "recursive_model",
                    f"/$defs/{path[-1]}",
                    f"{path[-1]} refers back to itself ({' -> '.join(path)}): the schema can only "
                    "be written with a $ref cycle, which some providers cannot inline.",
                    "Cap the depth with a non-recursive model per level, or send the tree flat "
                    "(a list of nodes with parent ids).",
                )
            )
    return findings


def walk_schema(schema: Any, pointer: str = "") -> Iterator[tuple[str, JsonSchema]]:
    """Every schema object in `schema` with its JSON pointer, `$defs` included, refs not followed.

    Example:
        >>> [p for p, _ in walk_schema({"type": "array", "items": {"type": "string"}})]
        ['', '/items']
    """
    if not isinstance(schema, dict):
        return
    yield pointer, schema
    for key in ("properties", "$defs", "patternProperties"):
        for name, sub in (schema.get(key) or {}).items():
            yield from walk_schema(sub, f"{pointer}/{key}/{_escape(name)}")
    for key in ("items", "additionalProperties", "not"):
        yield from walk_schema(schema.get(key), f"{pointer}/{key}")
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        for index, sub in enumerate(schema.get(key) or []):
            yield from walk_schema(sub, f"{pointer}/{key}/{index}")


def ref_paths(schema: JsonSchema) -> list[list[str]]:
    """Every chain of `$defs` references from the root, each ending at a leaf or a repeat.

    The root is named by its `title`. A chain whose last name appears earlier is a cycle.

    Example:
        >>> ref_paths({"title": "T", "properties": {"a": {"$ref": "#/$defs/A"}},
        ...            "$defs": {"A": {"properties": {"b": {"$ref": "#/$defs/A"}}}}})
        [['T', 'A', 'A']]
    """
    defs = schema.get("$defs", {})
    root = {k: v for k, v in schema.items() if k != "$defs"}
    graph = {name: _refs_in(sub) for name, sub in defs.items()}
    paths: list[list[str]] = []

    def extend(path: list[str], targets: list[str]) -> None:
        if len(paths) >= _MAX_PATHS:
            return
        if not targets or path[-1] in path[:-1]:
            paths.append(path)
            return
        for target in targets:
            extend([*path, target], graph.get(target, []))

    extend([str(schema.get("title", "root"))], _refs_in(root))
    return paths


def _object_findings(pointer: str, node: JsonSchema, defs: dict[str, Any]) -> list[Finding]:
    findings = []
    for name, prop in (node.get("properties") or {}).items():
        where = f"{pointer}/properties/{_escape(name)}"
        if not _described(prop, defs):
            findings.append(
                Finding(
                    "missing_description",
                    where,
                    f"'{name}' has no description: the model must guess what to put there "
                    "from the name alone.",
                    f"Add Field(description=\"...\") to '{name}'.",
                )
            )
        if isinstance(prop, dict) and not any(key in prop for key in _TYPED):
            findings.append(_untyped(where, f"'{name}' accepts any JSON value (typed Any)."))
    extra = node.get("additionalProperties")
    if extra is True or isinstance(extra, dict):
        findings.append(
            Finding(
                "open_additional_properties",
                pointer or "/",
                "This object accepts keys nobody declared (additionalProperties is open), so "
                "a misspelt or invented key passes unchecked.",
                "Model the keys as fields, or forbid extras: ConfigDict(extra='forbid').",
            )
        )
        if extra is True or not any(key in extra for key in _TYPED):
            findings.append(
                _untyped(f"{pointer}/additionalProperties", "Its extra values can be anything.")
            )
    items = node.get("items")
    if node.get("type") == "array" and (items in (None, True) or items == {}):
        findings.append(_untyped(f"{pointer}/items", "The list's items can be anything."))
    return findings


def _union_findings(pointer: str, node: JsonSchema) -> list[Finding]:
    members = node.get("anyOf") or node.get("oneOf") or []
    real = [m for m in members if m != {"type": "null"}]
    if len(real) < 2 or "discriminator" in node or not all(_is_object(m) for m in real):
        return []
    return [
        Finding(
            "union_without_discriminator",
            pointer,
            f"A union of {len(real)} object shapes without a discriminator: Pydantic tries each "
            "and keeps the best match, silently dropping keys of the others.",
            'Give every member a Literal tag field and use Field(discriminator="tag").',
        )
    ]


def _untyped(where: str, what: str) -> Finding:
    return Finding(
        "untyped_any",
        where,
        f"{what} Nothing is validated there, and strict providers reject untyped values.",
        "Replace Any with the real type (a model, a Literal, a typed list or dict).",
    )


def _described(prop: Any, defs: dict[str, Any]) -> bool:
    if not isinstance(prop, dict):
        return True  # a boolean schema has nothing to describe
    if prop.get("description"):
        return True
    ref = prop.get("$ref", "")
    target = defs.get(ref.removeprefix("#/$defs/"), {}) if ref.startswith("#/$defs/") else {}
    return bool(target.get("description"))


def _is_object(member: Any) -> bool:
    return isinstance(member, dict) and (member.get("type") == "object" or "$ref" in member)


def _refs_in(node: Any) -> list[str]:
    found: list[str] = []
    for _, sub in walk_schema(node):
        ref = sub.get("$ref", "")
        name = ref.removeprefix("#/$defs/")
        if ref.startswith("#/$defs/") and name not in found:
            found.append(name)
    return found


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")
