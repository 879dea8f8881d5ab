"""How the Threads page shows one of our coded errors, as ui.errors shows a field's: what was
refused (or where) with the code in brackets, then the error's own sentence on its own line."""

from __future__ import annotations

import re
from typing import Protocol

import streamlit as st

__all__ = ["Coded", "coded_lines", "sentence", "show_coded"]

_WORD = re.compile(r"[a-z]+(?:[ ,;:]|$)")  # a plain word first: not notes.db, not a DSN


class Coded(Protocol):
    """Ours and coded: a CodedError, a store's warning, an unreadable checkpoint."""

    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...


def sentence(text: str) -> str:
    """`text` as a sentence: a capital first letter where it starts with a plain word (a
    name, path or URL stays as written), a full stop at its end.

    Example:
        >>> sentence("the edit equals the stored state; change a field")
        'The edit equals the stored state; change a field.'
        >>> sentence("row 1: fine."), sentence("notes.db is not a database")
        ('Row 1: fine.', 'notes.db is not a database.')
    """
    text = text.strip()
    if _WORD.match(text):
        text = text[0].upper() + text[1:]
    return text if not text or text.endswith((".", "?", "!", ":")) else f"{text}."


def coded_lines(error: Coded, where: str = "") -> str:
    """`where` (what the error is about; none: the code alone) and the code in brackets on
    one line, the error's sentence on the next.

    Example:
        >>> from core.errors import CodedError, ErrorCode
        >>> print(coded_lines(CodedError(ErrorCode.PLAN_TOML, "save it as UTF-8"), "the file"))
        The file [plan_toml]
        Save it as UTF-8.
    """
    where = where[:1].upper() + where[1:]
    head = f"{where} [{error.code}]" if where else f"[{error.code}]"
    return f"{head}\n{sentence(error.message)}"


def show_coded(lead: str, error: Coded, *, level: str = "error") -> None:
    """`lead` (what did not happen) with the code, in an alert of `level`; the sentence,
    as plain text, under it (a message may quote what the user typed)."""
    alert = st.warning if level == "warning" else st.info if level == "info" else st.error
    alert(f"{lead} [{error.code}]:")
    st.code(sentence(error.message), language=None, wrap_lines=True)
