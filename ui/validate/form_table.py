"""A list of models as a grid of plain text inputs in a form of its own: every key typed stays
in its cell, and the cells reach the JSON text when the user applies them.

Streamlit's data editor lost keys typed at a fast typist's pace: the first key after Tab went
nowhere while its next cell's editor opened, at scripted speed three cells' text piled into
one, and its cell editor stayed open on Escape (issue 41, item 8). Plain inputs take every
key the browser gives them, and Tab moves between them natively.
"""

from __future__ import annotations

from html import escape
from pathlib import Path as FilePath
from typing import Any

import streamlit as st

from core.jsontext.write import dumps
from core.validate.json_schema import field_kind
from ui import keys
from ui.text import plain
from ui.validate.form_edits import Path, Shape, apply_table, shown
from ui.validate.form_write import edit_payload, value_at
from ui.validate.names import spoken

__all__ = ["APPLY", "cell_key", "columns_of", "shapes_of", "table_editor", "table_edits"]

APPLY = "Apply to payload"
# Static: the server cannot see edits the browser has not sent, so the note is always there.
_PENDING = (
    f"The table's edits reach the JSON text (and its errors) when you press {APPLY}. "
    "Until then the table keeps them as typed; switching to the JSON view drops them."
)
_REFUSED = (
    "These cells are not in the JSON text; the table keeps them as typed until you change them:"
)
# Our own script (grid_keys.js says what it does); no user text goes into the page.
_SCRIPT = FilePath(__file__).with_name("grid_keys.js").read_text(encoding="utf-8")


def cell_key(path: Path, row: int, column: str) -> str:
    """The widget key of the cell at `row`, `column` of the table at `path`
    (`form-cell-items-0-sku`); the row after the last is the new row's line."""
    return keys.field_key((*path, str(row), column), "cell")


def columns_of(item: dict[str, Any], root: dict[str, Any], rows: list[Any]) -> dict[str, str]:
    """Column -> form kind: the item model's fields, then keys it does not declare (JSON)."""
    props = item.get("properties", {})
    columns = {name: field_kind(sub, root)[0] for name, sub in props.items()}
    for row in rows:
        for name in row if isinstance(row, dict) else ():
            columns.setdefault(name, "json")
    return columns


def shapes_of(
    item: dict[str, Any], root: dict[str, Any], columns: dict[str, str]
) -> dict[str, Shape]:
    """Column -> its shape, as a form field's box reads it: a list or an object by the item
    model's schema, or no type named (a key the model does not declare names none)."""
    props = item.get("properties", {})
    shapes = {}
    for name in columns:
        node = field_kind(props[name], root)[1] if name in props else {}
        shapes[name] = Shape(node.get("type") in ("array", "object"), "type" not in node)
    return shapes


def _shown(row: Any, column: str) -> str:
    """What a cell shows: a row's value at `column` ("" when it has none); a row that is not
    an object shows its value in every column."""
    if not isinstance(row, dict):
        return shown(row)
    return shown(row[column]) if column in row else ""


def table_edits(path: Path, base: list[Any], columns: dict[str, str]) -> dict[str, Any]:
    """The cells' text as a data editor's edit state on `base` (`edited_rows`, `added_rows`,
    `deleted_rows`): what `apply_table` writes. A cell left as shown is no edit; a row whose
    every cell was emptied is dropped."""
    ss = st.session_state
    edited: dict[int, dict[str, str]] = {}
    for row, item in enumerate(base):
        for column in columns:
            typed = ss.get(cell_key(path, row, column), _shown(item, column))
            if typed != _shown(item, column):
                edited.setdefault(row, {})[column] = typed
    added = {column: ss.get(cell_key(path, len(base), column), "") for column in columns}
    dropped = [
        row
        for row, item in enumerate(base)
        if any(_shown(item, column) for column in columns)
        and not any(ss.get(cell_key(path, row, column), _shown(item, column)) for column in columns)
    ]
    return {"edited_rows": edited, "added_rows": [added], "deleted_rows": dropped}


def _fill(path: Path, rows: list[Any], columns: dict[str, str]) -> None:
    """Every cell (and the new row's line, empty) as `rows` say."""
    for row, item in enumerate(rows):
        for column in columns:
            st.session_state[cell_key(path, row, column)] = _shown(item, column)
    for column in columns:
        st.session_state[cell_key(path, len(rows), column)] = ""


def _apply_table(
    path: Path, base: list[Any], columns: dict[str, str], shapes: dict[str, Shape] | None = None
) -> None:
    edits = table_edits(path, base, columns)
    rows = apply_table(base, edits, columns, ".".join(path), shapes).rows
    tables = st.session_state.setdefault(keys.FORM_TABLES, {})
    if edits["deleted_rows"]:  # the rows after a dropped one move up: cells as written
        _fill(path, rows, columns)
    # The cells hold what was typed (a refused cell too): these rows are what they show.
    tables[keys.field_key(path)] = rows
    if dumps(rows) != dumps(value_at(path)):  # an empty new row changes nothing: no rewrite
        edit_payload(path, rows)


def _base(
    path: Path, rows: list[Any], columns: dict[str, str], shapes: dict[str, Shape]
) -> list[Any]:
    """The rows the cells were filled from; when the JSON text holds other rows (changed by
    other means), the cells are filled afresh from those."""
    tables = st.session_state.setdefault(keys.FORM_TABLES, {})
    base: list[Any] | None = tables.get(keys.field_key(path))
    edits = None if base is None else table_edits(path, base, columns)
    written = None if base is None else apply_table(base, edits or {}, columns, "", shapes).rows
    if base is None or dumps(written) != dumps(rows):
        _fill(path, rows, columns)
        tables[keys.field_key(path)] = base = rows
    return base


def table_editor(
    item: dict[str, Any], root: dict[str, Any], rows: list[Any], path: Path, label: str
) -> None:
    """`rows` (a list of `item` models) as a grid of text inputs, one row per item and a
    last line for a new one, in a form of its own with an `Apply to payload` button
    (`form-apply-<path>`): the cells are applied whole to the rows they were filled from
    and written to the JSON text; a cell JSON cannot write stays as typed and is named."""
    columns = columns_of(item, root, rows)
    base = _base(path, rows, columns, shapes_of(item, root, columns))
    columns = columns_of(item, root, base)
    shapes = shapes_of(item, root, columns)
    title = str(item.get("title", "objects"))
    st.caption(
        f"{label}: a list of {plain(title)}, one row each; type a new one on the last line, "
        "empty every cell of a row to drop it"
    )
    with st.form(key=keys.field_key(path, "table"), border=False, enter_to_submit=False):
        # Rows that never stack (st.columns would put a row's cells one under the other on a
        # phone): each cell an equal share of the row, the column's name above it.
        with st.container(key=keys.field_key(path)):
            with st.container(horizontal=True, wrap=False, gap="small"):
                for column in columns:
                    st.caption(plain(column), width="stretch")
            for row in range(len(base) + 1):
                with st.container(horizontal=True, wrap=False, gap="small"):
                    for column in columns:
                        st.text_input(
                            spoken(f"{path[-1]}[{row}].{column}"),  # its accessible name
                            key=cell_key(path, row, column),
                            label_visibility="collapsed",
                        )
        st.caption(_PENDING)
        st.form_submit_button(
            APPLY, key=keys.field_key(path, "apply"), on_click=_apply_table,
            args=(path, base, columns, shapes),
        )  # fmt: skip
    grid = escape(f".st-key-{keys.field_key(path)}", quote=True)
    st.html(
        f'<script data-grid="{grid}" data-columns="{len(columns)}">{_SCRIPT}</script>',
        unsafe_allow_javascript=True,
    )
    if any(not isinstance(row, dict) for row in base):
        st.caption(
            "A row whose item is not an object shows its value in every column; "
            "edit it in the JSON text."
        )
    edits = table_edits(path, base, columns)
    refused = apply_table(base, edits, columns, ".".join(path), shapes).refused
    if refused:
        st.warning(_REFUSED)
        st.code("\n".join(refused), language=None, wrap_lines=True)
