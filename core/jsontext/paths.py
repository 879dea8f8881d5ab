"""How an error location is named: Python-like path, RFC 6901 pointer, truncated values."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

__all__ = ["PathNames", "format_path", "format_pointer", "number_literal", "plural", "truncate"]

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def format_path(segments: Sequence[str | int]) -> str:
    """Python-like path of a location, `(root)` for the top level.

    Example:
        >>> format_path(("items", 0, "sku"))
        'items[0].sku'
    """
    out = "".join([_piece(s) for s in segments])
    return out[1:] if out.startswith(".") else out or "(root)"


def _piece(segment: str | int) -> str:
    if isinstance(segment, int):
        return f"[{segment}]"
    if _IDENTIFIER.match(segment):
        return f".{segment}"
    return f"[{json.dumps(segment, ensure_ascii=False)}]"


def format_pointer(segments: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer of a location.

    Example:
        >>> format_pointer(("items", 0, "a/b"))
        '/items/0/a~1b'
    """
    return "".join([_token(s) for s in segments])


def _token(segment: str | int) -> str:
    return "/" + str(segment).replace("~", "~0").replace("/", "~1")


def truncate(value: Any, limit: int = 80) -> str:
    """Compact JSON text of a value, cut to `limit` characters with an ellipsis.

    Example:
        >>> truncate("x" * 100, 10)
        '"xxxxxxxx…'
    """
    try:
        text = json.dumps(value, ensure_ascii=False, default=repr)
    except ValueError:  # circular structures from Python values
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class PathNames(dict[str | int, tuple[str, str]]):
    """segments -> (path, pointer), from a per-report memo of each segment's two pieces."""

    def __call__(self, segments: tuple[str | int, ...]) -> tuple[str, str]:
        if not segments:
            return "(root)", ""
        path = pointer = ""
        for segment in segments:
            pieces = self.get(segment)
            if pieces is None:
                pieces = self[segment] = (_piece(segment), _token(segment))
            path += pieces[0]
            pointer += pieces[1]
        return path.removeprefix("."), pointer


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
