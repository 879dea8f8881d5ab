"""The rewrites that turn one JSON Schema into another, `$ref`s followed where they were inlined."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.jsontext.write import clip
from core.words import count

if TYPE_CHECKING:  # an annotation only: the tool lab never loads core.validate for it
    from core.validate.json_schema import JsonSchema

__all__ = ["Rewrite", "diff_schemas"]

_CONSTRAINTS = frozenset(
    "minLength maxLength pattern format minimum maximum exclusiveMinimum exclusiveMaximum "
    "multipleOf minItems maxItems uniqueItems minProperties maxProperties patternProperties "
    "propertyNames contains minContains maxContains unevaluatedItems unevaluatedProperties".split()
)
_DROPPED = {
    "title": "title_dropped",
    "discriminator": "discriminator_dropped",
    "default": "default_dropped",
    "examples": "examples_dropped",
    "$schema": "schema_keyword_dropped",
    "additionalProperties": "additional_properties_dropped",
}
_NAMED = ("properties", "$defs", "patternProperties")
_SINGLE = ("items", "additionalProperties", "not")
_LISTED = ("anyOf", "oneOf", "allOf", "prefixItems")


@dataclass(frozen=True)
class Rewrite:
    """One change a transformer made: stable `kind`, `where` (pointer in its output), `detail`."""

    kind: str
    where: str
    detail: str


def diff_schemas(before: JsonSchema, after: JsonSchema) -> list[Rewrite]:
    """Every rewrite that turns `before` into `after`, `$ref`s followed where they were inlined.

    Example:
        >>> before = {"oneOf": [{"type": "string"}], "title": "T"}
        >>> [r.kind for r in diff_schemas(before, {"anyOf": [{"type": "string"}]})]
        ['oneOf_to_anyOf', 'title_dropped']
    """
    return _diff(before, after, "", before.get("$defs", {}))


def _diff(before: Any, after: Any, where: str, defs: dict[str, Any]) -> list[Rewrite]:
    if after is _ABSENT:
        return [Rewrite("subschema_dropped", where, f"{_short(before)} removed")]
    if before is _ABSENT:
        return [Rewrite("subschema_added", where, _short(after))]
    if not isinstance(before, dict) or not isinstance(after, dict):
        same = before == after
        return (
            []
            if same
            else [Rewrite("changed", where or "/", f"{_short(before)} -> {_short(after)}")]
        )
    out: list[Rewrite] = []
    before, out = _structural(dict(before), after, where or "/", defs)
    for key in [*before, *(k for k in after if k not in before)]:
        old, new = before.get(key, _ABSENT), after.get(key, _ABSENT)
        at = f"{where}/{key}"
        if key in _NAMED and isinstance(old, dict) and isinstance(new, dict):
            for name in [*old, *(n for n in new if n not in old)]:
                out += _diff(old.get(name, _ABSENT), new.get(name, _ABSENT), f"{at}/{name}", defs)
        elif key in _SINGLE and isinstance(old, dict) and isinstance(new, dict):
            out += _diff(old, new, at, defs)
        elif key in _LISTED and isinstance(old, list) and isinstance(new, list):
            if len(old) == len(new):
                for index, (a, b) in enumerate(zip(old, new, strict=True)):
                    out += _diff(a, b, f"{at}/{index}", defs)
            else:
                members = f"{count(len(old), 'member')} -> {count(len(new), 'member')}"
                out.append(Rewrite("members_changed", at, members))
        elif old != new:
            out += _keyword(key, old, new, before, after, where or "/")
    return out


def _structural(
    before: JsonSchema, after: JsonSchema, where: str, defs: dict[str, Any]
) -> tuple[JsonSchema, list[Rewrite]]:
    """Undo the shape changes (nullable, ref moves, inlining, union renames) so keywords line up."""
    out = []
    members = before.get("anyOf")
    if after.get("nullable") is True and isinstance(members, list) and {"type": "null"} in members:
        rest = [m for m in members if m != {"type": "null"}]
        if len(rest) == 1 and isinstance(rest[0], dict):
            out.append(Rewrite("nullable", where, "anyOf [X, null] became X with nullable: true"))
            before = {**{k: v for k, v in before.items() if k != "anyOf"}, **rest[0]}
            before["nullable"] = True
    ref = before.get("$ref")
    if ref and "$ref" in after and after["$ref"] != ref:
        out.append(Rewrite("ref_to_root", where, f"$ref {ref} -> {after['$ref']}"))
        before["$ref"] = after["$ref"]
    elif ref and "$ref" not in after:
        wrapped = after.get("anyOf")
        name = ref.removeprefix("#/$defs/")
        if isinstance(wrapped, list) and len(wrapped) == 1 and "$ref" in wrapped[0]:
            out.append(
                Rewrite(
                    "ref_wrapped", where, f"$ref {ref} moved into anyOf: it had sibling keywords"
                )
            )
            before["anyOf"] = [{"$ref": before.pop("$ref")}]
        elif ref.startswith("#/$defs/") and name in defs:
            out.append(Rewrite("ref_inlined", where, f"$ref {ref} replaced by its definition"))
            before = {**defs[name], **{k: v for k, v in before.items() if k != "$ref"}}
    if "oneOf" in before and "oneOf" not in after and "anyOf" in after:
        out.append(Rewrite("oneOf_to_anyOf", where, "oneOf became anyOf"))
        before["anyOf"] = before.pop("oneOf")
    if "$defs" in before and "$defs" not in after:
        out.append(Rewrite("defs_inlined", where, f"$defs removed: {', '.join(before['$defs'])}"))
        before.pop("$defs")
    return before, out


def _keyword(
    key: str, old: Any, new: Any, before: JsonSchema, after: JsonSchema, where: str
) -> list[Rewrite]:
    text = str(after.get("description", ""))
    if new is _ABSENT:
        if key in _CONSTRAINTS:
            moved = f"{key}={old}" in text or f"format: {old}" in text or f"Format: {old}" in text
            kind = "constraint_to_description" if moved else "constraint_dropped"
            return [Rewrite(kind, where, f"{key}={old}")]
        if key == "const" and after.get("enum") == [old]:
            return [Rewrite("const_to_enum", where, f"const {old!r} -> enum [{old!r}]")]
        kind = _DROPPED.get(key, "keyword_dropped")
        return [Rewrite(kind, where, f"{key} {_short(old)} removed")]
    if key == "additionalProperties" and new is False:
        detail = f"{_short(old)} -> false"
        if old is not _ABSENT and not after.get("properties"):
            detail += "; no declared properties, so only {} is accepted"
        return [Rewrite("additional_properties_closed", where, detail)]
    if key == "required":
        added = [name for name in new if name not in (old if old is not _ABSENT else [])]
        detail = f"now required: {', '.join(added)}" if added else "required: [] added"
        return [Rewrite("required_added", where, detail)]
    if key == "description" and any(k in before and k not in after for k in _CONSTRAINTS):
        return []  # reported as constraint_to_description
    if key == "enum" and "const" in before and "const" not in after:
        return []  # reported as const_to_enum
    if key == "nullable":
        return []  # reported by _structural
    if old is _ABSENT:
        return [Rewrite(f"{key}_added", where, f"{key} = {_short(new)}")]
    return [Rewrite(f"{key}_changed", where, f"{_short(old)} -> {_short(new)}")]


def _short(value: Any) -> str:
    text = "(absent)" if value is _ABSENT else repr(value)
    return clip(text, 80)


class _Absent:
    def __repr__(self) -> str:
        return "(absent)"


_ABSENT = _Absent()
