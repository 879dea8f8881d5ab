"""What changed between a model's JSON schema and a candidate's, field by field."""

from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Literal

from core.migrate.schemas import Schema, deref, inline, same_shape, split_null

__all__ = ["PRIMITIVES", "Change", "Kind", "schema_changes"]

Kind = Literal[
    "added", "removed", "required", "members", "retyped", "narrowed", "changed", "recursive"
]

# Constraints as Pydantic's Field() spells them; a larger lower bound, a smaller upper one,
# or any other value than before narrows what validates.
_LOWER = {
    "minimum": "ge",
    "exclusiveMinimum": "gt",
    "minLength": "min_length",
    "minItems": "min_length",
    "minProperties": "min_length",
}
_UPPER = {
    "maximum": "le",
    "exclusiveMaximum": "lt",
    "maxLength": "max_length",
    "maxItems": "max_length",
    "maxProperties": "max_length",
}
_EXACT = {
    "pattern": "pattern",
    "format": "format",
    "multipleOf": "multiple_of",
    "uniqueItems": "unique items",
    "enum": "one of",
    "const": "only",
}
_CONSTRAINTS = frozenset(_LOWER) | frozenset(_UPPER) | frozenset(_EXACT)
PRIMITIVES = ("integer", "number", "string", "boolean")
_NO_NONE = "None no longer accepted"


@dataclass(frozen=True)
class Change:
    """One difference at `path` (dotted field names, `[*]` for every element of a list).

    `old` and `new` are the field's schemas with every `$ref` inlined (`{}` on the side the
    field is missing from); `detail` names what narrowed or changed, in Field() words.
    """

    path: str
    kind: Kind
    old: Schema
    new: Schema
    detail: tuple[str, ...] = ()
    required: bool = False  # added: the candidate requires it
    forbids_extra: bool = False  # removed: the candidate's object refuses keys it lacks


def schema_changes(old: Schema, new: Schema) -> list[Change]:
    """Every change from `old` to `new`, walking objects with properties and list items.

    Example:
        >>> old = {"properties": {"qty": {"type": "integer"}}, "type": "object"}
        >>> new = {"properties": {"qty": {"type": "string"}}, "type": "object"}
        >>> [(c.path, c.kind) for c in schema_changes(old, new)]
        [('qty', 'retyped')]
    """
    walk = _Walk(old.get("$defs", {}), new.get("$defs", {}))
    walk.node("", old, new, {})
    for outer, inner in walk.loops:  # a model inside itself, with a change somewhere below
        if any(change.path.startswith(outer) for change in walk.changes):
            walk.changes.append(Change(inner, "recursive", {}, {}))
    return walk.changes


class _Walk:
    def __init__(self, old_defs: Schema, new_defs: Schema) -> None:
        self.defs = (old_defs, new_defs)
        self.changes: list[Change] = []
        self.loops: list[tuple[str, str]] = []  # where a model was entered, where again

    def node(self, path: str, old: Schema, new: Schema, seen: dict[tuple[str, str], str]) -> None:
        (old, old_ref), (new, new_ref) = deref(old, self.defs[0]), deref(new, self.defs[1])
        (old, old_null), (new, new_null) = split_null(old), split_null(new)
        (old, old_inner), (new, new_inner) = deref(old, self.defs[0]), deref(new, self.defs[1])
        refs = (old_ref or old_inner, new_ref or new_inner)
        if refs[0] and refs[1]:
            if refs in seen:  # a model that holds itself: no plan path reaches every level
                self.loops.append((seen[refs], path))
                return
            seen = {**seen, refs: path}
        lost_null = (_NO_NONE,) if old_null and not new_null else ()
        if "properties" in old and "properties" in new:
            self.narrowed(path, lost_null)
            self.fields(path, old, new, seen)
        elif "items" in old and "items" in new and old.get("type") == new.get("type") == "array":
            self.narrowed(path, lost_null + _narrowings(old, new))
            self.node(f"{path}[*]", old["items"], new["items"], seen)
        else:
            # an Enum class (a $defs entry) is stored as its members, not their values
            classed = bool(refs[0]) and refs[0] != refs[1] and _members(old) is not None
            self.leaf(path, old, new, bool(lost_null), classed)

    def fields(self, path: str, old: Schema, new: Schema, seen: dict[tuple[str, str], str]) -> None:
        olds, news = old["properties"], new["properties"]
        old_required, new_required = set(old.get("required", ())), set(new.get("required", ()))
        for name, schema in olds.items():
            where = f"{path}.{name}" if path else name
            if name not in news:
                forbids = new.get("additionalProperties") is False
                self.add(where, "removed", schema, None, forbids_extra=forbids)
                continue
            if name in new_required and name not in old_required:
                self.add(where, "required", schema, news[name])
            self.node(where, schema, news[name], seen)
        for name, schema in news.items():
            if name not in olds:
                where = f"{path}.{name}" if path else name
                self.add(where, "added", None, schema, required=name in new_required)

    def leaf(self, path: str, old: Schema, new: Schema, lost_null: bool, classed: bool) -> None:
        """`classed`: the old values are an Enum class's members and the new type is another
        (a Literal of the same values, say): a `members` change even with every value kept,
        for the proposal to check how each stored member validates."""
        narrowed: tuple[str, ...] = (_NO_NONE,) if lost_null else ()
        old_type, new_type = old.get("type"), new.get("type")
        old_members, new_members = _members(old), _members(new)
        if same_shape(self.inline(old, 0), self.inline(new, 1)):
            if classed:
                self.add(path, "members", old, new)
        elif old_members is not None and new_members is not None:
            if classed or any(member not in new_members for member in old_members):
                self.add(path, "members", old, new)
        elif old_type != new_type and {old_type, new_type} <= set(PRIMITIVES):
            if (old_type, new_type) != ("integer", "number"):  # every int validates as a float
                self.add(path, "retyped", old, new)
            narrowed += _narrowings(old if new_type == "number" else {}, new)
        elif same_shape(self.inline(_free(old), 0), self.inline(_free(new), 1)):
            narrowed += _narrowings(old, new)
        else:
            self.add(path, "changed", old, new, detail=(_summary(old), _summary(new)))
        self.narrowed(path, narrowed)

    def narrowed(self, path: str, detail: tuple[str, ...]) -> None:
        if detail:
            self.changes.append(Change(path, "narrowed", {}, {}, detail))

    def add(
        self,
        path: str,
        kind: Kind,
        old: Schema | None,
        new: Schema | None,
        detail: tuple[str, ...] = (),
        **flags: bool,
    ) -> None:
        old_inline = {} if old is None else self.inline(old, 0)
        new_inline = {} if new is None else self.inline(new, 1)
        self.changes.append(Change(path, kind, old_inline, new_inline, detail, **flags))

    def inline(self, schema: Schema, side: int) -> Schema:
        return inline(schema, self.defs[side])


def _free(schema: Schema) -> Schema:
    """The schema without its constraints: what is left says which type it is."""
    return {key: value for key, value in schema.items() if key not in _CONSTRAINTS}


def _members(schema: Schema) -> list[Any] | None:
    if "const" in schema:
        return [schema["const"]]
    return list(schema["enum"]) if isinstance(schema.get("enum"), list) else None


def _narrowings(old: Schema, new: Schema) -> tuple[str, ...]:
    """What `new` refuses that `old` accepted, one `word: old -> new` each."""
    said: list[str] = []
    for keys, tighter in ((_LOWER, operator.lt), (_UPPER, operator.gt)):
        for key, word in keys.items():
            if key in new and (key not in old or tighter(old[key], new[key])):
                said.append(f"{word}: {_shown(old, key)} -> {_shown(new, key)}")
    for key, word in _EXACT.items():
        if key in new and new[key] != old.get(key):
            said.append(f"{word}: {_shown(old, key)} -> {_shown(new, key)}")
    return tuple(said)


def _shown(schema: Schema, key: str) -> str:
    return repr(schema[key]) if key in schema else "none"


def _summary(schema: Schema) -> str:
    if "x-python" in schema:
        return str(schema["x-python"])
    if "anyOf" in schema or "oneOf" in schema:
        return "a union"
    kind = schema.get("type")
    return str(kind) if kind else ("one of several values" if "enum" in schema else "any value")
