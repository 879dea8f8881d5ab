"""The payload editor: the JSON code editor with Format / Reset, shared across pages."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import streamlit as st

from core.jsontext.duplicates import duplicate_keys
from core.jsontext.json_format import reindent
from core.jsontext.payload import MAX_PAYLOAD_BYTES, PayloadError, json_writable, parse
from core.order.seed import SEED_TEXT
from ui import keys
from ui.editor.json_editor import Mark, fresh_text, json_editor

__all__ = [
    "NOT_A_FLOAT",
    "current_payload_text",
    "editor_text",
    "editor_tools",
    "human_size",
    "form_payload",
    "payload_editor",
    "set_payload_text",
    "show_refusal",
]

# The code editor has no cap of its own (a capped text area silently dropped a longer paste):
# a payload over MAX_PAYLOAD_BYTES reaches the page, stays in the editor and gets the
# too_large message. MAX_CHARS bounds what a page keeps: four bytes a character at most, it
# still fits the server's websocket message size (server.maxMessageSize, 200 MB).
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
    text: str = st.session_state.get(keys.PAYLOAD_TEXT, SEED_TEXT)
    return text


def form_payload(text: str) -> dict[str, Any] | None:
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


def _replaced(key: str) -> str:
    return keys.part(key, "replaced")


def set_payload_text(text: str, *, key: str = keys.PAYLOAD) -> None:
    """Replace the editor text; call from a widget callback or before the editor renders.

    The text wins over typing the editor sent in the same run (a preset picked right after
    a keystroke), and replaces the editor's content as one change the user can undo.
    """
    if key == keys.PAYLOAD:
        st.session_state[keys.PAYLOAD_TEXT] = text
    st.session_state[key] = text
    st.session_state[_replaced(key)] = True


def _format(key: str) -> None:
    text = fresh_text(keys.editor(key))  # typed and sent in the same run as the click
    text = st.session_state.get(key, "") if text is None else text
    try:
        parse(text)
    except PayloadError as exc:
        st.session_state[keys.part(key, "notice")] = f"Format JSON needs valid JSON first: {exc}"
        return
    set_payload_text(reindent(text), key=key)  # only the layout changes, never a value


def _reset(key: str, default_text: str) -> None:
    set_payload_text(default_text, key=key)


def editor_text(key: str, default_text: str) -> str:
    """The text the editor `key` holds (and will show), before the editor renders.

    What the user typed since the last run is taken in here, so a page can validate first
    and send its results (and the marks) ahead of the editor. The text lives under `key`
    in session state (a plain value, not a widget: it survives page switches).
    """
    ss = st.session_state
    if key not in ss:
        ss[key] = current_payload_text() if key == keys.PAYLOAD else default_text
    typed = fresh_text(keys.editor(key))
    if typed is not None and not ss.get(_replaced(key)):
        ss[key] = typed
        if key == keys.PAYLOAD:
            ss[keys.PAYLOAD_TEXT] = typed
    text: str = ss[key]
    return text


def human_size(size: int) -> str:
    """Bytes as a person reads them: 271 B, 12.5 KB, 2 MB (decimal units, as the limit)."""
    for unit, scale in (("MB", 1_000_000), ("KB", 1_000)):
        if size >= scale:
            return f"{size / scale:.1f}".removesuffix(".0") + f" {unit}"
    return f"{size} B"


def editor_tools(key: str, default_text: str, text: str) -> None:
    """What sits under the editor `key`: Format JSON, Reset (to `default_text`), the size of
    `text` against the limit with the keys' help, and what Format JSON refused."""
    with st.container(horizontal=True, vertical_alignment="center"):
        st.button("Format JSON", key=keys.part(key, "format"), on_click=_format, args=(key,))
        st.button("Reset", key=keys.part(key, "reset"), on_click=_reset, args=(key, default_text))
        st.caption(
            f"{human_size(len(text.encode('utf-8', 'surrogatepass')))} of "
            f"{human_size(MAX_PAYLOAD_BYTES)} · checked as you type · F8: next error",
            help="Ctrl+Enter checks at once; Ctrl+Shift+M lists the marked errors and F8 "
            "moves to the next; Ctrl+Z undoes, also across checks; Tab leaves the editor.",
        )
    show_refusal(
        keys.part(key, "notice"), "Format JSON left the text as it is: it is not valid JSON yet."
    )


def payload_editor(
    key: str,
    default_text: str,
    *,
    height: int = 300,
    marks: Sequence[Mark] = (),
    goto: tuple[int, int] | None = None,
    label: str = "Payload (JSON)",
) -> str:
    """Render the code editor with Format JSON and Reset; return the current text.

    `marks` are drawn at their line:col with the message on hover; `goto` moves the caret
    there. The text is validated as it is typed (the editor sends it 400 ms after the last
    keystroke) and is never changed behind the user's back: bad JSON stays as typed. With
    `key=keys.PAYLOAD` the text is the session's shared payload (the Trace page reads it).
    """
    text = editor_text(key, default_text)
    st.session_state.pop(_replaced(key), None)
    shown = json_editor(
        text, key=keys.editor(key), marks=marks, goto=goto, height=height, label=label
    )
    editor_tools(key, default_text, text)
    return shown
