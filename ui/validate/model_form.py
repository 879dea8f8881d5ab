"""Form view of any model's payload, generated from its JSON Schema, in sync with the JSON text."""

from __future__ import annotations

import json
import re
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.jsontext.payload import json_writable, parse
from core.jsontext.write import dumps, to_text
from core.validate.json_schema import field_kind, json_schema
from ui import keys
from ui.payload import NOT_A_FLOAT, form_payload, set_payload_text, show_refusal
from ui.text import plain

__all__ = ["model_form"]

_UNSET = "(unset)"
Path = tuple[str, ...]
_KEY_UNSAFE = re.compile(r"[^A-Za-z0-9_]")
# Bumped whenever the JSON text changes; only the table editors' keys carry it. The text's
# hash (compared within one server process only) stands for the text, saving a second copy.
_VERSION, _SEEN = "mform_version", "mform_seen_hash"


def _shown(value: Any) -> str:
    return value if isinstance(value, str) else dumps(value)


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


def _refuse(where: str) -> None:
    st.session_state["mform__notice"] = where


def _percent(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8", "surrogatepass"))


def _key(path: Path, kind: str = "field") -> str:
    """A stable widget key per field path, distinct for every path and every `kind`.

    Each segment keeps letters, digits and `_`; any other character (the `-` separator
    included) becomes its UTF-8 bytes as `%XX`, so `("a__b",)`, `("a", "b")` and
    `("a-b",)` never share a key. The kind ("field", "box", "table") prefixes it, so a
    container never takes a field's key. Tests and Playwright can spell keys from paths.
    """
    escaped = (_KEY_UNSAFE.sub(_percent, segment) for segment in path)
    return f"mform_{kind}-" + "-".join(escaped)


def _edit(path: Path, value: Any, drop: bool = False) -> None:
    payload = parse(st.session_state[keys.PAYLOAD])
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
    if not json_writable(value):
        _refuse(f"{'.'.join(map(str, path))} = {raw}")
        return
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
    if not json_writable(new):
        _refuse(f"{'.'.join(map(str, path))}: a cell holds a number JSON cannot write")
        st.session_state[_VERSION] = st.session_state.get(_VERSION, 0) + 1  # editor afresh
        return
    _edit(path, new)


def _fields(node: dict[str, Any], root: dict[str, Any], value: dict[str, Any], path: Path) -> None:
    required = set(node.get("required", []))
    for name, sub in node.get("properties", {}).items():
        _field(sub, root, value, (*path, name), name in required)


def _field(
    sub: dict[str, Any], root: dict[str, Any], parent: dict[str, Any], path: Path, required: bool
) -> None:
    kind, node = field_kind(sub, root)
    name, key = path[-1], _key(path)
    label = plain(name) if required else f"{plain(name)} (optional)"
    present = name in parent
    current = parent.get(name)
    if kind == "object" and (isinstance(current, dict) or not present):
        with st.container(border=True, key=_key(path, "box")):
            st.caption(f"{label}: nested model {plain(str(node.get('title', '')))}")
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
    columns = {name: field_kind(sub, root)[0] for name, sub in item.get("properties", {}).items()}
    frame = pd.DataFrame(
        [
            {c: _shown(row[c]) if c in row else "" for c in columns}
            if isinstance(row, dict)
            else dict.fromkeys(columns, _shown(row))
            for row in rows
        ],
        columns=list(columns),
    ).astype("string")
    st.caption(f"{label}: a list of {plain(str(item.get('title', 'objects')))} (one row each)")
    # The editor keeps its edits as a diff against the frame it was given: a new key per JSON
    # version applies them once, then starts afresh on the rewritten rows.
    editor_key = f"{_key(path, 'table')}-v{st.session_state[_VERSION]}"
    st.data_editor(
        frame,
        key=editor_key,
        num_rows="dynamic",
        on_change=_apply_table,
        args=(path, editor_key, rows, columns),
    )


def model_form(text: str, model: type[BaseModel]) -> None:
    """Widgets for every field of `model`; each edit rewrites the JSON text (key `payload`).

    Widget keys depend on the field path only: `mform_field-<path>` (see `_key`). A list of
    objects is a data editor keyed `mform_table-<path>-v<N>`, N being
    `st.session_state["mform_version"]`: 0 for the first text, bumped whenever the JSON
    text changes, so applied edits are never replayed onto the rewritten rows.
    """
    payload = form_payload(text)
    if payload is None:
        return
    st.caption(
        "Generated from the model's JSON Schema. Text fields stay strings; other fields are "
        "read as JSON (numbers, true/false, lists). Leave an optional field empty to leave it out."
    )
    ss = st.session_state
    show_refusal("mform__notice", NOT_A_FLOAT)
    if ss.get(_SEEN) != hash(text):
        ss[_VERSION], ss[_SEEN] = ss.get(_VERSION, -1) + 1, hash(text)
    schema = json_schema(model)
    _fields(schema, schema, payload, ())
