"""Values -> text for people: the one JSON dumper, cut values, numbers and counted nouns."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

__all__ = ["dumps", "number_literal", "plural", "to_text", "truncate"]


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


def to_text(value: Any) -> str:
    """Payload value -> the editor's JSON text (2-space indent, Unicode kept).

    Example:
        >>> to_text({"a": 1})
        '{\\n  "a": 1\\n}'
    """
    return dumps(value, indent=2)


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
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plural(count: int, noun: str) -> str:
    """`1 error`, `2 errors`.

    Example:
        >>> plural(1, "error"), plural(3, "error")
        ('1 error', '3 errors')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def number_literal(value: float) -> str:
    """A bound as Python source writes it: whole numbers as ints, others with every digit.

    Example:
        >>> number_literal(1_000_000.0), number_literal(0.123456789)
        ('1_000_000', '0.123456789')
    """
    return f"{int(value):_}" if float(value).is_integer() else repr(float(value))
