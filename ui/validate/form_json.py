"""A form box's text read as JSON, or a coded error that says where it stops and what to add.

Without Streamlit. A box for a list, an object or a field of any type takes JSON; text that
does not parse is refused here rather than written into the payload as a string (which the
model then reports as the wrong type, never as the JSON it was meant to be).
"""

from __future__ import annotations

import json
from typing import Any

from core.errors import ErrorCode
from core.jsontext.payload import PayloadError, line_col, parse
from core.jsontext.scan import tokens
from core.words import joined

__all__ = ["WHOLE_TEXT", "looks_like_json", "placed", "read_json"]

_CLOSER = {"[": "]", "{": "}"}
# Refusals of the text as a whole: their line and column (1, 1) point at nothing.
WHOLE_TEXT = (ErrorCode.TOO_LARGE, ErrorCode.EMPTY)


def looks_like_json(text: str) -> bool:
    """True for text that starts as a JSON array or object: nothing else reads it as a string.

    Example:
        >>> looks_like_json(' [1,'), looks_like_json('1e3'), looks_like_json('')
        (True, False, False)
    """
    return text.lstrip()[:1] in ("[", "{")


def placed(error: PayloadError) -> str:
    """Where `error` is and its code, as the form names them: `line 1, column 4
    [json_syntax]`, or only `[too_large]` for a refusal of the whole text.

    Example:
        >>> placed(PayloadError("Too big.", code=ErrorCode.TOO_LARGE))
        '[too_large]'
    """
    if error.code in WHOLE_TEXT:
        return f"[{error.code}]"
    return f"line {error.line}, column {error.col} [{error.code}]"


def read_json(text: str) -> Any:
    """The JSON value `text` holds; PayloadError (`json_syntax`, or `empty` for a box with
    nothing in it) when it holds none, with where (`line`, `col` in `text`) and what to
    change. Text that stops early is told exactly what closes it.

    Example:
        >>> read_json('[{"a": 1}]')
        [{'a': 1}]
        >>> try:
        ...     read_json('[{"type": "human", "content": "hi"')
        ... except PayloadError as exc:
        ...     print(exc.code, exc.line, exc.col, exc.message)
        json_syntax 1 35 Invalid JSON: the text ends before the JSON does; still open: [ at \
line 1, column 1 and { at line 1, column 2. Add }] at the end to close them.
    """
    if not text.strip():
        raise PayloadError(
            "The box is empty, and an empty box is not JSON: type [] for an empty list or {} "
            "for an empty object.",
            code=ErrorCode.EMPTY,
        )
    try:
        return parse(text)
    except PayloadError as exc:
        if exc.code != ErrorCode.JSON_SYNTAX:
            raise
        hint = _ending(text)
        if hint is None:
            raise
        raise PayloadError(hint, exc.line, exc.col) from None


def _ending(text: str) -> str | None:
    """What to change when `text` stops before its JSON does: the string and the brackets
    still open, where each opened, and (when that makes it JSON) the characters to add."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        stop, unterminated = exc.pos, exc.msg.startswith("Unterminated string")
    else:  # pragma: no cover - called for text that does not parse
        return None
    if not unterminated and text[stop:].strip():
        return None  # it stops in the middle: the parser's own words say what is wrong
    body = text[:stop] if unterminated else text
    stack: list[int] = []  # offsets of the [ and { not yet closed
    for token in tokens(body):
        char = body[token.start()] if token.lastgroup is None else ""
        if char in _CLOSER:
            stack.append(token.start())
        elif char in ("]", "}") and stack:
            stack.pop()
    opened = [(text[at], at) for at in stack]
    if unterminated:
        opened.append(("the string", stop))
    if not opened:
        return None
    still = joined(["{} at line {}, column {}".format(w, *line_col(text, at)) for w, at in opened])
    closing = ('"' if unterminated else "") + "".join(_CLOSER[text[at]] for at in reversed(stack))
    them = "them" if len(opened) > 1 else "it"
    message = f"Invalid JSON: the text ends before the JSON does; still open: {still}."
    if _parses(text + closing):
        return f"{message} Add {closing} at the end to close {them}."
    return f"{message} {_unfinished(text, unterminated)}, then add {closing} to close {them}."


def _unfinished(text: str, unterminated: bool) -> str:
    """What to finish before the closing characters fit: the value after a last `:` or
    comma, an escape a string ends in, or else the key being typed."""
    if text.rstrip().endswith((":", ",")):
        return "Finish the last value (one is missing after the last : or comma)"
    if unterminated and (len(text) - len(text.rstrip("\\"))) % 2:
        return "Finish the escape the string ends in (a \\ needs the character it escapes)"
    quote = "its closing quote, " if unterminated else ""
    return f"Finish what is being typed (a key needs {quote}a colon and a value)"


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True
