"""The form's edits as data, without Streamlit: widget text -> JSON values, table edits -> rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from core.errors import ErrorCode
from core.jsontext.payload import PayloadError, json_writable, parse
from core.jsontext.write import dumps
from ui.validate.form_json import looks_like_json, placed, read_json

__all__ = ["Shape", "TableEdit", "apply_table", "json_or_nothing", "shown", "typed"]

Path = tuple[str, ...]


class Shape(NamedTuple):
    """What a field's schema says of its values, for how its box's text is read."""

    container: bool  # a list or an object
    untyped: bool  # no type named: Any, a union, a key the model does not declare


def json_or_nothing(raw: str, kind: str, shape: Shape) -> bool:
    """Whether a box's text is written as JSON or not at all, never as a string the model
    would call the wrong type (or, naming no type, take): a list's or an object's text, and
    text that starts as one where the field names no type. A scalar field (a number, say)
    takes its text as typed, and the model names what is wrong with it.

    Example:
        >>> number, anything = Shape(False, False), Shape(False, True)
        >>> json_or_nothing("[1,", "json", number), json_or_nothing("[1,", "json", anything)
        (False, True)
    """
    return kind != "text" and (shape.container or shape.untyped and looks_like_json(raw))


def shown(value: Any) -> str:
    """A JSON value as a form shows it: a string as itself, anything else as JSON text."""
    return value if isinstance(value, str) else dumps(value)


def typed(text: Any, kind: str) -> Any:
    """Widget text -> JSON value: text fields stay strings; others are JSON when they parse
    within the payload's limits (a list nested too deep stays the text typed).

    Example:
        >>> typed("42", "text"), typed("42", "json"), typed("4 2", "json")
        ('42', 42, '4 2')
    """
    if not isinstance(text, str):
        return text
    if kind == "text":
        return text
    try:
        return parse(text)
    except ValueError:
        return text  # kept as typed: the field's errors say what is wrong with it (where
        # text is JSON or nothing, json_or_nothing says so and form_json.read_json reads it)


@dataclass(frozen=True)
class TableEdit:
    """A table editor's edits applied to the rows it was given."""

    rows: list[Any]  # what the JSON text gets
    refused: list[str] = field(default_factory=list)  # the cells left out, and why


_NAMED_NO_TYPE = Shape(container=False, untyped=True)  # a column whose schema is not given


def _cell(
    row: dict[str, Any], column: str, raw: Any, kind: str, shape: Shape, where: str
) -> str | None:
    """Write one cell into `row`; a cleared cell leaves the key out. Returns a refusal."""
    if raw is None or raw == "":
        row.pop(column, None)  # the model's "Field required" names a cleared required cell
        return None
    if json_or_nothing(raw, kind, shape):
        try:
            value = read_json(raw)
        except PayloadError as exc:
            why = "not JSON" if exc.code == ErrorCode.JSON_SYNTAX else "refused"
            return f"{where}.{column} = {raw}  ({why}: {placed(exc)}: {exc.message})"
    else:
        value = typed(raw, kind)
    if not json_writable(value):
        return f"{where}.{column} = {raw}  (beyond what a float holds)"
    row[column] = value
    return None


def apply_table(
    base: list[Any],
    edits: dict[str, Any],
    columns: dict[str, str],
    where: str,
    shapes: Mapping[str, Shape] | None = None,
) -> TableEdit:
    """The rows a data editor shows: `base` with its edit state (`edited_rows`,
    `added_rows`, `deleted_rows`) applied, each cell typed by its column's kind and read
    as a form box is (`json_or_nothing`, by its column's shape in `shapes`; a column not
    there names no type).

    A new row is written once a cell holds something (a click on the add-row line adds an
    empty one). A cell JSON cannot write, a cell whose text is JSON or nothing but not JSON,
    or an edit to a row that is not an object, is left out and named in `refused`; the
    editor keeps showing it, so nothing typed is lost.

    Example:
        >>> edit = apply_table([{"a": 1}], {"added_rows": [{"a": "2"}, {}]}, {"a": "json"}, "t")
        >>> edit.rows, edit.refused
        ([{'a': 1}, {'a': 2}], [])
    """
    shapes = shapes or {}
    rows = [dict(row) if isinstance(row, dict) else row for row in base]
    refused: list[str] = []
    for index, changes in sorted(edits.get("edited_rows", {}).items(), key=lambda e: int(e[0])):
        row = rows[int(index)] if int(index) < len(rows) else None
        if not isinstance(row, dict):
            refused.append(f"{where}[{index}] = {dumps(row)}  (not an object: edit it as JSON)")
            continue
        for column, raw in changes.items():
            kind, shape = columns.get(column, "json"), shapes.get(column, _NAMED_NO_TYPE)
            refused.append(_cell(row, column, raw, kind, shape, f"{where}[{index}]") or "")
    for offset, added in enumerate(edits.get("added_rows", [])):
        row = {}
        at = f"{where}[{len(base) + offset}]"
        for column, kind in columns.items():
            shape = shapes.get(column, _NAMED_NO_TYPE)
            refused.append(_cell(row, column, added.get(column), kind, shape, at) or "")
        if row:
            rows.append(row)
    for index in sorted((int(i) for i in edits.get("deleted_rows", [])), reverse=True):
        if index < len(base):
            del rows[index]
    return TableEdit(rows, [why for why in refused if why])
