"""JSON data written as Python source that reads back equal: one line when it fits, else wrapped."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["WIDTH", "python_source", "string_pieces"]

WIDTH = 100  # the line length the written source keeps to, as this project's code does


def python_source(value: Any, indent: int = 0, used: int = 0) -> str:
    r"""`value` (JSON data: None, bool, int, float, str, list, dict with str keys) as a Python
    expression, written with `repr` only, so no text in it is ever code. It starts on a line
    indented `indent` whose first `used` columns are taken, and leaves room for a comma.

    Example:
        >>> print(python_source({"note": 'say "hi"\n', "n": [2.5, None, float("inf")]}))
        {"note": 'say "hi"\n', "n": [2.5, None, float("inf")]}
        >>> print(python_source({"sku": ["x" * 60, "y" * 60]}, used=10))
        {
            "sku": [
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy",
            ],
        }
    """
    flat = _flat(value)
    if used + len(flat) < WIDTH or not value or not isinstance(value, str | list | dict):
        return flat
    pad = " " * (indent + 4)
    if isinstance(value, str):
        lines = [pad + piece for piece in string_pieces(value, WIDTH - len(pad))]
        return "(\n" + "\n".join(lines) + "\n" + " " * indent + ")"
    if isinstance(value, list):
        lines = [pad + python_source(item, indent + 4, len(pad)) + "," for item in value]
        return "[\n" + "\n".join(lines) + "\n" + " " * indent + "]"
    lines = []
    for key, item in value.items():
        head = f"{pad}{_flat(key)}: "
        lines.append(head + python_source(item, indent + 4, len(head)) + ",")
    return "{\n" + "\n".join(lines) + "\n" + " " * indent + "}"


def string_pieces(text: str, room: int) -> list[str]:
    r"""`text` as string literals, each at most about `room` columns, cut after each newline:
    written one after another they read back as `text`.

    Example:
        >>> print(*string_pieces('[[step]]\npath = "a"\n', 40), sep="\n")
        "[[step]]\n"
        'path = "a"\n'
    """
    pieces: list[str] = []
    start, width = 0, 2  # the quotes
    for index, char in enumerate(text):
        cost = 2 if char in "'\"" else len(repr(char)) - 2  # a quote may need its backslash
        if width + cost > room and index > start:
            pieces.append(_string(text[start:index]))
            start, width = index, 2
        width += cost
        if char == "\n":
            pieces.append(_string(text[start : index + 1]))
            start, width = index + 1, 2
    if start < len(text) or not pieces:
        pieces.append(_string(text[start:]))
    return pieces


def _flat(value: Any) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return 'float("nan")' if math.isnan(value) else ("" if value > 0 else "-") + 'float("inf")'
    if isinstance(value, list):
        return "[" + ", ".join(_flat(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flat(k)}: {_flat(v)}" for k, v in value.items()) + "}"
    if isinstance(value, str):
        return _string(value)
    if value is None or isinstance(value, int | float):  # bool is an int
        return repr(value)
    raise TypeError(f"only JSON data can be written as a plan's value, not {type(value).__name__}")


def _string(text: str) -> str:
    """`repr(text)`, in double quotes when the text holds none (as formatters write them)."""
    written = repr(text)
    return f'"{written[1:-1]}"' if written[0] == "'" and '"' not in text else written
