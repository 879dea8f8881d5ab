"""A list of models as a data editor in a form of its own: typed cells reach the JSON text when
the user applies them, so no script run interrupts the typing."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.jsontext.write import dumps
from core.validate.json_schema import field_kind
from ui import keys
from ui.text import plain
from ui.validate.form_edits import Path, apply_table, shown
from ui.validate.form_write import edit_payload, value_at

__all__ = ["APPLY", "columns_of", "table_editor"]

# Per table (by its widget key): the rows its editor was given and a generation that moves
# its key on only when pending edits must be dropped. While the edits it holds are what the
# JSON text says, the editor keeps its data, its key and so its identity (and the focus):
# Streamlit gives a dynamic data editor a new identity, and the browser a new grid, whenever
# its rows change.
APPLY = "Apply to payload"
# Static: the server cannot see edits the browser has not sent, so the note is always there.
_PENDING = (
    f"The table's edits reach the JSON text (and its errors) when you press {APPLY}. "
    "Until then the table keeps them as typed; switching to the JSON view drops them."
)
_REFUSED = (
    "These cells are not in the JSON text; the table keeps them as typed until you change them:"
)


def _apply_table(path: Path, editor_key: str, base: list[Any], columns: dict[str, str]) -> None:
    rows = apply_table(base, st.session_state[editor_key], columns, ".".join(path)).rows
    if dumps(rows) != dumps(value_at(path)):  # an empty new row changes nothing: no rewrite
        edit_payload(path, rows)


def columns_of(item: dict[str, Any], root: dict[str, Any], rows: list[Any]) -> dict[str, str]:
    """Column -> form kind: the item model's fields, then keys it does not declare (JSON)."""
    props = item.get("properties", {})
    columns = {name: field_kind(sub, root)[0] for name, sub in props.items()}
    for row in rows:
        for name in row if isinstance(row, dict) else ():
            columns.setdefault(name, "json")
    return columns


def _frame(columns: dict[str, str], rows: list[Any]) -> pd.DataFrame:
    """What the editor shows: one text column per key, one row per item."""
    return pd.DataFrame(
        [
            {c: shown(row[c]) if c in row else None for c in columns}
            if isinstance(row, dict)
            else dict.fromkeys(columns, shown(row))
            for row in rows
        ],
        columns=list(columns),
        dtype="string",
    )


def _base(item: dict[str, Any], root: dict[str, Any], rows: list[Any], path: Path) -> str:
    """The rows the editor keeps (stored per table) and its key, refreshed when the JSON text
    holds something other than those rows with the editor's edits applied."""
    key, ss = keys.field_key(path), st.session_state
    tables = ss.setdefault(keys.FORM_TABLES, {})
    base, generation = tables.get(key, (None, 0))
    editor_key = keys.generation(key, generation)
    edits = ss.get(editor_key) or {}
    if base is not None:
        columns = columns_of(item, root, base)
        if dumps(apply_table(base, edits, columns, "").rows) == dumps(rows):
            return editor_key
    # The JSON changed by other means: the editor starts afresh on its rows (new rows, a new
    # editor). Rows that look the same would keep its edits in the browser: its key moves on.
    pending = any(edits.get(part) for part in ("edited_rows", "added_rows", "deleted_rows"))
    if pending and base is not None:
        before, after = (_frame(columns_of(item, root, r), r) for r in (base, rows))
        if before.equals(after):
            generation += 1
            editor_key = keys.generation(key, generation)
    tables[key] = (rows, generation)
    return editor_key


def table_editor(
    item: dict[str, Any], root: dict[str, Any], rows: list[Any], path: Path, label: str
) -> None:
    """`rows` (a list of `item` models) as a dynamic data editor keyed `form_<path>`.

    The editor sits in a form with an `Apply to payload` button (`form-apply-<path>`): the
    edits are applied whole to the rows the editor was given and written to the JSON text; a
    cell JSON cannot write stays in the table as typed and is named under it.
    """
    editor_key = _base(item, root, rows, path)
    base = st.session_state[keys.FORM_TABLES][keys.field_key(path)][0]
    columns = columns_of(item, root, base)
    title = str(item.get("title", "objects"))
    st.caption(f"{label}: a list of {plain(title)} (one row each)")
    # A form of its own: a cell saved by Tab or Enter starts no script run. A run started
    # mid-typing (each save used to start one) redraws the grid under the keys that follow:
    # they went to the wrong cell or were lost (issue 32, item 2). The edits reach the JSON
    # text together, by the form's button.
    with st.form(key=keys.field_key(path, "table"), border=False, enter_to_submit=False):
        st.data_editor(
            _frame(columns, base),
            key=editor_key,
            num_rows="dynamic",
            hide_index=False,
            alt=f"{path[-1]}: a table of {title}, one row each",  # its accessible name
            # In a form no commit starts a run either way; "ignore" also makes the browser
            # hand each commit to the form at once, where it otherwise waits 150 ms: Apply
            # pressed within them (Enter, Escape, Tab, Enter by keyboard) sent the rows
            # without the last cell.
            on_change="ignore",
        )
        st.caption(_PENDING)
        st.form_submit_button(
            APPLY,
            key=keys.field_key(path, "apply"),
            on_click=_apply_table,
            args=(path, editor_key, base, columns),
        )
    if any(not isinstance(row, dict) for row in base):
        st.caption(
            "A row whose item is not an object shows its value in every column; "
            "edit it in the JSON text."
        )
    edits = st.session_state.get(editor_key) or {}
    refused = apply_table(base, edits, columns, ".".join(path)).refused
    if refused:
        st.warning(_REFUSED)
        st.code("\n".join(refused), language=None, wrap_lines=True)
