"""Validate payload text or a value against a model -> a Report of positioned FieldError rows."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from pydantic import BaseModel, ValidationError

from core.duplicates import DuplicateKey, duplicate_keys
from core.order import AgentState
from core.paths import PathNames, format_path, format_pointer, truncate
from core.payload import PayloadError, check_shape, parse
from core.source_map import SourceMap

__all__ = ["FieldError", "Report", "validate_text", "validate_value"]

_MISSING_TYPES = frozenset({"missing", "missing_argument", "missing_keyword_only_argument"})
_EAGER_AFTER = 50  # errors; beyond this one full token pass beats lazy per-container decoding
_KEY_TYPES = _MISSING_TYPES | {"extra_forbidden", "unexpected_keyword_argument"}


@dataclass(slots=True)  # not frozen: thousands are built per report and frozen __init__ is slow
class FieldError:
    """One Pydantic error with where it is: path, pointer and 1-based line:col in the text."""

    loc: tuple[str | int, ...]
    path: str
    pointer: str
    type: str
    msg: str
    input: Any
    ctx: dict[str, Any] | None = None
    url: str | None = None
    line: int | None = None
    col: int | None = None

    def to_row(self) -> dict[str, str]:
        """One flat, text-only row for a table or CSV (input truncated, never the payload)."""
        return {
            "path": self.path,
            "pointer": self.pointer,
            "line:col": "" if self.line is None else f"{self.line}:{self.col}",
            "type": self.type,
            "message": self.msg,
            "input": truncate(self.input),
            "ctx": "" if not self.ctx else truncate(self.ctx, 120),
            "docs": self.url or "",
        }


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

    def to_errors(self) -> list[dict[str, Any]]:
        """The errors in Pydantic's `errors()` shape (JSON-safe)."""
        out = []
        for error in self.errors:
            item: dict[str, Any] = {"type": error.type, "loc": list(error.loc), "msg": error.msg}
            item["input"] = error.input
            if error.ctx:
                item["ctx"] = error.ctx
            if error.url:
                item["url"] = error.url
            out.append(item)
        return json.loads(json.dumps(out, ensure_ascii=False, default=str))

    def to_csv(self) -> str:
        """The table rows as CSV text."""
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=list(FieldError.__dataclass_fields__)[1:])
        writer.writeheader()
        for error in self.errors:
            row = error.to_row()
            writer.writerow(
                {
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
        from core.fastapi_body import fastapi_422_body

        return fastapi_422_body(self.model, self.text if self.text is not None else self.raw)


def validate_text(text: str, model: type[BaseModel] = AgentState) -> Report:
    """Validate payload text (JSON mode) and position every error in the text.

    Raises nothing: syntax and limit problems come back as `Report.syntax_error`, and an
    exception other than `ValidationError` raised inside the model's own code (langchain's
    message discriminator raises `TypeError` for a dict without "type") becomes one
    `validator_exception` error.

    Example:
        >>> report = validate_text('{"user_id": "not-a-uuid", "amount": 1}')
        >>> [(e.type, e.path, e.line, e.col) for e in report.errors]
        [('uuid_parsing', 'user_id', 1, 13)]
    """
    try:
        check_shape(text)
        # Pydantic's JSON parser rejects overlong numbers, lone surrogates and deep nesting
        # itself (json_invalid), so our scans for those only run on that error.
        return Report(model=model, text=text, value=model.model_validate_json(text))
    except PayloadError as exc:
        return Report(model=model, text=text, syntax_error=exc)
    except ValidationError as exc:
        raw = exc.errors()
        if raw and raw[0]["type"] == "json_invalid":
            try:
                parse(text)
            except PayloadError as syntax:
                return Report(model=model, text=text, syntax_error=syntax)
            syntax = PayloadError(f"Invalid JSON: {raw[0]['msg']}")  # pragma: no cover
            return Report(model=model, text=text, syntax_error=syntax)  # pragma: no cover
        return Report(model=model, text=text, errors=_position(raw, text))
    except Exception as exc:  # noqa: BLE001 - a model's own code may raise anything
        return Report(model=model, text=text, errors=[_crash(exc, 1)])


def validate_value(value: Any, model: type[BaseModel] = AgentState) -> Report:
    """Validate a Python value (Python mode); errors carry paths but no line:col.

    Example:
        >>> [e.type for e in validate_value({"amount": -1}).errors]
        ['missing', 'greater_than_equal']
    """
    try:
        return Report(model=model, raw=value, value=model.model_validate(value))
    except ValidationError as exc:
        errors = [
            _field_error(err, _value_path(err["loc"], value, err["type"])) for err in exc.errors()
        ]
        return Report(model=model, raw=value, errors=errors)
    except Exception as exc:  # noqa: BLE001 - a model's own code may raise anything
        return Report(model=model, raw=value, errors=[_crash(exc, None)])


def _crash(exc: Exception, position: int | None) -> FieldError:
    # Not a ValidationError: Pydantic gives no location, and LangGraph would crash the same way.
    return FieldError(
        loc=(),
        path="(root)",
        pointer="",
        type="validator_exception",
        msg=f"Validation itself raised {type(exc).__name__}: {exc}",
        input=None,
        line=position,
        col=position,
    )


def _field_error(
    err: dict[str, Any],
    segments: tuple[str | int, ...],
    line: int | None = None,
    col: int | None = None,
    names: Callable[[tuple[str | int, ...]], tuple[str, str]] | None = None,
) -> FieldError:
    if names is None:
        path, pointer = format_path(segments), format_pointer(segments)
    else:
        path, pointer = names(segments)
    get = err.get  # positional, in field order: thousands are built per report
    return FieldError(
        tuple(err["loc"]),
        path,
        pointer,
        err["type"],
        err["msg"],
        get("input"),
        get("ctx"),
        get("url"),
        line,
        col,
    )


def _position(raw: list[dict[str, Any]], text: str) -> list[FieldError]:
    source = SourceMap(text)
    if len(raw) > _EAGER_AFTER:
        source.index_all()
    located = []
    for err in raw:
        loc = err["loc"]
        found, offset = source.locate(loc)
        segments = _with_key(found, loc, err["type"])
        if err["type"] in _KEY_TYPES and found and found[-1] == loc[-1]:
            found, offset = source.locate(found[:-1])  # the enclosing object, as documented
        located.append((segments, offset))
    positions = source.line_col([offset for _, offset in located])
    names = PathNames()
    return [
        _field_error(err, segments, line, col, names)
        for err, (segments, _), (line, col) in zip(raw, located, positions, strict=True)
    ]


def _with_key(found: tuple[str | int, ...], loc: tuple, type_: str) -> tuple[str | int, ...]:
    # A missing key is not in the text, but it is the field the user must add.
    if type_ in _MISSING_TYPES and loc and (not found or found[-1] != loc[-1]):
        return (*found, loc[-1])
    return found


def _value_path(loc: tuple, value: Any, type_: str) -> tuple[str | int, ...]:
    found: list[str | int] = []
    node = value
    for segment in loc:
        if isinstance(node, dict) and segment in node:
            node = node[segment]
        elif isinstance(node, list | tuple) and isinstance(segment, int) and segment < len(node):
            node = node[segment]
        elif isinstance(node, BaseModel) and isinstance(segment, str) and hasattr(node, segment):
            node = getattr(node, segment)
        else:
            continue  # union tags and other schema-only segments
        found.append(segment)
    return _with_key(tuple(found), loc, type_)
