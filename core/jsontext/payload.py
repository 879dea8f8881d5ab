"""Payload text -> JSON value, with limits; source positions come from `SourceMap`."""

from __future__ import annotations

import json
import math
import re
from itertools import accumulate
from operator import sub
from typing import Any

from core.errors import CodedError, ErrorCode
from core.jsontext.scan import VALUE, tokens
from core.jsontext.source_map import SourceMap
from core.words import count

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_DIGITS",
    "MAX_PAYLOAD_BYTES",
    "PayloadError",
    "SourceMap",
    "check_depth",
    "check_limits",
    "check_shape",
    "json_writable",
    "line_col",
    "parse",
]

MAX_PAYLOAD_BYTES = 2_000_000
# Containers deep, counting the top-level object: the most Pydantic's JSON parser reads
# into a value of any type (201 gives "recursion limit exceeded"), so both agree on what is
# too deep. Inside a typed field it may read deeper; the limit is the one that always holds.
MAX_DEPTH = 200
# Digits in an integer: where Pydantic's JSON parser ("number out of range") and Python's
# int() stop, so the Validate page's fast path and `parse` agree on what is too long.
# Fractions and exponents of any length parse (to a float) in both, so they are not counted.
MAX_NUMBER_DIGITS = 4300

# A prefilter only (it also finds digits inside strings): the tokens decide.
# For _deepest: the bytes that are not brackets or quotes; a bracket's step + 1
_NOT_MARK = bytes(byte for byte in range(256) if byte not in b'[]{}"')
_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")
_LONG_DIGITS = re.compile(f"[0-9]{{{MAX_NUMBER_DIGITS + 1}}}")
_INTEGER_PART = re.compile(r"-?[0-9]*")  # matches at the start of any token
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)", re.S)
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


class PayloadError(CodedError, ValueError):
    """The text is not a JSON payload we accept; `line`/`col` are 1-based.

    `code` is stable: json_syntax, empty, too_large, too_deep, number_too_long,
    lone_surrogate.
    """

    def __init__(
        self, message: str, line: int = 1, col: int = 1, *, code: ErrorCode = ErrorCode.JSON_SYNTAX
    ):
        super().__init__(code, message)
        self.line = line
        self.col = col

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
            "The payload is empty: paste a JSON object, or press Reset for the example.",
            code=ErrorCode.EMPTY,
        )
    size = (
        len(text)
        if len(text) * 4 <= MAX_PAYLOAD_BYTES
        else len(text.encode("utf-8", "surrogatepass"))
    )
    if size > MAX_PAYLOAD_BYTES:
        raise PayloadError(
            f"The payload is {count(size, 'byte')}; the limit is {MAX_PAYLOAD_BYTES:,}. "
            "Remove items or shorten long strings.",
            code=ErrorCode.TOO_LARGE,
        )


def check_limits(text: str) -> None:
    """`check_shape`, plus nesting depth, overlong numbers and lone surrogates.

    Example:
        >>> try:
        ...     check_limits('{"n": ' + "9" * 5000 + "}")
        ... except PayloadError as exc:
        ...     print(exc.code, exc.line, exc.col)
        number_too_long 1 7
    """
    check_shape(text)
    check_depth(text)
    long_number = _long_number(text)
    if long_number:
        digits = _integer_digits(long_number.group())
        whole = long_number.group().lstrip("-").isdigit()
        raise PayloadError(
            f"{'An integer' if whole else 'The integer part of a number'} has "
            f"{count(digits, 'digit')}; the limit is {MAX_NUMBER_DIGITS:,}. Shorten it or send "
            "it as a string.",
            *line_col(text, long_number.start()),
            code=ErrorCode.NUMBER_TOO_LONG,
        )
    lone_at = _lone_surrogate(text)
    if lone_at is not None:
        raise PayloadError(
            "A lone UTF-16 surrogate (\\ud800-\\udfff without its pair) is not a "
            "character; remove it or complete the surrogate pair.",
            *line_col(text, lone_at),
            code=ErrorCode.LONE_SURROGATE,
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
        comma = _trailing_comma(exc)
        if comma is not None:
            raise PayloadError(_TRAILING[exc.doc[exc.pos]], *line_col(text, comma)) from None
        stray = _stray_comma(exc)
        if stray is not None:
            raise PayloadError(stray, exc.lineno, exc.colno) from None
        raise PayloadError(_explain(exc), exc.lineno, exc.colno) from None
    except RecursionError:  # pragma: no cover - depth is checked first
        raise PayloadError("The payload nests too deeply.", code=ErrorCode.TOO_DEEP) from None


_TRAILING = {
    bracket: f"Invalid JSON: a comma after the {last} — JSON allows none before {bracket}; "
    "remove this comma."
    for bracket, last in (("}", "object's last member"), ("]", "array's last item"))
}


def _trailing_comma(exc: json.JSONDecodeError) -> int | None:
    """The offset of a comma right before the } or ] the parser stopped at, if there is one.

    The parser stops at the bracket; the person fixing it looks for the comma.
    """
    if exc.doc[exc.pos : exc.pos + 1] not in ("}", "]"):
        return None
    before = _before_stop(exc)
    return len(before) - 1 if before.endswith(",") else None


def _stray_comma(exc: json.JSONDecodeError) -> str | None:
    """What to fix when the parser stopped at a comma right after another comma, or right
    after an opening { or [ (its message there, "Expecting property name enclosed in double
    quotes" or "Expecting value", points at quotes or a missing value instead)."""
    if exc.doc[exc.pos : exc.pos + 1] != ",":
        return None
    before = _before_stop(exc)[-1:]
    if before == ",":
        return "Invalid JSON: two commas in a row — remove this one."
    if before in ("{", "["):
        first = "member" if before == "{" else "item"
        return f"Invalid JSON: a comma before the first {first} — remove this comma."
    return None


def _before_stop(exc: json.JSONDecodeError) -> str:
    """The text before the point the parser stopped at, without the whitespace there."""
    return exc.doc[: exc.pos].rstrip(" \t\n\r")


def _explain(exc: json.JSONDecodeError) -> str:
    hint = {
        "Expecting property name enclosed in double quotes": (
            "keys need double quotes, and a trailing comma before } is not allowed"
        ),
        "Expecting value": (
            "no JSON value starts here: one is missing, or a string lacks its double quotes, or "
            "a comma trails the last item"
        ),
        "Extra data": "there is text after the JSON object ended",
        "Unterminated string starting at": "a string is missing its closing quote",
        "Invalid control character at": "control characters must be escaped (\\n, \\t)",
        "Expecting ',' delimiter": (
            "a comma is missing before this point (or a number starts with 0, like 01)"
        ),
        "Expecting ':' delimiter": "a colon is missing between a key and its value",
    }.get(exc.msg, "")
    if exc.msg.startswith("Unexpected UTF-8 BOM"):
        return (
            "Invalid JSON: the text starts with an invisible byte-order mark (U+FEFF) — delete "
            "the first character, or save the file as UTF-8 without BOM."
        )
    if exc.msg != "Extra data" and not exc.doc[exc.pos :].strip():
        hint = "the text ends before the JSON does: complete it or close the open { and ["
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


def _integer_digits(token: str) -> int:
    """How many digits the integer part of a number token has."""
    match = _INTEGER_PART.match(token)
    return len(match.group().lstrip("-")) if match else 0


def _long_number(text: str) -> re.Match[str] | None:
    """The first number token whose integer part has more than MAX_NUMBER_DIGITS digits."""
    if _LONG_DIGITS.search(text) is None:
        return None
    for token in tokens(text, values=True):
        if token.lastgroup == VALUE and len(token.group()) > MAX_NUMBER_DIGITS:
            if _integer_digits(token.group()) > MAX_NUMBER_DIGITS:
                return token
    return None


def _deepest(text: str) -> int:
    """How deep the brackets outside strings nest, in C-speed passes: escape pairs out (a run
    of backslashes pairs from its left, as JSON reads it), everything but brackets and quotes
    out, the strings left between the quotes out, then a running sum of +1 per opening and
    -1 per closing bracket.

    Example:
        >>> _deepest('{"a": [[1], {"b": "[[[\\\\\\"{"}]}')
        3
    """
    kept = text.replace("\\\\", "").replace('\\"', "") if "\\" in text else text
    marks = kept.encode("utf-8", "surrogatepass").translate(None, _NOT_MARK)
    # The runs between quotes alternate outside, inside, outside...: the even ones are kept
    # (a split, not a regex: 10,000 strings are one C call, not 10,000 matches); an unclosed
    # last string stays with its quote, as a string regex leaves text it cannot match.
    runs = marks.split(b'"')
    outside = runs[::2]
    if len(runs) % 2 == 0:
        outside.append(b'"' + runs[-1])
    steps = b"".join(outside).translate(_STEP)  # each bracket: 2 opens, 0 closes
    return max(map(sub, accumulate(steps), range(1, len(steps) + 1)), default=0)


def check_depth(text: str) -> None:
    """Raise PayloadError (too_deep) where the text first nests deeper than MAX_DEPTH.

    Free for most texts: the brackets are only walked when there are more than MAX_DEPTH.
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    if _deepest(text) <= MAX_DEPTH:
        return
    depth = 0  # too deep, or text a string regex misreads: the tokens say exactly where
    for token in tokens(text):  # strings are tokens, so brackets inside them are skipped
        if token.lastgroup is None:
            char = text[token.start()]
            if char == "[" or char == "{":
                depth += 1
                if depth > MAX_DEPTH:
                    raise PayloadError(
                        f"The payload nests deeper than {MAX_DEPTH} levels; flatten it.",
                        *line_col(text, token.start()),
                        code=ErrorCode.TOO_DEEP,
                    )
            elif char != ",":
                depth -= 1


def json_writable(value: Any) -> bool:
    """False when `value` holds a float JSON cannot write (1e999 parses as inf, NaN as nan).

    Example:
        >>> json_writable({"a": [1, 2.5]}), json_writable({"a": [float("inf")]})
        (True, False)
    """
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(map(json_writable, value.values()))
    if isinstance(value, list):
        return all(map(json_writable, value))
    return True
