"""How an error location is named: a Python-like path and an RFC 6901 pointer."""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.jsontext.write import dumps

__all__ = ["PathNames", "format_path", "format_pointer"]

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
    return f"[{dumps(segment)}]"


def format_pointer(segments: Sequence[str | int]) -> str:
    """RFC 6901 JSON pointer of a location.

    Example:
        >>> format_pointer(("items", 0, "a/b"))
        '/items/0/a~1b'
    """
    return "".join([_token(s) for s in segments])


def _token(segment: str | int) -> str:
    return "/" + str(segment).replace("~", "~0").replace("/", "~1")


class PathNames(dict[str | int, tuple[str, str]]):
    """segments -> (path, pointer), from a per-report memo of each segment's two pieces."""

    def __call__(self, segments: tuple[str | int, ...]) -> tuple[str, str]:
        if not segments:
            return "(root)", ""
        path = pointer = ""
        for segment in segments:
            if type(segment) is int:  # an index: thousands of them, each its own
                path += f"[{segment}]"
                pointer += f"/{segment}"
                continue
            pieces = self.get(segment)
            if pieces is None:
                pieces = self[segment] = (_piece(segment), _token(segment))
            path += pieces[0]
            pointer += pieces[1]
        return path.removeprefix("."), pointer
