"""The plan table's value cells as text: plain text where the field at the step's path takes
text (a string, an enum, a uuid, a date), JSON where it does not; messages without the
Markdown backticks that plain-text elements would show literally."""

from __future__ import annotations

import datetime
import enum
import json
import re
import types
import uuid
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from core.jsontext.write import dumps
from core.migrate.plan import split_path

__all__ = ["TakesText", "cell_text", "takes_text", "unticked"]

# (path, action, column) -> whether that cell may be plain text
TakesText = Callable[[str, str, str], bool]
_TICKED = re.compile(r"`([^`\n]*)`")
_TEXT_TYPES = (str, uuid.UUID, datetime.date, datetime.datetime, datetime.time)
_NAMES = ("rename", "coerce")  # their `to` is a field name or a type's name: always text


def unticked(text: str) -> str:
    """`text` with Markdown's code ticks dropped, for elements that show text as it is.

    Example:
        >>> unticked("a map needs `from` and `to`")
        'a map needs from and to'
    """
    return _TICKED.sub(r"\1", text)


def _unwrapped(annotation: Any) -> list[Any]:
    """The types an annotation allows, Optional, unions and Annotated opened."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _unwrapped(get_args(annotation)[0])
    if origin is Union or origin is types.UnionType:
        return [t for arg in get_args(annotation) for t in _unwrapped(arg)]
    return [annotation]


def _at(model: type[BaseModel], path: str) -> list[Any]:
    """The types the field at `path` (dotted, [*] for a list's elements) allows in `model`;
    empty where the path names no field."""
    found: list[Any] = [model]
    for part in split_path(path):
        step: list[Any] = []
        for kind in found:
            if part == "[*]":
                if get_origin(kind) in (list, tuple, set, frozenset):
                    step += [t for arg in get_args(kind)[:1] for t in _unwrapped(arg)]
            elif isinstance(kind, type) and issubclass(kind, BaseModel):
                field = kind.model_fields.get(part)
                if field is not None:
                    step += _unwrapped(field.annotation)
        found = step
    return found


def _is_text(kind: Any) -> bool:
    if get_origin(kind) is Literal:
        return any(isinstance(member, str) for member in get_args(kind))
    if isinstance(kind, type) and issubclass(kind, enum.Enum):
        return any(isinstance(member.value, str) for member in kind)
    return isinstance(kind, type) and issubclass(kind, _TEXT_TYPES)


def takes_text(model: type[BaseModel], candidate: type[BaseModel]) -> TakesText:
    """Which cells may be plain text: a rename's or coerce's `to` always; a value, from or
    to where the field at the step's path takes text in the model or the candidate.

    Example:
        >>> from core.order import AgentState
        >>> text = takes_text(AgentState, AgentState)
        >>> text("status", "map", "to"), text("items[*].sku", "map", "from"), text("amount", "map", "to")
        (True, True, False)
    """  # noqa: E501 - a doctest's input is one line

    def text(path: str, action: str, column: str) -> bool:
        if column == "to" and action in _NAMES:
            return True
        try:
            kinds = _at(model, path) + _at(candidate, path)
        except (TypeError, ValueError):  # a path still being typed
            return False
        return any(_is_text(kind) for kind in kinds)

    return text


def cell_text(value: Any, text: bool) -> str:
    """A step's value as its cell shows it: a string as plain text where the field takes
    text and the text cannot be read as other JSON (`shipped`; `"750"` stays quoted), else
    JSON.

    Example:
        >>> cell_text("shipped", True), cell_text("750", True), cell_text("shipped", False)
        ('shipped', '"750"', '"shipped"')
    """
    if text and isinstance(value, str) and value and value == value.strip():
        try:
            json.loads(value)
        except ValueError:
            return value
    return dumps(value)
