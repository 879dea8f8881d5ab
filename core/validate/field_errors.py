"""One Pydantic error -> a FieldError row: its path, pointer and line:col in the text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from core.jsontext.paths import PathNames
from core.jsontext.source_map import SourceMap
from core.jsontext.write import truncate

__all__ = [
    "FieldError",
    "crash_error",
    "error_rows",
    "payload_path",
    "place_in_text",
    "position_errors",
    "value_errors",
]

_MISSING_TYPES = frozenset({"missing", "missing_argument", "missing_keyword_only_argument"})
_EAGER_AFTER = 50  # errors; beyond this one full token pass beats lazy per-container decoding
_UNKNOWN_KEY_TYPES = frozenset({"extra_forbidden", "unexpected_keyword_argument"})


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

    @property
    def identity(self) -> tuple[str, str]:
        """What makes two errors one, in every view (the table, the editor's marks, the
        annotated text, the exports): where in the payload and which rule. Two verdicts'
        errors with one identity are one error, whatever their messages say.

        Example:
            >>> FieldError(("a", 0), "a[0]", "/a/0", "int_parsing", "...", "x").identity
            ('a[0]', 'int_parsing')
        """
        return (self.path, self.type)

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


def error_rows(exc: ValidationError) -> list[dict[str, Any]]:
    """Pydantic's error dicts, typed as the plain rows the functions here take (no copy)."""
    return cast("list[dict[str, Any]]", exc.errors())


def crash_error(
    exc: BaseException,
    loc: tuple[str | int, ...] = (),
    input: Any = None,
    by: str = "validator",
) -> dict[str, Any]:
    """The raw error row for a part whose validation raised something other than ValidationError.

    Pydantic gives such an exception no location (and LangGraph crashes the same way), so
    `loc` is where core.validate.crashes pinned it: the smallest part of the payload that raises.
    `by` is who raised: "validator" (Pydantic alone) or "langgraph" (its entry: a reducer
    such as add_messages, or the model the first node's input is built with). Place it like
    any Pydantic error (`position_errors` or `value_errors`).

    Example:
        >>> crash_error(TypeError("no type"), ("messages", 0), {"content": "x"})["msg"]
        'Validation itself raised TypeError: no type'
    """
    who = "Validation itself" if by == "validator" else "LangGraph's entry"
    said = " ".join(str(exc).split())  # one line: a table cell, a terminal row
    return {
        "type": f"{by}_exception",
        "loc": loc,
        "msg": f"{who} raised {type(exc).__name__}: {said}",
        "input": input,
    }


def payload_path(loc: tuple[str | int, ...], value: Any) -> tuple[str | int, ...]:
    """The part of an error's `loc` that names places in `value` (union tags left out).

    Example:
        >>> payload_path(("messages", 0, "human", "content"), {"messages": [{"content": 1}]})
        ('messages', 0, 'content')
    """
    return _value_path(loc, value, "")


def position_errors(raw: list[dict[str, Any]], text: str) -> list[FieldError]:
    """FieldErrors for JSON-mode errors, each placed in `text` (one SourceMap for all)."""
    source = SourceMap(text)
    if len(raw) > _EAGER_AFTER:
        source.index_all()
    places: list[tuple[str | int, ...]] = []
    offsets: list[int] = []
    # hot: 2,000 errors per report, a few Python steps each
    walked = source.walk_all([err["loc"] for err in raw])
    for err, (found, offset, found_last) in zip(raw, walked, strict=True):
        loc, type_ = err["loc"], err["type"]
        if type_ in _MISSING_TYPES:
            if loc and not found_last:  # see _with_key
                found = (*found, loc[-1])
            elif found_last and found and isinstance(found[-1], str):  # the enclosing object
                offset = source.walk(found[:-1])[1]
        elif type_ in _UNKNOWN_KEY_TYPES and found_last and found and isinstance(found[-1], str):
            offset = source.key_offset(offset)  # the key itself: the value may be anything
        places.append(found)
        offsets.append(offset)
    return _field_errors(raw, places, source.line_col(offsets))


def _field_errors(
    raw: list[dict[str, Any]],
    places: list[tuple[str | int, ...]],
    positions: Sequence[tuple[int | None, int | None]] | None = None,
) -> list[FieldError]:
    """One FieldError per raw row, at its place (the path found) and line:col if given."""
    names = PathNames()
    if positions is None:
        positions = [(None, None)] * len(raw)
    out: list[FieldError] = []
    append = out.append
    for err, segments, (line, col) in zip(raw, places, positions, strict=True):
        path, pointer = names(segments)
        get = err.get  # positional, in field order: thousands are built per report
        append(
            FieldError(
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
        )
    return out


def _with_key(
    found: tuple[str | int, ...], loc: tuple[str | int, ...], type_: str, found_last: bool
) -> tuple[str | int, ...]:
    # A missing key is not in the text, but it is the field the user must add. (Its parent
    # may have the same name: whether the last segment was found is asked, not compared.)
    if type_ in _MISSING_TYPES and loc and not found_last:
        return (*found, loc[-1])
    return found


def value_errors(raw: list[dict[str, Any]], value: Any) -> list[FieldError]:
    """FieldErrors for Python-mode errors: paths through `value`, no line:col."""
    return _field_errors(raw, [_value_path(err["loc"], value, err["type"]) for err in raw])


def _value_path(loc: tuple[str | int, ...], value: Any, type_: str) -> tuple[str | int, ...]:
    found: list[str | int] = []
    found_last = False
    node = value
    for segment in loc:
        found_last = False
        if isinstance(node, dict) and segment in node:
            node = node[segment]
        elif isinstance(node, list | tuple) and isinstance(segment, int) and segment < len(node):
            node = node[segment]
        elif isinstance(node, BaseModel) and isinstance(segment, str) and hasattr(node, segment):
            node = getattr(node, segment)
        else:
            continue  # union tags and other schema-only segments
        found.append(segment)
        found_last = True
    return _with_key(tuple(found), loc, type_, found_last)


def place_in_text(errors: list[FieldError], text: str) -> list[FieldError]:
    """Errors of a Python value given line:col in the JSON text the value was parsed from.

    Example:
        >>> from core.validate.report import validate_value
        >>> errors = validate_value({"user_id": "x", "amount": 1}).errors
        >>> placed = place_in_text(errors, '{"user_id": "x", "amount": 1}')
        >>> [(e.path, e.line, e.col) for e in placed]
        [('user_id', 1, 13)]
    """
    raw = [
        {"loc": e.loc, "type": e.type, "msg": e.msg, "input": e.input, "ctx": e.ctx, "url": e.url}
        for e in errors
    ]
    return position_errors(raw, text)
