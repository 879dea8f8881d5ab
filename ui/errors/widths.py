"""How wide a text is drawn in a data grid's cells, to choose columns wide enough for it."""

from __future__ import annotations

import math
from collections.abc import Iterable

__all__ = [
    "CELL_PADDING",
    "WRAP_PADDING",
    "column_px",
    "text_px",
    "word_px",
    "wrapped_column_px",
    "wrapped_lines",
]

# The grid's font (Source Sans, 14 px): each printable ASCII character's width in px, from
# chr(32) to chr(126), as Chromium's canvas measures it (measureText, to 0.1 px).
_ASCII = (
    2.8, 4, 6, 7, 7, 11.5, 8.5, 3.5, 4.2, 4.2, 5.9, 7, 3.5, 4.4, 3.5, 4.9, 7, 7, 7, 7, 7, 7, 7,
    7, 7, 7, 3.5, 3.5, 7, 7, 7, 5.9, 11.9, 7.6, 8.2, 8, 8.6, 7.4, 6.9, 8.6, 9.1, 3.7, 6.7, 8.1,
    6.8, 10.2, 9.1, 9.3, 7.9, 9.3, 8, 7.5, 7.5, 9, 7.2, 11, 7.2, 6.7, 7.5, 4.2, 4.9, 4.2, 7, 7,
    7.6, 7.1, 7.7, 6.4, 7.8, 6.9, 4.1, 7.1, 7.6, 3.4, 3.5, 6.9, 3.6, 11.6, 7.7, 7.6, 7.8, 7.8,
    4.9, 5.9, 4.7, 7.6, 6.5, 10.1, 6.2, 6.5, 5.9, 4.2, 3.4, 4.2, 7,
)  # fmt: skip
_WIDE = 14.0  # px, a CJK character (a full em)
_OTHER = 9.0  # px, any other character: about a wide Latin letter
# The marks our own texts use, measured alike: a shortened id's "…" is 13.3 px, not 9 (at
# 390 px "1f1f1196…bbaa" wrapped its last letter in a column fitted to 9).
_MARKS = {"…": 13.3, "·": 3.5, "—": 11.2, "–": 6.7, "✓": 8.6, "✗": 7.4, "→": 8.7, "↗": 8.7}
# A cell's text starts 8 px in; a line is clipped at the cell's edge, and kept 2 px from it
# here. Wrapped text breaks at 16 px of padding and about 1.5 px more: in Chromium a word of
# 78.2 px broke in a 95 px column, one of 77.7 px did not.
CELL_PADDING = 8 + 2  # px
WRAP_PADDING = 16 + 2  # px


def _char_px(char: str) -> float:
    code = ord(char)
    if 32 <= code < 127:
        return _ASCII[code - 32]
    if char in _MARKS:
        return _MARKS[char]
    return _WIDE if code > 0x2E80 else _OTHER


def text_px(text: str) -> float:
    """How wide `text` is drawn on one line.

    Example:
        >>> round(text_px("line:col"), 1)
        42.7
    """
    return sum(_char_px(char) for char in text)


def word_px(text: str) -> float:
    """How wide the longest word of `text` is drawn: the least width it wraps in unbroken.

    Example:
        >>> round(word_px("String should match pattern '^[A-Z0-9-]+$'"), 1)
        78.7
    """
    return max((text_px(word) for word in text.split()), default=0.0)


def wrapped_column_px(header: str, values: Iterable[str]) -> int:
    """A column's width in px, in a table whose rows wrap, that holds its header on one line
    (headers do not wrap) and each word of its values unbroken.

    Example:
        >>> wrapped_column_px("path", ["items[0].sku"])
        90
    """
    return max(column_px([header]), column_px(values, wrapped=True))


def column_px(texts: Iterable[str], *, wrapped: bool = False) -> int:
    """A column's width in px that holds each of `texts` (a header among them) on one line,
    or, `wrapped`, each of their words unbroken."""
    measure, padding = (word_px, WRAP_PADDING) if wrapped else (text_px, CELL_PADDING)
    return math.ceil(max((measure(text) for text in texts), default=0.0) + padding)


_SPACE = _ASCII[0]


def wrapped_lines(text: str, width: int) -> int:
    """How many lines `text` takes wrapped in a column `width` px wide, as the grid wraps it:
    at spaces and line breaks, a word longer than a line broken where the line ends.

    Example:
        >>> wrapped_lines("String should match pattern '^[A-Z0-9-]+$'", 97)
        4
        >>> wrapped_lines("x" * 100_000, 0) > 100_000  # no room: ends, a px a line
        True
    """
    room = max(width - WRAP_PADDING, 1)  # a column narrower than its padding: a px a line
    lines = 0
    for paragraph in text.split("\n"):
        lines += 1
        used = 0.0
        for word in paragraph.split(" "):
            wide = text_px(word)
            if used and used + _SPACE + wide > room:
                lines += 1
                used = wide
            else:
                used = used + _SPACE + wide if used else wide
            if used > room:  # a word longer than the line: the rest on the next ones
                over = math.ceil(used / room) - 1
                lines += over
                used -= over * room
    return lines
