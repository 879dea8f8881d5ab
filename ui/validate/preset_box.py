"""The Validate page's preset box: it names the preset the payload holds, and a load unticks
the error table's row (the row belonged to the text the preset replaced)."""

from __future__ import annotations

import streamlit as st

from ui import keys
from ui.errors.view import forget_selection
from ui.project import load_preset, say_loaded

__all__ = ["PLACEHOLDER", "load_fresh", "loaded_preset", "preset_box"]

PLACEHOLDER = "Load a preset payload…"


def load_fresh(label: str, text: str, table: str) -> None:
    """Load a preset's `text` (a widget callback) with no row of the error table `table`
    ticked: "Selected error at 2:14" was said of the payload replaced (issue 41, item 6)."""
    load_preset(label, text)
    forget_selection(table)


def _picked(presets: dict[str, tuple[str, str]], key: str, table: str) -> None:
    name = st.session_state.get(key)
    if name in presets:
        load_fresh(*presets[name], table)


def loaded_preset(presets: dict[str, tuple[str, str]], text: str) -> str | None:
    """The preset whose text `text` is, when it was loaded as one; None once edited."""
    loaded = st.session_state.get(keys.PRESET_LOADED)
    if loaded is None or loaded[1] != text:
        return None
    return next((name for name, shown in presets.items() if shown == tuple(loaded)), None)


def preset_box(presets: dict[str, tuple[str, str]], text: str, *, key: str, table: str) -> None:
    """A select box over `presets` showing the one `text` holds (its placeholder once the
    text is edited, so it never names a preset the text no longer is). Picking one loads it;
    the same one again after an edit too, as the box is back on its placeholder by then.

    Drawn on every run of the editor's fragment, after the text is read: the box follows
    each edit, where one drawn above the fragment kept its placeholder beside the line
    "Last preset loaded: …" (issue 41, item 9). The line stays under it, a live region: a
    screen reader reads each load out.
    """
    st.session_state[key] = loaded_preset(presets, text)  # before the box: its value this run
    st.selectbox(
        "Preset",
        list(presets),
        format_func=lambda name: presets[name][0],
        key=key,
        index=None,
        placeholder=PLACEHOLDER,
        on_change=_picked,
        args=(presets, key, table),
    )
    say_loaded(st.empty(), text)
