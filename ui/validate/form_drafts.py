"""Text a form box keeps that the JSON text did not take: held as typed, with why, while the
field's value stays the one it was typed over."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from core.jsontext.payload import PayloadError
from core.validate.annotated import text_lines
from ui import keys
from ui.validate.form_edits import Path

__all__ = ["NOT_APPLIED", "Draft", "box_text", "hold", "release", "show_held"]

NOT_APPLIED = (
    "Not applied: this box holds text that is not valid JSON, so the JSON text keeps the "
    "field's last valid value. The box keeps your text as typed; change it as the error "
    "below says."
)


@dataclass(frozen=True)
class Draft:
    """A box's refused text (`typed`), the text the box showed when it was typed (`over`),
    and why it was refused."""

    typed: str
    over: str
    error: PayloadError


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
    """Why the box's text was not applied: where it stops being JSON, with the line and a
    caret under the spot, as plain text."""
    draft: Draft | None = st.session_state.get(_key(path))
    if draft is None:
        return
    error = draft.error
    st.warning(NOT_APPLIED)
    shown = f"{'.'.join(path)}: line {error.line}, column {error.col} [{error.code}]\n"
    lines = text_lines(draft.typed)
    if 1 <= error.line <= len(lines):
        line = lines[error.line - 1]
        # A long line from 30 characters before the caret: it stays in a narrow column's view.
        start = 0 if len(line) <= 60 else max(0, error.col - 30)
        pointer = " " * (error.col - 1 - start) + "^"
        shown += f"{line[start : start + 60]}\n{pointer}\n"
    st.code(shown + error.message, language=None, wrap_lines=True)
