"""Form view of any model's payload, generated from its JSON Schema, in sync with the JSON text."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.payload import PayloadError, parse
from core.presets import to_text
from ui.payload import set_payload_text

__all__ = ["model_form"]

_UNSET = "(unset)"
Path = tuple[str, ...]


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        node = root.get("$defs", {}).get(node["$ref"].rsplit("/", 1)[-1], {})
    return node


def _kind(node: dict[str, Any], root: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """(kind, resolved schema): choice, text, json, object or table."""
    node = _resolve(node, root)
    branches = [_resolve(b, root) for b in node.get("anyOf", node.get("oneOf", []))]
    real = [b for b in branches if b.get("type") != "null"]
    if branches and len(real) == 1:
        return _kind(real[0], root)
    if branches:
        return "json", node  # e.g. Decimal: a number or a numeric string
    if "enum" in node or "const" in node or node.get("type") == "boolean":
        return "choice", node
    if node.get("type") == "string":
        return "text", node
    if node.get("type") == "object" and "properties" in node:
        return "object", node
    items = _resolve(node.get("items", {}), root) if node.get("type") == "array" else {}
    if items.get("type") == "object" and "properties" in items:
        return "table", items
    return "json", node


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _typed(text: Any, kind: str) -> Any:
    """Widget text -> JSON value: text fields stay strings; others are JSON when they parse."""
    if not isinstance(text, str):
        return None if pd.isna(text) else text
    if kind == "text":
        return text
    try:
        return json.loads(text)
    except ValueError:
        return text  # kept as typed: the error table says what is wrong with it


def _key(path: Path) -> str:
    return "mform__" + "__".join(path)


def _edit(path: Path, value: Any, drop: bool = False) -> None:
    payload = parse(st.session_state["payload"])
    node = payload
    for segment in path[:-1]:
        if not isinstance(node.get(segment), dict):
            node[segment] = {}
        node = node[segment]
    if drop:
        node.pop(path[-1], None)
    else:
        node[path[-1]] = value
    set_payload_text(to_text(payload))


def _apply(path: Path, kind: str, required: bool, options: list[Any] | None) -> None:
    raw = st.session_state[_key(path)]
    if raw == _UNSET or (raw == "" and not required):
        _edit(path, None, drop=True)  # an optional field left empty is left out
        return
    if options is not None:
        value = next((o for o in options if _shown(o) == raw), raw)
    else:
        value = _typed(raw, kind)
    _edit(path, value)


def _apply_table(path: Path, editor_key: str, rows: list[Any], columns: dict[str, str]) -> None:
    edits = st.session_state[editor_key]
    new = [dict(row) if isinstance(row, dict) else row for row in rows]
    for index, changes in edits.get("edited_rows", {}).items():
        if isinstance(new[int(index)], dict):
            for column, value in changes.items():
                new[int(index)][column] = _typed(value, columns[column])
    for added in edits.get("added_rows", []):
        new.append({c: _typed(added.get(c), k) for c, k in columns.items() if added.get(c)})
    for index in sorted(edits.get("deleted_rows", []), reverse=True):
        del new[int(index)]
    _edit(path, new)


def _fields(node: dict[str, Any], root: dict[str, Any], value: dict[str, Any], path: Path) -> None:
    required = set(node.get("required", []))
    for name, sub in node.get("properties", {}).items():
        _field(sub, root, value, (*path, name), name in required)


def _field(
    sub: dict[str, Any], root: dict[str, Any], parent: dict[str, Any], path: Path, required: bool
) -> None:
    kind, node = _kind(sub, root)
    name, key = path[-1], _key(path)
    label = name if required else f"{name} (optional)"
    present = name in parent
    current = parent.get(name)
    if kind == "object" and (isinstance(current, dict) or not present):
        with st.container(border=True, key=f"{key}__box"):
            st.caption(f"{label}: nested model {node.get('title', '')}")
            _fields(node, root, current or {}, path)
        return
    if kind == "table" and (isinstance(current, list) or not present):
        _table(node, root, current or [], path, label)
        return
    if kind == "choice":
        options = node["enum"] if "enum" in node else [node["const"]] if "const" in node else []
        options = options or [True, False]
        shown = [_shown(o) for o in options] + ([] if required else [_UNSET])
        picked = _shown(current) if present else _UNSET
        st.session_state[key] = picked
        st.selectbox(
            label,
            shown if picked in shown else [*shown, picked],
            key=key,
            on_change=_apply,
            args=(path, kind, required, options),
        )
        return
    st.session_state[key] = _shown(current) if present else ""
    st.text_input(label, key=key, on_change=_apply, args=(path, kind, required, None))


def _table(item: dict[str, Any], root: dict[str, Any], rows: list[Any], path: Path, label: str):
    columns = {name: _kind(sub, root)[0] for name, sub in item.get("properties", {}).items()}
    frame = pd.DataFrame(
        [
            {c: _shown(row[c]) if c in row else "" for c in columns}
            if isinstance(row, dict)
            else dict.fromkeys(columns, _shown(row))
            for row in rows
        ],
        columns=list(columns),
    ).astype("string")
    st.caption(f"{label}: a list of {item.get('title', 'objects')} (one row each)")
    # A new key per content: the editor's pending edits are applied once, then start afresh.
    editor_key = f"{_key(path)}__{abs(hash(to_text(rows))) % 10**12}"
    st.data_editor(
        frame,
        key=editor_key,
        num_rows="dynamic",
        on_change=_apply_table,
        args=(path, editor_key, rows, columns),
    )


def model_form(text: str, model: type[BaseModel]) -> None:
    """Widgets for every field of `model`; each edit rewrites the JSON text (key `payload`)."""
    try:
        payload = parse(text)
    except PayloadError as exc:
        st.info("The form needs valid JSON; fix the text in the JSON tab first.")
        st.code(str(exc), language=None)
        return
    if not isinstance(payload, dict):
        st.info("The form needs a JSON object at the top level.")
        return
    st.caption(
        "Generated from the model's JSON Schema. Text fields stay strings; other fields are "
        "read as JSON (numbers, true/false, lists). Leave an optional field empty to leave it out."
    )
    schema = model.model_json_schema()
    _fields(schema, schema, payload, ())
