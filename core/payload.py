"""Payload text -> JSON value, with limits and source positions for any JSON path."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from json.decoder import scanstring as _scanstring
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_DIGITS",
    "MAX_PAYLOAD_BYTES",
    "PayloadError",
    "SourceMap",
    "check_limits",
    "check_shape",
    "line_col",
    "parse",
]

MAX_PAYLOAD_BYTES = 2_000_000
# Containers deep, counting the top-level object: the depth where Pydantic's JSON parser
# stops too ("recursion limit exceeded"), so both agree on what is too deep.
MAX_DEPTH = 201
MAX_NUMBER_DIGITS = 400

_WS = re.compile(r"[ \t\n\r]*")
_MEMBER = re.compile(r'"((?:[^"\\]|\\.)*)"[ \t\n\r]*:[ \t\n\r]*', re.S)  # "key" :
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+"'  # unrolled: one C loop per run of plain characters
# An object holding no container: one C-speed match, its members indexed only when needed.
_FLAT_OBJECT = rf'\{{(?:[^{{}}\[\]"]++|{_STRING})*+\}}'
_TOKEN = re.compile(  # flat objects, brackets, commas and strings (keys with their colon)
    rf'({_FLAT_OBJECT})|"([^"\\]*+(?:\\.[^"\\]*+)*+)"([ \t\n\r]*:[ \t\n\r]*)?'
    r"|[{\[][ \t\n\r]*|,[ \t\n\r]*|[}\]]",
    re.S,
)
_FLAT_MATCH = re.compile(_FLAT_OBJECT, re.S).match
# "key": value inside a flat object; strings are matched whole, so members never misalign.
_FLAT_MEMBER = re.compile(
    rf'"([^"\\]*+(?:\\.[^"\\]*+)*+)"[ \t\n\r]*:[ \t\n\r]*({_STRING}|[^,}}"]*+)[^"]*+',
    re.S,
)
_COLON = re.compile(r"[ \t\n\r]*:[ \t\n\r]*").match
_AFTER = re.compile(r"[ \t\n\r]*,?[ \t\n\r]*")  # the gap and comma after a value
_LONG_NUMBER = re.compile(rf"-?\d{{{MAX_NUMBER_DIGITS + 1},}}")
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.S)
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


class PayloadError(ValueError):
    """The text is not a JSON payload we accept; `line`/`col` are 1-based.

    `code` is stable: json_syntax, empty, too_large, too_deep, number_too_long,
    lone_surrogate.
    """

    def __init__(self, message: str, line: int = 1, col: int = 1, *, code: str = "json_syntax"):
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
        self.code = code

    def __str__(self) -> str:
        return f"line {self.line}, column {self.col}: {self.message}"


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset.

    Example:
        >>> line_col('{\\n  "a": 1}', 4)
        (2, 3)
    """
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def check_shape(text: str) -> None:
    """Raise `PayloadError` for empty text or text over the size cap.

    Constant time for small texts: bytes are only counted when the characters could exceed
    the cap.
    """
    if not text.strip():
        raise PayloadError(
            "The payload is empty: paste a JSON object (Reset restores the seed order).",
            code="empty",
        )
    size = (
        len(text)
        if len(text) * 4 <= MAX_PAYLOAD_BYTES
        else len(text.encode("utf-8", "surrogatepass"))
    )
    if size > MAX_PAYLOAD_BYTES:
        raise PayloadError(
            f"The payload is {size:,} bytes; the limit is {MAX_PAYLOAD_BYTES:,}. "
            "Remove items or shorten long strings.",
            code="too_large",
        )


def check_limits(text: str) -> None:
    """`check_shape`, plus nesting depth, overlong numbers and lone surrogates.

    Example:
        >>> try:
        ...     check_limits('{"n": ' + "9" * 500 + "}")
        ... except PayloadError as exc:
        ...     print(exc.code, exc.line, exc.col)
        number_too_long 1 7
    """
    check_shape(text)
    if text.count("[") + text.count("{") > MAX_DEPTH:
        _check_depth(text)
    long_number = _long_number(text)
    if long_number:
        raise PayloadError(
            f"A number has {len(long_number.group().lstrip('-')):,} digits; the limit is "
            f"{MAX_NUMBER_DIGITS}. Shorten it or send it as a string.",
            *line_col(text, long_number.start()),
            code="number_too_long",
        )
    lone_at = _lone_surrogate(text)
    if lone_at is not None:
        raise PayloadError(
            "A lone UTF-16 surrogate (\\ud800-\\udfff without its pair) is not a "
            "character; remove it or complete the surrogate pair.",
            *line_col(text, lone_at),
            code="lone_surrogate",
        )


def parse(text: str) -> Any:
    """Parse payload text as JSON within the limits; NaN and Infinity stay floats.

    NaN/Infinity are kept (as `json.loads` and Pydantic's JSON parser both do) so that the
    model's `allow_inf_nan=False` reports them as field errors with a position.

    Example:
        >>> parse('{"amount": 99}')
        {'amount': 99}
    """
    check_limits(text)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PayloadError(_explain(exc), exc.lineno, exc.colno) from None
    except RecursionError:  # pragma: no cover - depth is checked first
        raise PayloadError("The payload nests too deeply.", code="too_deep") from None


def _explain(exc: json.JSONDecodeError) -> str:
    hint = {
        "Expecting property name enclosed in double quotes": (
            "keys need double quotes, and a trailing comma before } is not allowed"
        ),
        "Expecting value": "a value is missing here (or a trailing comma / single quote)",
        "Extra data": "there is text after the JSON object ended",
        "Unterminated string starting at": "a string is missing its closing quote",
        "Invalid control character at": "control characters must be escaped (\\n, \\t)",
    }.get(exc.msg, "")
    return f"Invalid JSON: {exc.msg}" + (f" — {hint}" if hint else "") + "."


def _lone_surrogate(text: str) -> int | None:
    raw = _RAW_SURROGATE.search(text)
    if raw:
        return raw.start()
    if "\\u" not in text:
        return None
    pending_high: int | None = None  # offset of a high surrogate waiting for its low half
    previous_end = -1
    for match in _ESCAPE.finditer(text):
        unit = int(match.group(1), 16) if match.group(1) else -1
        adjacent = match.start() == previous_end
        if pending_high is not None and not (adjacent and 0xDC00 <= unit <= 0xDFFF):
            return pending_high
        if pending_high is not None:
            pending_high = None
        elif 0xD800 <= unit <= 0xDBFF:
            pending_high = match.start()
        elif 0xDC00 <= unit <= 0xDFFF:
            return match.start()
        previous_end = match.end()
    return pending_high


def _long_number(text: str) -> re.Match[str] | None:
    candidates = list(_LONG_NUMBER.finditer(text))
    if not candidates:
        return None
    strings = [m.span() for m in _STRING_OR_BRACKET.finditer(text) if m.group()[0] == '"']
    for candidate in candidates:
        if not any(start < candidate.start() < end for start, end in strings):
            return candidate
    return None


def _check_depth(text: str) -> None:
    depth = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        char = match.group()[0]
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise PayloadError(
                    f"The payload nests deeper than {MAX_DEPTH} levels; flatten it.",
                    *line_col(text, match.start()),
                    code="too_deep",
                )
        elif char in "]}":
            depth -= 1


class SourceMap:
    """Finds where a JSON path sits in the text, indexing each container once, lazily.

    Skipping a value uses the C decoder (`raw_decode`), so locating 2,000 error paths
    in a large payload stays linear.

    Example:
        >>> SourceMap('{"items": [{"sku": "x"}]}').locate(("items", 0, "sku"))
        (('items', 0, 'sku'), 19)
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._decoder = json.JSONDecoder()
        self._children: dict[int, dict[str | int, int]] = {}
        self._flat: dict[int, int] = {}  # offset -> end of objects holding no container
        self._root = _WS.match(text, 0).end()

    def locate(self, loc: Sequence[str | int]) -> tuple[tuple[str | int, ...], int]:
        """Follow `loc` as far as the text goes: (segments that exist, offset of last one).

        Segments that are not keys/indices in the text (union tags such as `'ai'` or
        `'str'`) are skipped, so the returned segments form the real JSON path.
        """
        offset = self._root
        path: list[str | int] = []
        for segment in loc:
            children = self._children.get(offset)
            if children is None:
                end = self._flat.get(offset)
                if end is not None and type(segment) is str:
                    value_at = self._flat_key(offset, end, segment)
                    if value_at is not None:
                        offset = value_at
                        path.append(segment)
                        continue
                children = self._index(offset)
            key = segment if not isinstance(segment, bool) else None
            if key is not None and key in children:
                offset = children[key]
                path.append(segment)
        return tuple(path), offset

    def index_all(self) -> None:
        """Index every container in one pass over the tokens (for many lookups at once).

        Lazy `_index` calls re-decode each container they skip; with thousands of errors
        one C-speed token scan plus a stack is cheaper. Only for text that is valid JSON.
        """
        text, children = self.text, self._children
        stack: list[list] = []  # [offset, children, is_array, next index]
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
                frame = [match.start(), {}, char == "[", 0]
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
        member, after, skip_value = _MEMBER.match, _AFTER.match, self._decoder.scan_once
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
                pos = _WS.match(text, offset + 1).end()
                while (found := member(text, pos)) is not None:
                    key = found.group(1)
                    if "\\" in key:
                        key = _scanstring(text, found.start() + 1)[0]
                    value_at = found.end()
                    children[key] = value_at
                    pos = after(text, skip_value(text, value_at)[1]).end()
            elif opener == "[":
                pos = _WS.match(text, offset + 1).end()
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
