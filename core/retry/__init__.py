"""Structured-output retry lab: run a model script through PydanticAI or a LangGraph loop."""

from __future__ import annotations

from typing import Any

from core.errors import ErrorCode
from core.retry.answer import Answer, AnswerConstraints, Citation, answer_model, answer_source
from core.retry.script import (
    MAX_CALLS,
    MAX_RETRIES,
    PRESETS,
    Preset,
    RetryInputError,
    check_script,
    load_script,
)
from core.retry.timeline import Attempt, RetryRun, RunError

__all__ = [
    "ENGINES",
    "MAX_CALLS",
    "MAX_RETRIES",
    "PRESETS",
    "Answer",
    "AnswerConstraints",
    "Attempt",
    "Citation",
    "Preset",
    "RetryRun",
    "RunError",
    "RetryInputError",
    "answer_model",
    "answer_source",
    "check_constraints",
    "check_script",
    "load_script",
    "run_script",
]

ENGINES: dict[str, str] = {
    "pydantic_ai": "PydanticAI (Agent + FunctionModel)",
    "langgraph": "LangGraph (StateGraph loop)",
}


def run_script(
    script: list[dict[str, Any]],
    *,
    engine: str,
    retries: int = 1,
    constraints: AnswerConstraints | None = None,
) -> RetryRun:
    """Play `script` as the model on one engine and return the whole run.

    Args:
        script: model turns (see `core.retry.script`); the last one repeats when they run out.
        engine: "pydantic_ai" or "langgraph".
        retries: output retry budget, 0 to MAX_RETRIES (PydanticAI's default is 1).
        constraints: the output model's constraints; None keeps the article's `Answer`.

    Raises:
        RetryInputError: `retry_engine`, `retry_budget`, `retry_constraints` or a script
            shape error, saying how to fix it.

    Example:
        >>> run = run_script([{"answer": {"answer": "x", "citations": []}}], engine="langgraph")
        >>> run.calls, run.error.message
        (2, 'Exceeded maximum output retries (1)')
    """
    if engine not in ENGINES:
        raise RetryInputError(
            ErrorCode.RETRY_ENGINE, f"unknown engine {engine!r}; use one of {sorted(ENGINES)}"
        )
    if isinstance(retries, bool) or not isinstance(retries, int) or not 0 <= retries <= MAX_RETRIES:
        raise RetryInputError(
            ErrorCode.RETRY_BUDGET, f"retries must be a whole number from 0 to {MAX_RETRIES}"
        )
    check_constraints(constraints or AnswerConstraints())
    model = answer_model(constraints)
    check_script(script)
    if engine == "pydantic_ai":
        # The engine module imports pydantic_ai inside its function, so this stays cheap.
        from core.retry.pydantic_ai_engine import run_with_pydantic_ai

        return run_with_pydantic_ai(script, retries=retries, model=model)
    from core.retry.langgraph_engine import run_with_langgraph

    return run_with_langgraph(script, retries=retries, model=model)


def check_constraints(c: AnswerConstraints) -> None:
    """Raise RetryInputError (retry_constraints) for bounds the answer model cannot take.

    Example:
        >>> check_constraints(AnswerConstraints(confidence_min=1.0, confidence_max=0.0))
        Traceback (most recent call last):
        ...
        core.retry.script.RetryInputError: confidence ge must not be above le; lower ge or raise le
    """
    if not 0 <= c.min_citations <= 5:
        raise RetryInputError(
            ErrorCode.RETRY_CONSTRAINTS, "citations min_length must be from 0 to 5"
        )
    if not c.confidence_min <= c.confidence_max:
        raise RetryInputError(
            ErrorCode.RETRY_CONSTRAINTS, "confidence ge must not be above le; lower ge or raise le"
        )
