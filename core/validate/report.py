"""Validate payload text or a value against a model -> a Report of positioned FieldError rows."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from core.jsontext.duplicates import DuplicateKey, duplicate_keys
from core.jsontext.payload import PayloadError, check_depth, check_shape, parse
from core.jsontext.write import dumps
from core.order import AgentState
from core.validate.crashes import in_payload_order, pin_crashes, without
from core.validate.field_errors import (
    FieldError,
    crash_error,
    error_rows,
    payload_path,
    place_in_text,
    position_errors,
    value_errors,
)

__all__ = ["FieldError", "Report", "gate_disagrees", "validate_text", "validate_value"]


@dataclass
class Report:
    """The outcome of validating one payload against one model."""

    model: type[BaseModel]
    text: str | None = None
    syntax_error: PayloadError | None = None
    errors: list[FieldError] = field(default_factory=list)
    value: BaseModel | None = None
    raw: Any = None

    @property
    def ok(self) -> bool:
        return self.syntax_error is None and not self.errors

    @cached_property
    def input(self) -> Any:
        """The parsed JSON value (or the Python value given), None on a syntax error."""
        if self.text is None:
            return self.raw
        if self.syntax_error is not None:
            return None
        try:
            return parse(self.text)
        except PayloadError:  # a value Pydantic accepts but Python's json refuses (huge ints)
            return None

    @cached_property
    def duplicates(self) -> list[DuplicateKey]:
        """Keys an object of the text repeats (only the last value of each is validated)."""
        if self.text is None or self.syntax_error is not None:
            return []
        return duplicate_keys(self.text)

    def to_rows(self) -> list[dict[str, str]]:
        """Table rows, one per error."""
        return [error.to_row() for error in self.errors]

    def to_errors(self, by: Sequence[str] | None = None) -> list[dict[str, Any]]:
        """The errors in Pydantic's `errors()` shape, JSON-safe; with `by` (one entry per
        error: who rejects it), each also has a `rejected_by` key.

        Strictly so: a NaN or infinite input becomes the string "NaN", "Infinity" or
        "-Infinity" (Pydantic's own `.json()` writes bare NaN tokens, which JSON parsers refuse).
        """
        out = []
        for n, error in enumerate(self.errors):
            item: dict[str, Any] = {"type": error.type, "loc": list(error.loc), "msg": error.msg}
            item["input"] = error.input
            if error.ctx:
                item["ctx"] = error.ctx
            if error.url:
                item["url"] = error.url
            if by is not None:
                item["rejected_by"] = by[n]
            out.append(item)
        rows: list[dict[str, Any]] = json.loads(dumps(out, default=str), parse_constant=str)
        return rows

    def to_csv(self, by: Sequence[str] | None = None) -> str:
        """The table rows as CSV text; with `by` (one entry per error: who rejects it), a
        `rejected_by` column first."""
        buffer = io.StringIO()
        fields = list(FieldError.__dataclass_fields__)[1:]
        writer = csv.DictWriter(
            buffer, fieldnames=fields if by is None else ["rejected_by", *fields]
        )
        writer.writeheader()
        for n, error in enumerate(self.errors):
            row = error.to_row()
            writer.writerow(
                ({} if by is None else {"rejected_by": by[n]})
                | {
                    "path": row["path"],
                    "pointer": row["pointer"],
                    "type": row["type"],
                    "msg": row["message"],
                    "input": row["input"],
                    "ctx": row["ctx"],
                    "url": row["docs"],
                    "line": error.line if error.line is not None else "",
                    "col": error.col if error.col is not None else "",
                }
            )
        return buffer.getvalue()

    def to_fastapi(self) -> dict[str, Any]:
        """The body FastAPI sends with status 422 for a `body: Model` endpoint.

        FastAPI parses with `json.loads` and validates in Python mode, so this re-validates
        the text that way rather than reusing the JSON-mode errors.
        """
        from core.validate.fastapi_body import fastapi_422_body

        return fastapi_422_body(self.model, self.text if self.text is not None else self.raw)


def validate_text(text: str, model: type[BaseModel] = AgentState) -> Report:
    """Validate payload text (JSON mode) and position every error in the text.

    Raises nothing: syntax and limit problems come back as `Report.syntax_error`, and an
    exception other than `ValidationError` raised inside the model's own code (langchain's
    message discriminator raises `TypeError` for a dict without "type") becomes a
    `validator_exception` error at the smallest part that raises it (`messages[0]`), with
    every other field error still reported.

    Example:
        >>> report = validate_text('{"user_id": "not-a-uuid", "amount": 1}')
        >>> [(e.type, e.path, e.line, e.col) for e in report.errors]
        [('uuid_parsing', 'user_id', 1, 13)]
    """
    try:
        check_shape(text)
        # Inside a typed field Pydantic's parser reads deeper than MAX_DEPTH: the limit holds
        # on every page only if it is checked first (free unless the brackets outnumber it).
        check_depth(text)
        # Pydantic's JSON parser rejects overlong numbers and lone surrogates itself
        # (json_invalid), so our scans for those only run on that error.
        return Report(model=model, text=text, value=model.model_validate_json(text))
    except PayloadError as exc:
        return Report(model=model, text=text, syntax_error=exc)
    except ValidationError as exc:
        raw = error_rows(exc)
        # A raw lone surrogate in the text (not a \ud800 escape) is `string_unicode` at the
        # root, not json_invalid: it is the text that is wrong there too, not a field.
        first = raw[0] if raw else {"type": "", "loc": ()}
        if first["type"] == "json_invalid" or (
            first["type"] == "string_unicode" and not first["loc"]
        ):
            try:
                parse(text)
            except PayloadError as syntax:
                return Report(model=model, text=text, syntax_error=syntax)
            return Report(model=model, text=text, syntax_error=_parser_error(raw[0]["msg"]))
        return Report(model=model, text=text, errors=position_errors(raw, text))
    except Exception:  # noqa: BLE001 - a model's own code may raise anything
        errors = _pinned(parse(text), lambda v: model.model_validate_json(_dump(v)))
        return Report(model=model, text=text, errors=position_errors(errors, text))


def validate_value(value: Any, model: type[BaseModel] = AgentState) -> Report:
    """Validate a Python value (Python mode); errors carry paths but no line:col.

    Example:
        >>> [e.type for e in validate_value({"amount": -1}).errors]
        ['missing', 'greater_than_equal']
    """
    try:
        return Report(model=model, raw=value, value=model.model_validate(value))
    except ValidationError as exc:
        return Report(model=model, raw=value, errors=value_errors(error_rows(exc), value))
    except Exception:  # noqa: BLE001 - a model's own code may raise anything
        errors = _pinned(value, model.model_validate)
        return Report(model=model, raw=value, errors=value_errors(errors, value))


def _raised(validate: Any, value: Any) -> BaseException | None:
    """`validate(value)`: None when it passes or raises ValidationError, else what it raised."""
    try:
        validate(value)
    except ValidationError:
        return None
    except Exception as exc:  # noqa: BLE001 - a model's own code may raise anything
        return exc
    return None


def _pinned(value: Any, validate: Any) -> list[dict[str, Any]]:
    """Raw error rows for a value whose validation raised: each raising part pinned by
    core.validate.crashes, then the rest validated without those parts (all sorted by place)."""
    pinned = pin_crashes(value, lambda v: _raised(validate, v))
    holes = [crash.loc for crash in pinned.crashes]
    raw: list[dict[str, Any]] = []
    if () not in holes:
        try:
            validate(pinned.rest)
        except ValidationError as exc:
            raw = [e | {"loc": pinned.restore(e["loc"])} for e in error_rows(exc)]
            raw = [e for e in raw if without(payload_path(e["loc"], value), holes)]
    rows = [crash_error(crash.exc, crash.loc, crash.input) for crash in pinned.crashes]
    return in_payload_order(rows + raw, value)


def _dump(value: Any) -> str:
    return dumps(value)


def gate_disagrees(report: Report) -> Report | None:
    """What the graph's gate says of a text this JSON-mode `report` found valid, if it differs.

    The gate (core.trace) validates the parsed value in Python mode, where some types accept
    less than in JSON mode: in strict mode a UUID must be a UUID object, which JSON text
    cannot hold. None when the report has errors or the gate agrees; otherwise a Report of
    the gate's errors, each placed in the text.

    Example:
        >>> from core.order.schema_options import SchemaOptions, build_model
        >>> strict = build_model(SchemaOptions(strict=True))
        >>> text = '{"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1}'
        >>> gate = gate_disagrees(validate_text(text, strict))
        >>> [(e.path, e.type, e.line, e.col) for e in gate.errors]
        [('user_id', 'is_instance_of', 1, 13)]
    """
    if not report.ok or report.input is None or report.text is None:
        return None
    if not _has_strict(report.model):
        return None
    gate = validate_value(report.input, report.model)
    if gate.ok:
        return None
    return Report(
        model=report.model, text=report.text, errors=place_in_text(gate.errors, report.text)
    )


@lru_cache(maxsize=64)  # keyed by model class: server-side models, never user data
def _has_strict(model: type[BaseModel]) -> bool:
    """Whether anything in the model is strict: only then can Python mode refuse what JSON
    mode accepts (a UUID, a date or a Decimal must then be that object, which JSON cannot
    hold), so a valid text costs no second validation otherwise."""
    nodes: list[Any] = [model.__pydantic_core_schema__]
    while nodes:
        node = nodes.pop()
        if isinstance(node, dict):
            if node.get("strict") is True:
                return True
            nodes.extend(node.values())
        elif isinstance(node, list | tuple):
            nodes.extend(node)
    return False


def _parser_error(message: str) -> PayloadError:
    """Pydantic's own json_invalid message, at the line and column it names, said once.

    For a text our checks passed but Pydantic's parser did not (none is known: a safety net).

    Example:
        >>> str(_parser_error("Invalid JSON: recursion limit exceeded at line 2 column 7"))
        'line 2, column 7: Invalid JSON: recursion limit exceeded.'
    """
    at = re.search(r" at line (\d+) column (\d+)", message)
    if at is None:
        return PayloadError(message.rstrip(".") + ".")
    said = message[: at.start()] + message[at.end() :]  # the position goes in line/col only
    return PayloadError(said.rstrip(".") + ".", int(at.group(1)), int(at.group(2)))
