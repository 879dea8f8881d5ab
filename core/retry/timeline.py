"""What one retry run looked like: one Attempt row per model call, the outcome and counters."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import BaseModel

from core.jsontext.write import dumps

__all__ = [
    "Attempt",
    "RetryRun",
    "RunError",
    "VERDICT_EXHAUSTED",
    "VERDICT_RETRY",
    "VERDICT_TOOL",
    "VERDICT_VALID",
    "left_out",
    "word_count",
]

VERDICT_TOOL = "tool call: search ran"
VERDICT_VALID = "valid: output accepted"
VERDICT_RETRY = "invalid: feedback sent, retry"
VERDICT_EXHAUSTED = "invalid: budget exhausted, run ends"


def word_count(text: str) -> int:
    """Feedback "tokens" as whitespace-separated words: a simple, model-independent count.

    Example:
        >>> word_count('{"msg": "Field required"}')
        3
    """
    return len(text.split())


def left_out(sent: list[dict[str, Any]], full: list[dict[str, Any]]) -> str:
    """What the full Pydantic errors hold that the errors sent to the model do not.

    Errors are paired by (type, loc); the result is JSON text mapping `loc.type` to the left-out
    keys and their values ("" when nothing is left out).

    Example:
        >>> left_out([{"type": "missing", "loc": ["a"]}],
        ...          [{"type": "missing", "loc": ["a"], "url": "u"}])
        '{"a.missing": {"url": "u"}}'
    """
    sent_by_key = {_pair_key(e): e for e in sent}
    missing: dict[str, dict[str, Any]] = {}
    for error in full:
        key = _pair_key(error)
        kept = sent_by_key.get(key, {})
        extra = {k: v for k, v in error.items() if k not in kept}
        if extra:
            where = ".".join(map(str, error.get("loc", ()))) or "(root)"
            missing[f"{where}.{error.get('type')}"] = extra
    return dumps(missing, default=str) if missing else ""


def _pair_key(error: dict[str, Any]) -> tuple[str, tuple[str, ...]]:
    return str(error.get("type")), tuple(str(p) for p in error.get("loc", ()))


@dataclass(frozen=True)
class Attempt:
    """One model call and what the loop did with it.

    `sent_back` is the exact text the next request carried in reply to this call ("" when the
    run ended here); `part` names the message part that carried it; `errors` are the errors as
    the loop reported them (without url/ctx), `left_out` what Pydantic's full errors add;
    `retries_left` is the budget left on the counter this call drew on (carried forward when a
    call drew on none).
    """

    attempt: int
    returned: str
    verdict: str
    errors: str = ""
    sent_back: str = ""
    part: str = ""
    left_out: str = ""
    retries_left: int = 0

    def to_row(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def counter(self) -> str:
        """The retry counter an invalid call drew on: "run" for a plain-text answer,
        "output tool" for a call of the output tool ("" for a call that drew on none).

        Example:
            >>> Attempt(1, dumps({"text": "hi"}, default=str), VERDICT_RETRY).counter
            'run'
        """
        if self.verdict not in (VERDICT_RETRY, VERDICT_EXHAUSTED):
            return ""
        return "run" if "text" in json.loads(self.returned) else "output tool"


@dataclass(frozen=True)
class RunError:
    """The exception a run ended with: its class name and message."""

    type: str
    message: str


@dataclass
class RetryRun:
    """One engine's run of a script.

    Example:
        >>> RetryRun("langgraph", 1, 0, []).retries_used
        0
    """

    engine: str
    retries: int
    calls: int
    attempts: list[Attempt]
    output: BaseModel | None = None
    error: RunError | None = None
    # Where the framework's messages differ from what the article shows, computed from the run.
    notes: list[str] = field(default_factory=list)
    # The run's own messages, serialized, for anyone who wants to check the timeline by hand.
    messages: list[dict[str, Any]] = field(default_factory=list)
    # The recorded LangGraph run, a core.trace.Trace (engine "langgraph" only).
    trace: Any = None

    @property
    def retries_used(self) -> int:
        return sum(a.verdict == VERDICT_RETRY for a in self.attempts)

    def retries_by_counter(self) -> dict[str, int]:
        """Retries per counter, in the order first drawn on.

        Example:
            >>> RetryRun("langgraph", 1, 0, []).retries_by_counter()
            {}
        """
        used: dict[str, int] = {}
        for a in self.attempts:
            if a.verdict == VERDICT_RETRY:
                used[a.counter] = used.get(a.counter, 0) + 1
        return used

    @property
    def feedback_words(self) -> int:
        return sum(word_count(a.sent_back) for a in self.attempts if a.verdict == VERDICT_RETRY)

    def rows(self) -> list[dict[str, Any]]:
        """The timeline as table rows (one type per column).

        Example:
            >>> RetryRun("langgraph", 1, 0, []).rows()
            []
        """
        return [a.to_row() for a in self.attempts]
