"""The retry lab's output model (the article's Answer and Citation shapes, described in our own
words) and its editable constraints."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from typing import Any

from annotated_types import Ge, Le, MinLen
from pydantic import BaseModel, Field, ValidationError, create_model

from core.jsontext.write import number_literal
from core.order.variants import class_source, field_args, model_fields, replace_once

__all__ = [
    "Answer",
    "AnswerConstraints",
    "Citation",
    "answer_model",
    "answer_source",
    "full_errors",
]


class Citation(BaseModel):
    source: str = Field(description="Where the quote was found, such as pg or cache")
    quote: str = Field(description="The cited text, word for word")


class Answer(BaseModel):
    answer: str = Field(description="A short, direct answer to the question")
    citations: list[Citation] = Field(min_length=1, description="At least one checkable citation")
    confidence: float = Field(ge=0, le=1, description="How sure the answer is, from 0 to 1")


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
    # Derived from the class, field by field: only the constraints the page edits change.
    fields = model_fields(Answer)
    fields["citations"] = field_args(
        Answer.model_fields["citations"], {MinLen: MinLen(c.min_citations)}
    )
    fields["confidence"] = field_args(
        Answer.model_fields["confidence"], {Ge: Ge(c.confidence_min), Le: Le(c.confidence_max)}
    )
    variant: type[BaseModel] = create_model("Answer", **fields)
    return variant


def answer_source(constraints: AnswerConstraints | None = None) -> str:
    """Python source of the output model for these constraints, for display.

    The classes as this module writes them, with the bounds the constraints set.

    Example:
        >>> "min_length=1," in answer_source()
        True
    """
    c = constraints or AnswerConstraints()
    ge, le = number_literal(c.confidence_min), number_literal(c.confidence_max)
    answer = replace_once(
        class_source(sys.modules[__name__], "Answer"),
        r"(\n    citations: .*?\bmin_length=)[^,)]+",
        rf"\g<1>{c.min_citations}",
    )
    answer = replace_once(
        answer, r"(\n    confidence: .*?\bge=)[^,)]+(, le=)[^,)]+", rf"\g<1>{ge}\g<2>{le}"
    )
    return f"{class_source(sys.modules[__name__], 'Citation')}\n\n\n{answer}\n"


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
