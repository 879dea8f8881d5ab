"""Keys an object repeats in payload text: only one of the values ever reaches validation."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core.jsontext.paths import format_path
from core.jsontext.scan import KEY, STRING, key_text, tokens
from core.jsontext.source_map import SourceMap

__all__ = ["MAX_POSITIONS", "MAX_REPORTED", "DuplicateKey", "duplicate_keys"]

MAX_REPORTED = 50  # keys listed; the count says how many more there are
MAX_POSITIONS = 10  # occurrences kept per key: the first ones and the last (the value kept)


@dataclass(frozen=True)
class DuplicateKey:
    """A key written more than once in one object, and where each occurrence starts."""

    path: str  # the key's path, as the error table names fields
    # (line, col) of the occurrences, in text order: all of them, or the first
    # MAX_POSITIONS - 1 and the last (the value kept) when there are more
    positions: tuple[tuple[int, int], ...]
    count: int  # how many times the key is written

    def describe(self) -> str:
        """One line: the path, then each line:col (the last one is the value kept)."""
        spots = [f"{line}:{col}" for line, col in self.positions]
        if self.count > len(spots):
            spots.insert(-1, f"… ({self.count:,} in all)")
        return f"{self.path}  at {', '.join(spots)}"


class _Repeated(Exception):
    pass


def _refuse_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    value = dict(pairs)
    if len(value) != len(pairs):
        raise _Repeated
    return value


def duplicate_keys(text: str) -> list[DuplicateKey]:
    """Every key an object of `text` repeats, in text order; [] when there is none.

    Text that is not JSON has none (its syntax error is reported elsewhere). The check is
    one C-speed parse; the text is scanned for positions only when a key does repeat.

    Example:
        >>> [d.describe() for d in duplicate_keys('{"amount": -1,\\n "amount": 5}')]
        ['amount  at 1:2, 2:2']
    """
    try:
        json.loads(text, object_pairs_hook=_refuse_repeats)
    except _Repeated:
        return _locate(text)
    except (ValueError, RecursionError):
        pass  # not JSON: the syntax error says so
    return []


def _locate(text: str) -> list[DuplicateKey]:
    # One frame per open container: [path, is_array, key -> offsets, commas seen, last key].
    stack: list[list[Any]] = []
    found: list[tuple[int, tuple[str | int, ...], list[int]]] = []
    for token in tokens(text):  # strings, brackets and commas; other values are skipped
        kind = token.lastgroup
        if kind == KEY:
            key = token.group(STRING)
            if "\\" in key:
                key = key_text(token)
            frame = stack[-1]
            frame[2].setdefault(key, []).append(token.start())
            frame[4] = key
            continue
        if kind is not None:  # a string value
            continue
        char = text[token.start()]
        if char in "{[":
            path: tuple[str | int, ...] = ()
            if stack:
                parent = stack[-1]
                path = (*parent[0], parent[3] if parent[1] else parent[4])
            stack.append([path, char == "[", {}, 0, None])
        elif char == ",":
            stack[-1][3] += 1
        else:  # } or ]
            path, _, keys, _, _ = stack.pop()
            found += [
                (spots[0], (*path, key), spots) for key, spots in keys.items() if len(spots) > 1
            ]
    found.sort(key=lambda item: item[0])
    kept = [spots if len(spots) <= MAX_POSITIONS else spots[: MAX_POSITIONS - 1] + spots[-1:]
            for _, _, spots in found]  # fmt: skip
    # One pass over the text for every offset: line_col counts newlines once, in order.
    places = iter(SourceMap(text).line_col([offset for spots in kept for offset in spots]))
    return [
        DuplicateKey(format_path(segments), tuple(next(places) for _ in spots), len(all_spots))
        for (_, segments, all_spots), spots in zip(found, kept, strict=True)
    ]
