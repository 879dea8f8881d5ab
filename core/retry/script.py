"""Model scripts for the retry lab: the turn format, its checks, and the presets."""

from __future__ import annotations

import json
import math
import re
from typing import Any

from core.errors import CodedError, ErrorCode
from core.jsontext.payload import PayloadError, check_limits, line_col
from core.jsontext.scan import NUMBER, VALUE, tokens
from core.order.presets import Preset

__all__ = [
    "MAX_CALLS",
    "MAX_RETRIES",
    "MAX_SCRIPT_BYTES",
    "MAX_TURNS",
    "PRESETS",
    "QUESTION",
    "SEARCH_RESULT",
    "SYSTEM_PROMPT",
    "Preset",
    "RetryInputError",
    "check_script",
    "load_script",
    "search",
    "turn_at",
]

MAX_TURNS = 20
MAX_RETRIES = 5
# Both engines stop asking the model after this many calls (a script of searches never ends).
MAX_CALLS = 10
MAX_SCRIPT_BYTES = 20_000
# check_limits codes -> this lab's (too_deep stays a shape error, as before).
_LIMIT_CODES = {
    ErrorCode.LONE_SURROGATE: ErrorCode.RETRY_SCRIPT_SURROGATE,
    ErrorCode.NUMBER_TOO_LONG: ErrorCode.RETRY_SCRIPT_NUMBER,
}
# The lab's conversation, the same on both engines: one stored chunk the search tool finds, a
# system prompt that asks for a search and a citation, and the question (the article's setup,
# in our own words).
SEARCH_RESULT = ["[pg] The order service stores its data in PostgreSQL 17.11."]
SYSTEM_PROMPT = "Search before you answer, and cite the passage your answer rests on."
QUESTION = "Which Postgres version does the order service use?"


class RetryInputError(CodedError, ValueError):
    """Input the lab cannot run (script, budget, constraints); `code` is stable, line/col point
    into the script's JSON text. `str()` is the message alone: the page shows it as is."""

    def __init__(
        self, code: ErrorCode, message: str, line: int | None = None, col: int | None = None
    ):
        super().__init__(code, message)
        self.line, self.col = line, col

    def __str__(self) -> str:
        return self.message


def _preset(
    title: str, summary: str, script: list[dict[str, Any]], retries: int = 1
) -> Preset[list[dict[str, Any]]]:
    """A retry preset: its script is the value; its budget the `retries` option."""
    return Preset(title, summary, script, options={"retries": retries})


def search(query: str) -> list[str]:
    """The lab's stand-in retriever: every query finds the same chunk.

    Example:
        >>> search("postgres")
        ['[pg] The order service stores its data in PostgreSQL 17.11.']
    """
    return list(SEARCH_RESULT)


def turn_at(script: list[dict[str, Any]], call: int) -> dict[str, Any]:
    """The turn for model call `call` (0-based); the last turn repeats when the script runs out.

    Example:
        >>> turn_at([{"text": "a"}, {"text": "b"}], 5)
        {'text': 'b'}
    """
    return script[min(call, len(script) - 1)]


class _Constant(ValueError):
    """NaN, Infinity or -Infinity in the text: Python's json reads them, JSON has none."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def _reject_constant(name: str) -> float:
    raise _Constant(name)


_NUMBER = re.compile(NUMBER).fullmatch


def _values(text: str) -> list[re.Match[str]]:
    """The numbers and literals of `text` (never what is inside a string), in order."""
    return [token for token in tokens(text, values=True) if token.lastgroup == VALUE]


def _overflow_at(text: str) -> int | None:
    """Offset of the first number json.loads would read as infinity (1e400), if any."""
    return next(
        (
            token.start()
            for token in _values(text)
            if _NUMBER(token.group())
            and any(c in token.group() for c in ".eE")
            and math.isinf(float(token.group()))
        ),
        None,
    )


def _constant_at(text: str, name: str) -> int:
    """Offset of the first `name` outside a string: the constant json.loads stopped at."""
    # `[NaNx]`: json.loads reads NaN, then our hook stops it before it sees the x.
    return next((t.start() for t in _values(text) if t.group().startswith(name)), 0)


def load_script(text: str) -> list[dict[str, Any]]:
    """Parse and check a script written as JSON text.

    Raises:
        RetryInputError: `retry_script_json` with the line and column of a syntax error or
            of a NaN/Infinity, `retry_script_surrogate` with those of a lone UTF-16 surrogate
            (neither engine can encode one), `retry_script_number` with those of an integer
            too long to read, or a shape error (too deep, with its position, or from
            `check_script`).

    Example:
        >>> load_script('[{"text": "hi"}]')
        [{'text': 'hi'}]
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SCRIPT_BYTES:
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_SIZE, f"the script is over {MAX_SCRIPT_BYTES} bytes; shorten it"
        )
    if not text.strip():
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_JSON,
            "the script is empty; write a JSON list of turns or pick a preset",
        )
    try:
        # First: depth, overlong integers and lone surrogates, each with its position, before
        # json.loads or the checks below walk the value (a deep one would exhaust the stack).
        check_limits(text)
    except PayloadError as exc:
        code = _LIMIT_CODES.get(ErrorCode(exc.code), ErrorCode.RETRY_SCRIPT_SHAPE)
        message = exc.message.replace("The payload", "The script", 1)  # the limit's words
        raise RetryInputError(code, message, exc.line, exc.col) from exc
    overflow = _overflow_at(text)
    if overflow is not None:
        line, col = line_col(text, overflow)
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_NUMBER,
            f"a number at line {line}, column {col} is too large for a float and would become "
            "Infinity; write a smaller one",
            line,
            col,
        )
    try:
        value = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        why = exc.msg
        if why.startswith("Unexpected UTF-8 BOM"):  # Python's advice; the user sees nothing
            why = "the text starts with an invisible byte-order mark (U+FEFF); delete it"
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_JSON,
            f"invalid JSON at line {exc.lineno}, column {exc.colno}: {why}",
            exc.lineno,
            exc.colno,
        ) from exc
    except _Constant as exc:
        line, col = line_col(text, _constant_at(text, exc.name))
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_JSON,
            f"invalid JSON at line {line}, column {col}: {exc.name} is not JSON; write a "
            "number such as 0.5",
            line,
            col,
        ) from exc
    return check_script(value)


def check_script(value: Any) -> list[dict[str, Any]]:
    """Check that `value` is a list of turns in the format docs/architecture.md fixes ("The
    Retry lab's script format"); return it.

    Raises:
        RetryInputError: `retry_script_shape` naming the turn and how to fix it.

    Example:
        >>> check_script([{"tool": "search", "args": {"query": "pg"}}])[0]["tool"]
        'search'
    """
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_TURNS:
        raise RetryInputError(
            ErrorCode.RETRY_SCRIPT_SHAPE,
            f"the script must be a JSON list of 1 to {MAX_TURNS} turns",
        )
    for number, turn in enumerate(value, start=1):
        problem = _turn_problem(turn)
        if problem:
            raise RetryInputError(ErrorCode.RETRY_SCRIPT_SHAPE, f"turn {number}: {problem}")
    return value


def _turn_problem(turn: Any) -> str | None:
    shapes = (
        'use {"tool": "search", "args": {"query": "..."}}, {"answer": {...}} or {"text": "..."}'
    )
    if not isinstance(turn, dict):
        return f"a turn is a JSON object; {shapes}"
    keys = sorted(turn)
    if keys == ["answer"]:
        if not isinstance(turn["answer"], dict):
            return "answer must be a JSON object (the final_result tool's arguments)"
        return _number_problem(turn["answer"])
    if keys == ["text"]:
        return None if isinstance(turn["text"], str) else "text must be a string"
    if keys == ["args", "tool"]:
        if turn["tool"] != "search":
            return 'the only tool is "search"'
        args = turn["args"]
        if not (
            isinstance(args, dict) and list(args) == ["query"] and isinstance(args["query"], str)
        ):
            # A bad search call would draw on the separate tool budget; keep to output retries.
            return 'search args must be {"query": "<text>"}'
        return None
    return f"unexpected keys {keys}; {shapes}"


def _number_problem(value: Any) -> str | None:
    if isinstance(value, float) and not math.isfinite(value):
        return "numbers must be finite"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 10**15:
        return "numbers must be at most 10**15 in size"
    children = (
        value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    )
    return next((p for p in map(_number_problem, children) if p), None)


_VALID = {
    "answer": "PostgreSQL 17.11",
    "citations": [
        {"source": "pg", "quote": "The order service stores its data in PostgreSQL 17.11."}
    ],
    "confidence": 0.8,
}
_EMPTY_CITATIONS = {"answer": "17.11", "citations": [], "confidence": 0.9}

PRESETS: dict[str, Preset[list[dict[str, Any]]]] = {
    "article": _preset(
        "The article's three-step script",
        "Call search, answer with empty citations, then answer validly: 3 model calls.",
        [
            {"tool": "search", "args": {"query": "postgres"}},
            {"answer": _EMPTY_CITATIONS},
            {"answer": _VALID},
        ],
    ),
    "always_invalid": _preset(
        "Always invalid",
        "Every answer has empty citations and no confidence; the budget runs out.",
        [{"answer": {"answer": "x", "citations": []}}],
    ),
    "two_retries": _preset(
        "Invalid, invalid, then valid (2 retries allowed)",
        "Two bad answers need a budget of 2; with the default 1 the run fails.",
        [
            {"answer": _EMPTY_CITATIONS},
            {"answer": {**_VALID, "confidence": 1.7}},
            {"answer": _VALID},
        ],
        retries=2,
    ),
    "plain_text": _preset(
        "Plain text instead of a tool call",
        "The model writes prose instead of calling final_result, then answers properly.",
        [{"text": "It uses PostgreSQL 17.11."}, {"answer": _VALID}],
    ),
    "confidence": _preset(
        "Confidence 1.7",
        "confidence is outside [0, 1]; the second answer is valid.",
        [{"answer": {**_VALID, "confidence": 1.7}}, {"answer": _VALID}],
    ),
    "empty_citations": _preset(
        "Empty citations",
        "citations is an empty list (min_length=1); the second answer is valid.",
        [{"answer": _EMPTY_CITATIONS}, {"answer": _VALID}],
    ),
    "wrong_types": _preset(
        "Wrong field types",
        "answer is a number, citations a string, confidence a word; then a valid answer.",
        [{"answer": {"answer": 42, "citations": "pg", "confidence": "high"}}, {"answer": _VALID}],
    ),
}
