"""Offline JSON code editor (our CodeMirror 6 component; docs/json_editor.md: why not a package)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import streamlit as st
import streamlit.components.v1 as components

from ui import keys

__all__ = ["BUILD_DIR", "Mark", "fresh_text", "json_editor", "pending_text"]

BUILD_DIR = Path(__file__).resolve().parents[2] / "frontend" / "json_editor" / "build"
_component = components.declare_component("json_editor", path=str(BUILD_DIR))


@dataclass(frozen=True)
class Mark:
    """A message drawn at a 1-based line and column of the editor's text (as FieldError's)."""

    line: int
    col: int
    message: str
    severity: Literal["error", "warning", "info", "hint"] = "error"


@dataclass(frozen=True)
class _Value:
    """What the frontend sends: its text, the revision it descends from, and who sent it."""

    text: str
    rev: int
    id: str  # "<iframe instance>:<send number>", unique per value

    @classmethod
    def parse(cls, raw: Any) -> _Value | None:
        if not isinstance(raw, dict):
            return None
        text, rev, instance, seq = (raw.get(k) for k in ("text", "rev", "instance", "seq"))
        if isinstance(text, str) and isinstance(rev, int) and isinstance(seq, int):
            return cls(text, rev, f"{instance}:{seq}")
        return None


@dataclass
class _Sync:
    """Per-editor bookkeeping between runs, kept in session state beside the widget."""

    rev: int  # bumped when the caller replaces the text; the frontend then adopts it
    arg: str  # the `text` argument of the last run
    returned: str  # what the last run returned
    returned_at: str  # the frontend's name for that text ("" if unknown)
    seen: str | None = None  # id of the last value the frontend sent
    goto: tuple[int, int] | None = None
    goto_nonce: int = 0

    def begin(
        self, text: str, value: _Value | None, goto: tuple[int, int] | None
    ) -> tuple[str, dict[str, int] | None]:
        """Before the component call: which text the marks are in, and a go-to request."""
        typed = value is not None and value.id != self.seen  # this run comes from the editor
        live = value if value is not None and value.rev == self.rev else None
        if text not in (self.arg, self.returned) and (live is None or text != live.text):
            self.rev += 1  # the caller's own new text: the frontend adopts it
            at = f"rev:{self.rev}"
        elif live is not None and text == live.text:
            at = live.id
        else:
            at = self.returned_at if text == self.returned else ""
        self.arg = text
        request = None
        if goto is not None and (goto != self.goto or not typed):
            self.goto_nonce += 1
            request = {"line": goto[0], "col": goto[1], "nonce": self.goto_nonce}
        self.goto = goto
        return at, request

    def finish(self, text: str, value: _Value | None) -> str:
        """After the call: the editor's text, unless it predates the caller's new text."""
        self.seen = value.id if value is not None else None
        if value is not None and value.rev == self.rev:
            self.returned, self.returned_at = value.text, value.id
        else:  # nothing typed since the text was (re)placed
            self.returned, self.returned_at = text, f"rev:{self.rev}"
        return self.returned


def pending_text(key: str) -> str | None:
    """What the editor `key` holds, readable before it is drawn in this run.

    None until the user has typed since the page last set the text. Validate this text
    before calling `json_editor` (and pass it as `text`), so the marks drawn in this run
    belong to what the user sees; a text the page sets itself (a preset, Reset) goes after.

    Example:
        >>> text = pending_text("doc_editor")  # doctest: +SKIP
        >>> text = st.session_state.doc if text is None else text  # doctest: +SKIP
        >>> st.session_state.doc = json_editor(  # doctest: +SKIP
        ...     text, key="doc_editor", marks=marks_for(text)
        ... )
    """
    value = _Value.parse(st.session_state.get(key))
    sync = st.session_state.get(keys.editor_sync(key))
    if value is None or not isinstance(sync, _Sync) or value.rev != sync.rev:
        return None
    return value.text


def fresh_text(key: str) -> str | None:
    """What the user typed in the editor `key` since its last run, or None.

    Unlike `pending_text`, a value already passed through `json_editor` is not given again,
    so a page that keeps its text elsewhere (a shared session key) can tell typing apart
    from a rerun caused by another widget, and let its own new text (a preset) win.
    """
    value = _Value.parse(st.session_state.get(key))
    sync = st.session_state.get(keys.editor_sync(key))
    if value is None or not isinstance(sync, _Sync) or value.rev != sync.rev:
        return None
    return value.text if value.id != sync.seen else None


def json_editor(
    text: str,
    *,
    key: str,
    marks: Sequence[Mark] = (),
    goto: tuple[int, int] | None = None,
    height: int = 420,
    debounce_ms: int = 400,
    label: str = "JSON",
) -> str:
    """Show `text` in a JSON editor; return what the user has typed.

    The value comes back `debounce_ms` after typing stops, and at once on Ctrl+Enter or
    when the editor loses focus. Pass back what it returned as `text` on the next run (or
    keep passing the same `text`): the user's typing and undo history are kept. Any other
    `text` replaces the content, as one change the user can undo.

    Args:
        text: The content; a new value not returned by the editor replaces what is shown.
        key: The widget key (the element is `.st-key-<key>`).
        marks: Positions in `text`, each drawn with its message on hover (and in the
            lint panel: Ctrl+Shift+M; F8 jumps to the next).
        goto: Move the caret to this line:col, scroll there and focus the editor. Pass it
            in the run that asks for the move; it moves again in any later run except the
            reruns caused by the user typing (so a kept selection does not pull the caret).
            While the page's focus is inside an element marked `data-keeps-focus` (an error
            table whose row was picked by keyboard: ui.errors.keyboard), the caret moves
            and the focus stays there.
        height: Editor height in pixels.
        debounce_ms: Quiet time after the last keystroke before the text is sent.
        label: Accessible name of the text box.

    Example:
        >>> import streamlit as st  # doctest: +SKIP
        >>> st.session_state.setdefault("doc", '{"qty": "x"}')  # doctest: +SKIP
        >>> st.session_state.doc = json_editor(  # doctest: +SKIP
        ...     st.session_state.doc, key="doc_editor",
        ...     marks=[Mark(1, 9, "Input should be a valid integer")],
        ... )
    """
    sync: _Sync = st.session_state.setdefault(keys.editor_sync(key), _Sync(0, text, text, "rev:0"))
    marks_at, request = sync.begin(text, _Value.parse(st.session_state.get(key)), goto)
    raw = _component(
        text=text,
        rev=sync.rev,
        # a tuple: Streamlit's dataframe check on a list argument imports pandas (first paint)
        marks=tuple(vars(mark) for mark in marks),
        marks_at=marks_at,
        goto=request,
        height=height,
        debounce_ms=debounce_ms,
        label=label,
        key=key,
        default=None,
    )
    return sync.finish(text, _Value.parse(raw))
