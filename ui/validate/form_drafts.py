"""Text a form box keeps that the JSON text did not take: held as typed, with why, while the
field's value stays the one it was typed over."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.errors import ErrorCode
from core.jsontext.payload import PayloadError
from ui import keys
from ui.errors.view import caret_lines
from ui.validate.form_edits import Path
from ui.validate.form_json import WHOLE_TEXT, placed

__all__ = [
    "NOT_APPLIED",
    "QUOTED",
    "REFUSED",
    "Draft",
    "box_text",
    "hold",
    "not_applied",
    "release",
    "show_held",
]

_KEPT = (
    "so the JSON text keeps the field's last valid value. The box keeps your text as typed; "
    "change it as the error below says."
)
NOT_APPLIED = f"Not applied: this box holds text that is not valid JSON, {_KEPT}"
# Text the payload's limits refuse (too deep, a number too long, ...), JSON or not.
REFUSED = f"Not applied: the JSON text refuses this box's text, {_KEPT}"
QUOTED = "A string that starts with [ or { goes in double quotes."


@dataclass(frozen=True)
class Draft:
    """A box's refused text (`typed`), the text the box showed when it was typed (`over`),
    and why it was refused."""

    typed: str
    over: str
    error: PayloadError
    # The field takes a string too (it names no type) and the text starts as a list or an
    # object: a string was perhaps meant
    string_too: bool = False


def not_applied(draft: Draft) -> str:
    """Why a box's text is not in the JSON text: not JSON (`json_syntax`), or refused by the
    JSON text's limits; for a field that takes a string too, how to type one.

    Example:
        >>> error = PayloadError("The payload nests too deeply.", code=ErrorCode.TOO_DEEP)
        >>> not_applied(Draft("[[[", "", error, string_too=True)) == f"{REFUSED} {QUOTED}"
        True
    """
    said = NOT_APPLIED if draft.error.code == ErrorCode.JSON_SYNTAX else REFUSED
    return f"{said} {QUOTED}" if draft.string_too else said


def _key(path: Path) -> str:
    return keys.field_key(path, "draft")


def hold(path: Path, draft: Draft) -> None:
    """Keep `draft` in the box at `path`; call from the box's callback."""
    st.session_state[_key(path)] = draft


def release(path: Path) -> None:
    """Forget the box's held text (its edit was applied)."""
    st.session_state.pop(_key(path), None)


def box_text(path: Path, now: str) -> str:
    """What the box at `path` shows: its held text while the JSON text still gives the field
    the value it was typed over (`now` is the box's text for that value), else `now`; a held
    text the JSON text has moved past (changed by other means) is dropped."""
    draft: Draft | None = st.session_state.get(_key(path))
    if draft is None:
        return now
    if draft.over == now:
        return draft.typed
    release(path)
    return now


def show_held(path: Path) -> None:
    """Why the box's text was not applied: what refused it and where (the line and a caret
    under the spot, for an error that has one), as plain text."""
    draft: Draft | None = st.session_state.get(_key(path))
    if draft is None:
        return
    error = draft.error
    st.warning(not_applied(draft))
    shown = f"{'.'.join(path)}: {placed(error)}\n"
    excerpt = None if error.code in WHOLE_TEXT else caret_lines(draft.typed, error.line, error.col)
    if excerpt is not None:
        shown += f"{excerpt}\n"
    st.code(shown + error.message, language=None, wrap_lines=True)
