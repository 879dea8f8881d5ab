"""The form's writes: a value at a field path of the payload, the JSON text rewritten."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.jsontext.payload import parse
from core.jsontext.write import to_text
from ui import keys
from ui.editor.payload import set_payload_text
from ui.validate.form_edits import Path

__all__ = ["edit_payload", "value_at"]


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
