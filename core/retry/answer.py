"""The retry article's output model (Answer with Citations) and its editable constraints."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field, ValidationError, create_model

from core.jsontext.write import number_literal

__all__ = [
    "Answer",
    "AnswerConstraints",
    "Citation",
    "answer_model",
    "answer_source",
    "full_errors",
]


class Citation(BaseModel):
    source: str = Field(description="来源标记，如 pg / cache")
    quote: str = Field(description="被引用的原文片段")


class Answer(BaseModel):
    answer: str = Field(description="对问题的直接回答")
    citations: list[Citation] = Field(min_length=1, description="至少一条可回溯引用")
    confidence: float = Field(ge=0, le=1, description="0~1 的置信度")


@dataclass(frozen=True)
class AnswerConstraints:
    """The constraints the page lets a user change; the defaults are the article's.

    Example:
        >>> AnswerConstraints().min_citations
        1
    """

    min_citations: int = 1
    confidence_min: float = 0.0
    confidence_max: float = 1.0


def answer_model(constraints: AnswerConstraints | None = None) -> type[BaseModel]:
    """The output model for these constraints: the article's `Answer` itself for the defaults.

    The variant keeps the class name `Answer` so error titles and the output tool schema read the
    same as with the article's model.

    Example:
        >>> answer_model() is Answer
        True
        >>> answer_model(AnswerConstraints(min_citations=2)).__name__
        'Answer'
    """
    c = constraints or AnswerConstraints()
    if c == AnswerConstraints():
        return Answer
    fields = Answer.model_fields
    return create_model(
        "Answer",
        answer=(str, Field(description=fields["answer"].description)),
        citations=(
            list[Citation],
            Field(min_length=c.min_citations, description=fields["citations"].description),
        ),
        confidence=(
            float,
            Field(
                ge=c.confidence_min,
                le=c.confidence_max,
                description=fields["confidence"].description,
            ),
        ),
    )


def answer_source(constraints: AnswerConstraints | None = None) -> str:
    """Python source of the output model for these constraints, for display.

    Example:
        >>> "min_length=1" in answer_source()
        True
    """
    c = constraints or AnswerConstraints()
    ge, le = number_literal(c.confidence_min), number_literal(c.confidence_max)
    return (
        "class Citation(BaseModel):\n"
        "    source: str\n"
        "    quote: str\n\n\n"
        "class Answer(BaseModel):\n"
        "    answer: str\n"
        f"    citations: list[Citation] = Field(min_length={c.min_citations})\n"
        f"    confidence: float = Field(ge={ge}, le={le})\n"
    )


def full_errors(
    model: type[BaseModel], returned: Any, *, as_json_text: bool
) -> list[dict[str, Any]]:
    """Every error Pydantic reports for `returned`, with `url` and `ctx`, as JSON-safe dicts.

    Tool-call arguments are validated as Python values and plain text as JSON, the way
    PydanticAI validates them; an empty list means the value is valid.

    Example:
        >>> [e["type"] for e in full_errors(Answer, {"answer": "x"}, as_json_text=False)]
        ['missing', 'missing']
    """
    try:
        if as_json_text:
            model.model_validate_json(returned)
        else:
            model.model_validate(returned)
    except ValidationError as exc:
        # .json() rather than .errors(): ctx may hold objects that are not JSON values.
        errors: list[dict[str, Any]] = json.loads(exc.json())
        return errors
    return []
