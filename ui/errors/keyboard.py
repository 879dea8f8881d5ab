"""Enter or Space on a row of a selectable error table selects it; the keyboard stays there."""

from __future__ import annotations

from html import escape
from pathlib import Path

import streamlit as st

from ui import keys

__all__ = ["ROW_KEYS_HELP", "keyboard_rows"]

ROW_KEYS_HELP = (
    "Click a row, and the editor's caret goes to its error; or reach a row with the arrow "
    "keys and press Enter or Space, and the keys stay in the table."
)
# Our own script (keyboard.js says what it does and why); no user text goes into the page.
_SCRIPT = (Path(__file__).with_name("keyboard.js")).read_text(encoding="utf-8")
# The element holding the script takes no room: the page's gap around it would show.
_HIDDEN = (
    "<style>[data-testid='stElementContainer']:has(script[data-error-table])"
    " { display: none; }</style>"
)


def keyboard_rows(key: str) -> None:
    """Let Enter and Space select a row of the error table under `key` (ui.errors.view's
    selectable table) as Shift+Space does, without the grid's cell overlay, and keep the
    keyboard in the table when the editor moves its caret to the row's error.

    Drawn with the table, the same text on every run: Streamlit runs the script when the
    element first appears, and the script installs its listeners once per page.
    """
    table = escape(f".st-key-{keys.table(key)}", quote=True)
    st.html(
        f'{_HIDDEN}<script data-error-table="{table}">{_SCRIPT}</script>',
        unsafe_allow_javascript=True,
    )
