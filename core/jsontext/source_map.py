"""Where a JSON path sits in payload text: offsets and line:col, each container indexed once."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from json.decoder import scanstring as _scanstring  # type: ignore[attr-defined]  # not in typeshed
from typing import Any, NamedTuple, cast

__all__ = ["JSON_STRING_BODY", "Located", "SourceMap"]

_WS = re.compile(r"[ \t\n\r]*")
_MEMBER = re.compile(r'"((?:[^"\\]|\\.)*)"[ \t\n\r]*:[ \t\n\r]*', re.S)  # "key" :
# A JSON string's inside, unrolled: one C loop per run of plain characters.
JSON_STRING_BODY = r'[^"\\]*+(?:\\.[^"\\]*+)*+'
_STRING = f'"{JSON_STRING_BODY}"'
# An object holding no container: one C-speed match, its members indexed only when needed.
_FLAT_OBJECT = rf'\{{(?:[^{{}}\[\]"]++|{_STRING})*+\}}'
_TOKEN = re.compile(  # flat objects, brackets, commas and strings (keys with their colon)
    rf'({_FLAT_OBJECT})|"({JSON_STRING_BODY})"([ \t\n\r]*:[ \t\n\r]*)?'
    r"|[{\[][ \t\n\r]*|,[ \t\n\r]*|[}\]]",
    re.S,
)
_FLAT_MATCH = re.compile(_FLAT_OBJECT, re.S).match
# "key": value inside a flat object; strings are matched whole, so members never misalign.
_FLAT_MEMBER = re.compile(
    rf'"({JSON_STRING_BODY})"[ \t\n\r]*:[ \t\n\r]*({_STRING}|[^,}}"]*+)[^"]*+',
    re.S,
)
_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*").match
_AFTER = re.compile(r"[ \t\n\r]*,?[ \t\n\r]*")  # the gap and comma after a value
# Both can match nothing, so they always match: typed so, at no cost in the hot loops.
_SKIP_WS = cast(Callable[[str, int], re.Match[str]], _WS.match)
_SKIP_AFTER = cast(Callable[[str, int], re.Match[str]], _AFTER.match)


class Located(NamedTuple):
    """Where `SourceMap.locate` got to: the path found, its offset, and whether the path's
    last segment is the one asked for (a missing key is not found; its parent may share its
    name)."""

    path: tuple[str | int, ...]
    offset: int
    found_last: bool


class SourceMap:
    """Finds where a JSON path sits in the text, indexing each container once, lazily.

    Skipping a value uses the C decoder (`raw_decode`), so locating 2,000 error paths
    in a large payload stays linear.

    Example:
        >>> SourceMap('{"items": [{"sku": "x"}]}').locate(("items", 0, "sku"))
        Located(path=('items', 0, 'sku'), offset=19, found_last=True)
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._decoder = json.JSONDecoder()
        self._children: dict[int, dict[str | int, int]] = {}
        self._flat: dict[int, int] = {}  # offset -> end of objects holding no container
        self._root = _SKIP_WS(text, 0).end()

    def locate(self, loc: Sequence[str | int]) -> Located:
        """Follow `loc` as far as the text goes: the segments that exist, the last one's offset.

        Segments that are not keys/indices in the text (union tags such as `'ai'` or
        `'str'`) are skipped, so the returned segments form the real JSON path.
        """
        offset = self._root
        path: list[str | int] = []
        found = False  # whether the segment just followed is in the text
        for segment in loc:
            found = False
            children = self._children.get(offset)
            if children is None:
                end = self._flat.get(offset)
                if end is not None and type(segment) is str:
                    value_at = self._flat_key(offset, end, segment)
                    if value_at is not None:
                        offset = value_at
                        path.append(segment)
                        found = True
                        continue
                children = self._index(offset)
            key = segment if not isinstance(segment, bool) else None
            if key is not None and key in children:
                offset = children[key]
                path.append(segment)
                found = True
        return Located(tuple(path), offset, found)

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
        """Index every container in one pass over the tokens (for many lookups at once).

        Lazy `_index` calls re-decode each container they skip; with thousands of errors
        one C-speed token scan plus a stack is cheaper. Only for text that is valid JSON.
        """
        text, children = self.text, self._children
        stack: list[list[Any]] = []  # [offset, children, is_array, next index]
        for match in _TOKEN.finditer(text):
            kind = match.lastindex  # 1 flat object, 2 string, 3 key; None for punctuation
            if kind is not None:
                if kind == 3:  # a key: the value starts after the colon
                    key = match.group(2)
                    if "\\" in key:
                        key = _scanstring(text, match.start() + 1)[0]
                    stack[-1][1][key] = match.end()
                elif kind == 1:  # members are found when a path enters it
                    self._flat[match.start()] = match.end()
                continue
            char = text[match.start()]
            if char == "{" or char == "[":
                frame: list[Any] = [match.start(), {}, char == "[", 0]
                if char == "[" and text[match.end() : match.end() + 1] != "]":
                    frame[1][0], frame[3] = match.end(), 1
                stack.append(frame)
            elif char == ",":
                frame = stack[-1]
                if frame[2]:
                    frame[1][frame[3]] = match.end()
                    frame[3] += 1
            else:
                frame = stack.pop()
                children[frame[0]] = frame[1]

    def _flat_key(self, offset: int, end: int, key: str) -> int | None:
        """Where `key`'s value starts in the flat object at offset..end, by substring search.

        In valid JSON an unescaped `"key"` followed by a colon can only be a member name
        (a value is followed by `,` or `}`, a quote inside a string is escaped), and the
        last one wins as in `json.loads`. Keys written with escapes fall back to `_index`.
        """
        if '"' in key or "\\" in key:
            return None
        needle, text = f'"{key}"', self.text
        at = text.rfind(needle, offset, end)
        while at != -1:
            if text[at - 1] != "\\":
                colon = _COLON(text, at + len(needle))
                if colon is not None:
                    return colon.end()
            at = text.rfind(needle, offset, at)
        return None

    def _index(self, offset: int) -> dict[str | int, int]:
        children: dict[str | int, int] = {}
        text = self.text
        opener = text[offset : offset + 1]
        # Hot loop (thousands of errors): one regex per key, one C decode per value.
        skip_value = self._decoder.scan_once  # type: ignore[attr-defined]  # not in typeshed
        member, after = _MEMBER.match, _SKIP_AFTER
        end = self._flat.get(offset)  # known from index_all, else matched here once
        if end is None and opener == "{":
            flat = _FLAT_MATCH(text, offset)
            end = flat.end() if flat is not None else None
        if end is not None:
            for found in _FLAT_MEMBER.finditer(text, offset + 1, end - 1):
                key = found.group(1)
                if "\\" in key:
                    key = _scanstring(text, found.start() + 1)[0]
                children[key] = found.start(2)
            self._children[offset] = children
            return children
        try:
            if opener == "{":
                pos = _SKIP_WS(text, offset + 1).end()
                while (named := member(text, pos)) is not None:
                    key = named.group(1)
                    if "\\" in key:
                        key = _scanstring(text, named.start() + 1)[0]
                    value_at = named.end()
                    children[key] = value_at
                    pos = after(text, skip_value(text, value_at)[1]).end()
            elif opener == "[":
                pos = _SKIP_WS(text, offset + 1).end()
                index = 0
                while text[pos] != "]":
                    children[index] = pos
                    index += 1
                    pos = after(text, skip_value(text, pos)[1]).end()
        except (ValueError, IndexError, StopIteration):
            pass  # text that does not parse has no deeper positions; keep what we found
        self._children[offset] = children
        return children

    def line_col(self, offsets: list[int]) -> list[tuple[int, int]]:
        """1-based (line, col) of many offsets, counting newlines once in one sorted pass."""
        text = self.text
        found: dict[int, tuple[int, int]] = {}
        line, previous = 1, 0
        for offset in sorted(set(offsets)):
            line += text.count("\n", previous, offset)
            found[offset] = (line, offset - text.rfind("\n", 0, offset))
            previous = offset
        return [found[offset] for offset in offsets]
