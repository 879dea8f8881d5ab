"""The form's writes: a value at a field path of the payload, the JSON text rewritten."""

from __future__ import annotations

from typing import Any, NamedTuple

import streamlit as st

from core.jsontext.payload import PayloadError, json_writable, parse
from core.jsontext.write import to_text
from ui import keys
from ui.editor.payload import set_payload_text
from ui.validate.form_drafts import Draft, hold, release
from ui.validate.form_edits import Path, Shape, json_or_nothing, shown, typed
from ui.validate.form_json import looks_like_json, read_json

__all__ = ["UNSET", "Box", "apply_field", "edit_payload", "value_at"]

UNSET = "(unset)"  # a picker's choice for an optional field left out


def edit_payload(path: Path, value: Any, *, drop: bool = False) -> None:
    """Set (or, with `drop`, remove) the payload's value at `path`; call from a callback."""
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


def value_at(path: Path) -> Any:
    """The payload's value at `path` (None where the path does not lead anywhere)."""
    node: Any = parse(st.session_state[keys.PAYLOAD])
    for segment in path:
        node = node.get(segment) if isinstance(node, dict) else None
    return node


class Box(NamedTuple):
    """What a field's box was drawn with, for its callback."""

    now: str  # the box's text for the field's value in the JSON text
    # A list or an object (by its schema or its value), and whether its schema names a type
    shape: Shape


def apply_field(path: Path, kind: str, required: bool, options: list[Any] | None, box: Box) -> None:
    """A field's box was changed: its value written at `path`, or the edit refused and
    held (text that is not JSON, or that the payload's limits refuse) or named (a number
    JSON cannot write)."""
    raw = st.session_state[keys.field_key(path)]
    release(path)
    if raw == UNSET or (not required and (raw == "" or box.shape.container and not raw.strip())):
        edit_payload(path, None, drop=True)  # an optional field left empty is left out
        return
    if options:
        value = next((o for o in options if shown(o) == raw), raw)
    elif json_or_nothing(raw, kind, box.shape):
        try:
            value = read_json(raw)
        except PayloadError as exc:
            string_too = box.shape.untyped and looks_like_json(raw)
            hold(path, Draft(raw, box.now, exc, string_too))  # the field keeps its value
            return
    else:
        value = typed(raw, kind)
    if not json_writable(value):
        where = ".".join(path)
        st.session_state[keys.field_key(path, "notice")] = f"{where} = {raw}"
        return
    edit_payload(path, value)
