"""Values -> text for people: the one JSON dumper, cut values and numbers."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core.words import count

__all__ = [
    "clip",
    "dumps",
    "jsonable",
    "number_literal",
    "plural",
    "preview",
    "to_text",
    "truncate",
]


def dumps(
    value: Any,
    *,
    indent: int | None = None,
    default: Callable[[Any], Any] | None = None,
    compact: bool = False,
    allow_nan: bool = True,
) -> str:
    """JSON text with non-ASCII characters kept readable; every dump in core/ goes through here.

    `default` turns what JSON has no form for into something it has (`str`, `repr`, ...);
    `compact` drops the spaces after `,` and `:`; `allow_nan=False` refuses NaN and infinities.

    Example:
        >>> # A deliberate Unicode case: the ideographs show non-ASCII text written as itself.
        >>> dumps({"loc": ("订单",)})
        '{"loc": ["订单"]}'
        >>> dumps({"at": object}, default=lambda v: v.__name__)
        '{"at": "object"}'
    """
    separators = (",", ":") if compact else None
    return json.dumps(
        value,
        ensure_ascii=False,
        indent=indent,
        default=default,
        separators=separators,
        allow_nan=allow_nan,
    )


def jsonable(value: Any) -> Any:
    """JSON data of any value (a model, a message, a UUID; what has no JSON form as its
    repr); bytes as text, or as base64 when they are not UTF-8 (a stored value may hold any).

    Example:
        >>> jsonable({"a": b"ok", "b": (1, 2)}), jsonable(b"\\x91")
        ({'a': 'ok', 'b': [1, 2]}, 'kQ==')
    """
    from pydantic_core import PydanticSerializationError, to_jsonable_python

    try:
        return to_jsonable_python(value, fallback=repr)
    except (ValueError, PydanticSerializationError):  # bytes that are not UTF-8
        return to_jsonable_python(value, fallback=repr, bytes_mode="base64")


def to_text(value: Any) -> str:
    """Payload value -> the editor's JSON text (2-space indent, Unicode kept).

    Example:
        >>> to_text({"a": 1})
        '{\\n  "a": 1\\n}'
    """
    return dumps(value, indent=2)


def clip(text: str, limit: int) -> str:
    """`text`, or its first `limit` - 1 characters and an ellipsis when it is longer.

    Example:
        >>> clip("troubleshooting", 8), clip("short", 8)
        ('trouble…', 'short')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def truncate(value: Any, limit: int = 80) -> str:
    """Compact JSON text of a value, cut to `limit` characters with an ellipsis.

    Example:
        >>> truncate("x" * 100, 10)
        '"xxxxxxxx…'
    """
    try:
        text = dumps(value, default=repr)
    except ValueError:  # circular structures from Python values
        text = repr(value)
    return clip(text, limit)


class _Full(Exception):
    """The preview has its characters: stop walking the value."""


def preview(value: Any, limit: int = 200) -> str:
    """Compact JSON text of a value's first `limit` characters, with the size of what was
    cut named; builds no more than about `limit` characters of text, whatever the value's
    size (a 200 MB string is never copied or dumped whole).

    Example:
        >>> preview("x" * 1_000_000, 10)
        '"xxxxxxxxx… (1,000,000 characters)'
        >>> preview({"a": list(range(100_000))}, 12)
        '{"a": [0, 1,… (a list of 100,000 items inside)'
        >>> preview({"sku": "ab"})
        '{"sku": "ab"}'
    """
    parts: list[str] = []
    size = [0]
    cut: list[str] = []  # the values being written, innermost last: what a cut is in

    def emit(text: str) -> None:
        parts.append(text)
        size[0] += len(text)
        if size[0] > limit:
            raise _Full

    def walk(item: Any) -> None:
        if isinstance(item, str | bytes | bytearray):
            shown = item[: limit + 1]
            text = shown.decode("utf-8", "replace") if not isinstance(shown, str) else shown
            unit = "character" if isinstance(item, str) else "byte"
            # a short text cut by the limit is part of the value around it
            cut.append(count(len(item), unit) if len(item) > limit or not cut else cut[-1])
            emit(json.dumps(text, ensure_ascii=False)[: -1 if len(item) > limit else None])
        elif isinstance(item, dict):
            cut.append(f"an object of {count(len(item), 'key')} inside")
            emit("{")
            for index, (key, inner) in enumerate(item.items()):
                emit((", " if index else "") + json.dumps(str(key), ensure_ascii=False) + ": ")
                walk(inner)
            emit("}")
        elif isinstance(item, list | tuple):
            cut.append(f"a list of {count(len(item), 'item')} inside")
            emit("[")
            for index, inner in enumerate(item):
                emit(", " if index else "")
                walk(inner)
            emit("]")
        else:
            cut.append(cut[-1] if cut else "cut")
            emit(truncate(item, limit + 1))
        cut.pop()  # written whole: a cut from here on is the enclosing value's

    try:
        walk(value)
    except _Full:
        return "".join(parts)[:limit] + f"… ({cut[-1] if cut else 'cut'})"
    return "".join(parts)


def number_literal(value: float) -> str:
    """A bound as Python source writes it: whole numbers as ints, others with every digit.

    Example:
        >>> number_literal(1_000_000.0), number_literal(0.123456789)
        ('1_000_000', '0.123456789')
    """
    return f"{int(value):_}" if float(value).is_integer() else repr(float(value))


# The old name of core.words.count, for the callers not yet moved to it.
plural = count
