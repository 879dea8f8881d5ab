"""How one plan step rewrites a state: standard library only, so an export can copy it whole."""

from __future__ import annotations

import copy
import datetime
import enum
import functools
import math
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

__all__ = ["plain_fields", "rewrite"]

EVERY = "[*]"  # the path segment for every element of a list
# a number as JSON writes it: what coerce reads from a string
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_MAX_DIGITS = 4300  # Python's own limit between int and str


def plain_fields(node: Any) -> dict[str, Any] | None:
    """The fields of a JSON object (the dict itself); None for anything else."""
    return node if isinstance(node, dict) else None


def rewrite(
    state: Any,
    path: str,
    action: str,
    *,
    value: Any = None,
    from_: Any = None,
    to: Any = None,
    fields: Callable[[Any], dict[str, Any] | None] = plain_fields,
) -> tuple[Any, list[str]]:
    """The state after one step, and the concrete paths it changed ("items.0.sku").

    `path` is dotted field names, "[*]" after one for every element of that list. `action`:
    "default" sets `value` where the field is missing; "drop" removes the field; "map"
    replaces a value equal to `from_` (1 equals 1.0, never true; a value as JSON writes it: an
    Enum member as its value, a date as ISO text, a model as its data) by `to`; "rename"
    moves the field to the name `to` unless that name is taken; "coerce" converts the value
    to the type `to` (int, float, str, bool) only when it reads back the same ("3" -> 3,
    3.0 -> 3, "2.5" -> 2.5, 3 -> "3", "true" -> True). At a list's elements only map and
    coerce act.

    The input is never changed: what the step changes is copied, the rest shared. A path
    whose parent is missing or not an object (`fields` returns None) or list is skipped.

    Example:
        >>> state = {"items": [{"sku": "a"}, {"qty": 1}], "status": "shipped"}
        >>> rewrite(state, "items[*].sku", "rename", to="code")
        ({'items': [{'code': 'a'}, {'qty': 1}], 'status': 'shipped'}, ['items.0.sku'])
        >>> rewrite(state, "status", "map", from_="shipped", to="done")[0]["status"]
        'done'
    """
    changed: list[str] = []
    parts = _parts(path)
    return _Step(action, value, from_, to, fields, changed).walk(state, parts, ""), changed


@functools.lru_cache(maxsize=256)  # a plan's few paths, split once, not once per state
def _parts(path: str) -> list[str]:
    return [
        part
        for name in path.split(".")
        for part in ([name[: -len(EVERY)], EVERY] if name.endswith(EVERY) else [name])
    ]


@dataclass(slots=True)  # made once per step and state: plain slots, no frozen setattr
class _Step:
    """One step under way: what it does, and the paths it has changed so far."""

    action: str
    value: Any
    from_: Any
    to: Any
    fields: Callable[[Any], dict[str, Any] | None]
    changed: list[str]

    def walk(self, node: Any, parts: list[str], where: str) -> Any:
        """`node` rewritten along `parts`: the same object when nothing in it changed."""
        name, rest = parts[0], parts[1:]
        if name == EVERY:
            if not isinstance(node, list):
                return node
            items = []
            for index, item in enumerate(node):
                here = f"{where}.{index}"
                items.append(self.walk(item, rest, here) if rest else self.at_element(item, here))
            return node if all(a is b for a, b in zip(items, node, strict=True)) else items
        held = self.fields(node)
        if held is None:
            return node
        here = f"{where}.{name}" if where else name
        if not rest:
            return self.at_field(node, held, name, here)
        if name not in held:
            return node
        after = self.walk(held[name], rest, here)
        return node if after is held[name] else {**held, name: after}

    def at_field(self, node: Any, held: dict[str, Any], name: str, here: str) -> Any:
        """The object holding `name` after the step; `node` itself when it changes nothing."""
        if self.action == "default":
            if name in held:
                return node
            self.changed.append(here)
            return {**held, name: _copy(self.value)}
        if name not in held:
            return node
        if self.action == "drop":
            self.changed.append(here)
            return {key: item for key, item in held.items() if key != name}
        if self.action == "rename":
            if self.to in held:  # the new name is taken (or is this one): keep both
                return node
            self.changed.append(here)
            return {(self.to if key == name else key): item for key, item in held.items()}
        after = self.at_element(held[name], here)
        return node if after is held[name] else {**held, name: after}

    def at_element(self, item: Any, here: str) -> Any:
        """A value after a map or coerce (a list element too); `item` itself if unchanged."""
        if self.action == "map" and _same(item, self.from_) and not _identical(item, self.to):
            after = _copy(self.to)
        elif self.action == "coerce":
            plain = _json_form(item)  # an Enum member of text "3" converts as that text
            after = _coerce(plain, self.to)
            if after is plain:
                return item
        else:  # no match; default, drop and rename act on fields, never on list elements
            return item
        self.changed.append(here)
        return after


def _same(value: Any, wanted: Any) -> bool:
    """Whether a state's value, in its JSON form, equals a plan's JSON value: 1 equals 1.0,
    never true."""
    value = _json_form(value)
    if isinstance(value, bool) or isinstance(wanted, bool):
        return value is wanted
    if isinstance(value, int | float) and isinstance(wanted, int | float):
        return value == wanted or (_is_nan(value) and _is_nan(wanted))
    if isinstance(value, list) and isinstance(wanted, list):
        return len(value) == len(wanted) and all(map(_same, value, wanted))
    if isinstance(value, dict) and isinstance(wanted, dict):
        return value.keys() == wanted.keys() and all(_same(value[k], wanted[k]) for k in value)
    return (value is None and wanted is None) or (
        isinstance(value, str) and isinstance(wanted, str) and value == wanted
    )


def _json_form(value: Any) -> Any:
    """A decoded value as JSON writes it (as Pydantic dumps it), one level at a time: an
    Enum member as its value, a date or time as ISO 8601 text (UTC as "Z"), a UUID or a
    Decimal as text, a tuple or set as a list, a model instance (a message too) as its
    `model_dump(mode="json")`; JSON data (and anything else) as it is."""
    if isinstance(value, enum.Enum):  # before str and int: a str Enum is a str
        return _json_form(value.value)
    if value is None or isinstance(value, str | int | float | list | dict):
        return value
    if isinstance(value, datetime.date | datetime.time):
        text = value.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if isinstance(value, uuid.UUID | Decimal):
        return str(value)
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        try:
            return dump(mode="json")
        except Exception:  # noqa: BLE001 - a model that cannot dump itself matches nothing
            return value
    return value


def _identical(value: Any, other: Any) -> bool:
    """Equal and of the same types all the way down: mapping it would change nothing."""
    if type(value) is not type(other):
        return False
    if isinstance(value, list):
        return len(value) == len(other) and all(map(_identical, value, other))
    if isinstance(value, dict):
        return value.keys() == other.keys() and all(_identical(value[k], other[k]) for k in value)
    return bool(value == other) or (_is_nan(value) and _is_nan(other))


def _is_nan(value: Any) -> bool:
    """NaN: never equal to itself, yet a plan's `from = nan` means it."""
    return isinstance(value, float) and math.isnan(value)


def _coerce(value: Any, kind: str) -> Any:
    """`value` as `kind` when that loses nothing (it reads back the same); else `value`."""
    if isinstance(value, bool):
        return ("true" if value else "false") if kind == "str" else value
    if isinstance(value, str):
        if kind == "bool":
            return {"true": True, "false": False}.get(value, value)
        return _from_text(value, kind) if kind in ("int", "float") else value
    if isinstance(value, int) and kind in ("float", "str"):
        try:
            return str(value) if kind == "str" else _float_of(value)
        except (ValueError, OverflowError):  # too many digits for str, too large for float
            return value
    if isinstance(value, float) and math.isfinite(value):
        if kind == "int" and value.is_integer():
            return int(value)
        return repr(value) if kind == "str" else value
    return value


def _float_of(number: int) -> float | int:
    as_float = float(number)
    return as_float if int(as_float) == number else number


def _from_text(text: str, kind: str) -> Any:
    """The number a string writes, as an int or float when it holds the same value."""
    if len(text) > _MAX_DIGITS or not _NUMBER.fullmatch(text):
        return text
    try:
        number = Decimal(text)
        if kind == "int":
            whole = number == number.to_integral_value() and number.adjusted() < _MAX_DIGITS
            return int(number) if whole else text
        as_float = float(number)
        return as_float if Decimal(repr(as_float)) == number else text  # not rounded away
    except (InvalidOperation, ValueError, OverflowError):
        return text


def _copy(value: Any) -> Any:
    """A plan's value for one state: a container copied (never shared between states), a
    string, number, bool or None as it is (immutable)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return copy.deepcopy(value)
