"""One string a regex `pattern` matches, for generated examples; None when it is not simple.

Built on the stdlib's own regex parser (`re._parser`, private): the maintained generators
(exrex, rstr, polyfactory's regex values) walk that same parser, and hypothesis's `from_regex`
is random and a test-only dependency here. So the private import stays in this one module,
every result is checked with `re.search` (what a Pydantic `pattern` does), and anything the
walk does not know gives None, never a wrong string.
"""

from __future__ import annotations

import re
from re import _parser as sre  # type: ignore[attr-defined]  # the stdlib's regex parser, untyped
from typing import Any

__all__ = ["sample_pattern"]


def sample_pattern(pattern: str, min_length: int = 0) -> str | None:
    """A short string `pattern` matches (repeats stretched towards `min_length`), else None.

    Example:
        >>> sample_pattern(r"^[A-Z0-9-]+$", 3)
        'AAA'
        >>> sample_pattern(r"^(?=x)a$") is None  # a lookahead: not simple
        True
    """
    try:
        text = _emit(sre.parse(pattern), min_length)
    except (re.error, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    return text if re.search(pattern, text) else None


def _emit(items: Any, low: int) -> str:
    out = []
    for op, arg in items:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "IN":
            out.append(_first_char(arg))
        elif name == "ANY":
            out.append("a")
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            least, most, sub = arg
            count = max(least, min(most, low)) if least == 0 or low > least else least
            out.append(_emit(sub, 0) * count)
        elif name == "SUBPATTERN":
            out.append(_emit(arg[-1], low))
        elif name == "BRANCH":
            out.append(_emit(arg[1][0], low))
        elif name not in ("AT",):
            raise ValueError(name)  # lookarounds, backreferences: not simple
    return "".join(out)


def _first_char(ranges: list[tuple[Any, Any]]) -> str:
    op, arg = ranges[0]
    if str(op) == "NEGATE":
        return "a" if len(ranges) > 1 and _first_char(ranges[1:]) != "a" else "b"
    if str(op) == "LITERAL":
        return chr(arg)
    if str(op) == "RANGE":
        return chr(arg[0])
    return {"CATEGORY_DIGIT": "0", "CATEGORY_SPACE": " "}.get(str(arg), "a")
