"""The payload editor: JSON text area with Format / Reset, shared across pages."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from core.jsontext.duplicates import duplicate_keys
from core.jsontext.json_format import reindent
from core.jsontext.payload import MAX_PAYLOAD_BYTES, PayloadError, json_writable, parse
from core.order.presets import SEED_TEXT
from ui import keys

__all__ = [
    "NOT_A_FLOAT",
    "current_payload_text",
    "editor_text",
    "form_payload",
    "payload_editor",
    "set_payload_text",
    "show_refusal",
]

# The editor's own cap sits well above the payload limit: the browser silently drops a paste
# longer than max_chars (the text area keeps its old text, no message), while a payload over
# MAX_PAYLOAD_BYTES reaches the page, stays in the editor and gets the too_large message.
# Four bytes a character at most: the cap still fits the server's websocket message size.
MAX_CHARS = 4 * MAX_PAYLOAD_BYTES


NOT_A_FLOAT = (
    "That number is beyond what a float holds: JSON would get Infinity or NaN, which is not "
    "standard JSON. The edit was not applied; type a smaller number."
)


def show_refusal(notice_key: str, why: str) -> None:
    """`why`, then what an edit callback refused (left under `notice_key`), shown as text."""
    refused = st.session_state.pop(notice_key, None)
    if refused:
        st.warning(why)
        st.code(refused, language=None, wrap_lines=True)


def current_payload_text() -> str:
    """The payload text shared by the pages of this session (the seed order by default)."""
    return st.session_state.get(keys.PAYLOAD_TEXT, SEED_TEXT)


def form_payload(text: str) -> dict | None:
    """The payload as a JSON object for a form view, or None after saying why there is none."""
    try:
        payload = parse(text)
    except PayloadError as exc:
        st.info("The form needs valid JSON; fix the JSON text first.")
        st.code(str(exc), language=None, wrap_lines=True)
        return None
    if not isinstance(payload, dict):
        st.info("The form needs a JSON object at the top level.")
        return None
    # An edit rewrites the whole text from the parsed value: refuse what that would lose.
    # NaN and Infinity written as such come back as written; a number too large for a float
    # (1e400) would come back as Infinity.
    if not json_writable(payload) and not json_writable(_literals_as_zero(text)):
        st.info(
            "The form would rewrite a number too large for a float (like 1e400) as Infinity. "
            "Fix it in the JSON text first."
        )
        return None
    if duplicate_keys(text):
        st.info(
            "The text repeats a key within one object, and the form would keep only its last "
            "value. Remove the repeated key in the JSON text first; the repeated-key warning says "
            "where."
        )
        return None
    return payload


def _literals_as_zero(text: str) -> Any:
    return json.loads(text, parse_constant=lambda _: 0.0)


def set_payload_text(text: str, *, key: str = keys.PAYLOAD) -> None:
    """Replace the editor text; call from a widget callback (before the editor renders)."""
    if key == keys.PAYLOAD:
        st.session_state[keys.PAYLOAD_TEXT] = text
    st.session_state[key] = text


def _format(key: str) -> None:
    text = st.session_state.get(key, "")
    try:
        parse(text)
    except PayloadError as exc:
        st.session_state[f"{key}__notice"] = f"Format JSON needs valid JSON first: {exc}"
        return
    set_payload_text(reindent(text), key=key)  # only the layout changes, never a value


def _reset(key: str, default_text: str) -> None:
    set_payload_text(default_text, key=key)


def _typed(key: str) -> None:
    if key == keys.PAYLOAD:
        st.session_state[keys.PAYLOAD_TEXT] = st.session_state[key]


def editor_text(key: str, default_text: str) -> str:
    """The text the editor `key` holds (and will show), before the editor renders.

    With it a page can validate first and send its results ahead of the editor.
    """
    if key not in st.session_state:
        st.session_state[key] = current_payload_text() if key == keys.PAYLOAD else default_text
    return st.session_state[key]


def payload_editor(key: str, default_text: str, *, height: int = 300) -> str:
    """Render the JSON editor with Format JSON and Reset; return the current text.

    The text is never changed behind the user's back: bad JSON stays as typed. With
    `key=keys.PAYLOAD` the text is the session's shared payload (the Trace page reads it).
    """
    editor_text(key, default_text)
    text = st.text_area(
        "Payload (JSON)",
        key=key,
        persist_state="session",  # the text survives a visit to another page
        height=height,
        max_chars=MAX_CHARS,
        on_change=_typed,
        args=(key,),
        help=f"Paste or edit a JSON object (at most {MAX_PAYLOAD_BYTES:,} bytes). "
        "Press Ctrl+Enter to validate. The counter below counts characters up to the editor's "
        f"own cap ({MAX_CHARS:,}), set higher so that an oversized paste stays here and is "
        "explained.",
    )
    with st.container(horizontal=True):
        st.button("Format JSON", key=f"{key}__format", on_click=_format, args=(key,))
        st.button("Reset", key=f"{key}__reset", on_click=_reset, args=(key, default_text))
    show_refusal(f"{key}__notice", "Format JSON left the text as it is: it is not valid JSON yet.")
    return text
