"""Where a JSON path sits in payload text: offsets and line:col, each container indexed once."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from operator import le
from typing import Any, NamedTuple

from core.jsontext.scan import FLAT, KEY, STRING, key_text, tokens

__all__ = ["Located", "SourceMap"]

_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*").match
_WS = " \t\n\r"  # JSON's whitespace (an empty slice is "in" it too: the text's end)


class Located(NamedTuple):
    """Where `SourceMap.locate` got to: the path found, its offset, and whether the path's
    last segment is the one asked for (a missing key is not found; its parent may share its
    name)."""

    path: tuple[str | int, ...]
    offset: int
    found_last: bool


class SourceMap:
    """Finds where a JSON path sits in the text, from one pass of `scan.tokens` over it.

    The pass runs on the first lookup (or `index_all`); objects holding no container are one
    token in it, and their members are found by substring search or, for escaped keys and
    indices, by tokenizing that one object. Locating 2,000 error paths in a large payload
    stays linear.

    Example:
        >>> SourceMap('{"items": [{"sku": "x"}]}').locate(("items", 0, "sku"))
        Located(path=('items', 0, 'sku'), offset=19, found_last=True)
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._children: dict[int, dict[str | int, int]] = {}
        self._flat: dict[int, int] = {}  # offset -> end of objects holding no container
        self._indexed = False
        self._root = len(text) - len(text.lstrip(" \t\n\r"))

    def locate(self, loc: Sequence[str | int]) -> Located:
        """Follow `loc` as far as the text goes: the segments that exist, the last one's offset.

        Segments that are not keys/indices in the text (union tags such as `'ai'` or
        `'str'`) are skipped, so the returned segments form the real JSON path.
        """
        return Located(*self.walk(loc))

    def walk(self, loc: Sequence[str | int]) -> tuple[tuple[str | int, ...], int, bool]:
        """`locate` as a plain tuple (a NamedTuple is built by a Python-level `__new__`)."""
        return self.walk_all((loc,))[0]

    def walk_all(
        self, locs: Iterable[Sequence[str | int]]
    ) -> list[tuple[tuple[str | int, ...], int, bool]]:
        """`walk` for many paths in one call: a report places 2,000 errors, a few Python
        steps each, so the lookups are bound once for all of them."""
        if not self._indexed:
            self.index_all()
        containers, flat, root = self._children, self._flat, self._root
        flat_key, index_flat = self._flat_key, self._index_flat
        walked = []
        for loc in locs:
            offset = root
            path: list[str | int] = []
            found = False  # whether the segment just followed is in the text
            for segment in loc:
                children = containers.get(offset)
                if children is None:
                    end = flat.get(offset)
                    if end is None:
                        found = False
                        continue  # a scalar: nothing below it
                    if type(segment) is str:
                        value_at = flat_key(offset, end, segment)
                        if value_at is not None:
                            offset = value_at
                            path.append(segment)
                            found = True
                            continue
                    children = index_flat(offset, end)
                at = children.get(segment) if type(segment) is not bool else None
                found = at is not None
                if at is not None:
                    offset = at
                    path.append(segment)
            walked.append((tuple(path), offset, found))
        return walked

    def key_offset(self, value_offset: int) -> int:
        """Where the key of the member whose value starts at `value_offset` starts (its quote).

        Between a key and its value lie only whitespace and the colon, so the key's closing
        quote is the last quote before the colon; its opening quote is the first one before
        that which no backslash escapes.

        Example:
            >>> source = SourceMap('{"a": 1, "b" : 2}')
            >>> source.key_offset(source.locate(("b",)).offset)
            9
        """
        text = self.text
        at = text.rindex('"', 0, text.rindex(":", 0, value_offset))
        while True:
            at = text.rindex('"', 0, at)
            backslashes = 0
            while text[at - 1 - backslashes] == "\\":
                backslashes += 1
            if backslashes % 2 == 0:
                return at

    def index_all(self) -> None:
        """Index every container in one pass over the tokens (done on the first `locate`).

        Text that is not JSON keeps what the pass found: unclosed containers keep the
        children seen so far, a stray close or comma is passed over.
        """
        if self._indexed:
            return
        self._indexed = True
        text, children, flat = self.text, self._children, self._flat
        stack: list[list[Any]] = []  # [offset, children, is_array, next index]
        top: list[Any] | None = None  # the innermost open container's frame
        # Hot loop (a 2 MB payload): kinds by frequency, keys decoded only when escaped.
        for token in tokens(text, flat=True):
            kind = token.lastgroup
            if kind is not None:
                if kind == KEY:  # the value starts after the colon
                    key = token.group(STRING)
                    if "\\" in key:
                        key = key_text(token)
                    if top is not None:
                        top[1][key] = token.end()
                elif kind == FLAT:  # members are found when a path enters it
                    flat[token.start()] = token.end()
                continue
            char = text[token.start()]
            if char == ",":
                if top is not None and top[2]:
                    top[1][top[3]] = token.end()
                    top[3] += 1
            elif char == "{" or char == "[":
                top = [token.start(), {}, char == "[", 0]
                if char == "[" and text[token.end() : token.end() + 1] != "]":
                    top[1][0], top[3] = token.end(), 1
                stack.append(top)
            elif top is not None:  # } or ]
                stack.pop()
                children[top[0]] = top[1]
                top = stack[-1] if stack else None
        for frame in stack:  # text cut short: what was seen still has a place
            children[frame[0]] = frame[1]

    def _flat_key(self, offset: int, end: int, key: str) -> int | None:
        """Where `key`'s value starts in the flat object at offset..end, by substring search.

        In valid JSON an unescaped `"key"` followed by a colon can only be a member name
        (a value is followed by `,` or `}`, a quote inside a string is escaped), and the
        last one wins as in `json.loads`. Keys written with escapes fall back to
        `_index_flat`.
        """
        if '"' in key or "\\" in key:
            return None
        needle, text = f'"{key}"', self.text
        at = text.rfind(needle, offset, end)
        while at != -1:
            if text[at - 1] != "\\":
                after = at + len(needle)
                # `"key": value` as json.dumps writes it needs no regex
                if text.startswith(": ", after) and text[after + 2 : after + 3] not in _WS:
                    return after + 2
                colon = _COLON(text, after)
                if colon is not None:
                    return colon.end()
            at = text.rfind(needle, offset, at)
        return None

    def _index_flat(self, offset: int, end: int) -> dict[str | int, int]:
        """The members of the flat object at offset..end, from its own tokens (once)."""
        children: dict[str | int, int] = {}
        for token in tokens(self.text, offset + 1):
            if token.start() >= end - 1:
                break
            if token.lastgroup == KEY:
                children[key_text(token)] = token.end()
        self._children[offset] = children
        return children

    def line_col(self, offsets: list[int]) -> list[tuple[int, int]]:
        """1-based (line, col) of many offsets, counting newlines once in one sorted pass."""
        text = self.text
        line, previous = 1, 0
        if all(map(le, offsets, offsets[1:])):  # in text order, as Pydantic mostly reports
            placed = []
            for offset in offsets:
                line += text.count("\n", previous, offset)
                placed.append((line, offset - text.rfind("\n", 0, offset)))
                previous = offset
            return placed
        found: dict[int, tuple[int, int]] = {}
        for offset in sorted(set(offsets)):
            line += text.count("\n", previous, offset)
            found[offset] = (line, offset - text.rfind("\n", 0, offset))
            previous = offset
        return [found[offset] for offset in offsets]
