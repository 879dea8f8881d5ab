"""The form's edits as data, without Streamlit: widget text -> JSON values, table edits -> rows."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from core.jsontext.payload import PayloadError, json_writable
from core.jsontext.write import dumps
from ui.validate.form_json import looks_like_json, read_json

__all__ = ["TableEdit", "apply_table", "shown", "typed"]

Path = tuple[str, ...]


def shown(value: Any) -> str:
    """A JSON value as a form shows it: a string as itself, anything else as JSON text."""
    return value if isinstance(value, str) else dumps(value)


def typed(text: Any, kind: str) -> Any:
    """Widget text -> JSON value: text fields stay strings; others are JSON when they parse.

    Example:
        >>> typed("42", "text"), typed("42", "json"), typed("4 2", "json")
        ('42', 42, '4 2')
    """
    if not isinstance(text, str):
        return text
    if kind == "text":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text  # kept as typed: the field's errors say what is wrong with it (text that
        # starts as a list or an object is JSON or nothing: form_json.read_json reads it)


@dataclass(frozen=True)
class TableEdit:
    """A table editor's edits applied to the rows it was given."""

    rows: list[Any]  # what the JSON text gets
    refused: list[str] = field(default_factory=list)  # the cells left out, and why


def _cell(row: dict[str, Any], column: str, raw: Any, kind: str, where: str) -> str | None:
    """Write one cell into `row`; a cleared cell leaves the key out. Returns a refusal."""
    if raw is None or raw == "":
        row.pop(column, None)  # the model's "Field required" names a cleared required cell
        return None
    if kind != "text" and looks_like_json(raw):  # a list or an object: JSON or nothing
        try:
            value = read_json(raw)
        except PayloadError as exc:
            said = f"line {exc.line}, column {exc.col} [{exc.code}]: {exc.message}"
            return f"{where}.{column} = {raw}  (not JSON: {said})"
    else:
        value = typed(raw, kind)
    if not json_writable(value):
        return f"{where}.{column} = {raw}  (beyond what a float holds)"
    row[column] = value
    return None


def apply_table(
    base: list[Any], edits: dict[str, Any], columns: dict[str, str], where: str
) -> TableEdit:
    """The rows a data editor shows: `base` with its edit state (`edited_rows`,
    `added_rows`, `deleted_rows`) applied, each cell typed by its column's kind.

    A new row is written once a cell holds something (a click on the add-row line adds an
    empty one). A cell JSON cannot write, a cell that starts as a list or an object but is
    not JSON, or an edit to a row that is not an object, is left out and named in `refused`;
    the editor keeps showing it, so nothing typed is lost.

    Example:
        >>> edit = apply_table([{"a": 1}], {"added_rows": [{"a": "2"}, {}]}, {"a": "json"}, "t")
        >>> edit.rows, edit.refused
        ([{'a': 1}, {'a': 2}], [])
    """
    rows = [dict(row) if isinstance(row, dict) else row for row in base]
    refused: list[str] = []
    for index, changes in sorted(edits.get("edited_rows", {}).items(), key=lambda e: int(e[0])):
        row = rows[int(index)] if int(index) < len(rows) else None
        if not isinstance(row, dict):
            refused.append(f"{where}[{index}] = {dumps(row)}  (not an object: edit it as JSON)")
            continue
        for column, raw in changes.items():
            kind = columns.get(column, "json")
            refused.append(_cell(row, column, raw, kind, f"{where}[{index}]") or "")
    for offset, added in enumerate(edits.get("added_rows", [])):
        row = {}
        at = f"{where}[{len(base) + offset}]"
        for column, kind in columns.items():
            refused.append(_cell(row, column, added.get(column), kind, at) or "")
        if row:
            rows.append(row)
    for index in sorted((int(i) for i in edits.get("deleted_rows", [])), reverse=True):
        if index < len(base):
            del rows[index]
    return TableEdit(rows, [why for why in refused if why])
