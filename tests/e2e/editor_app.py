"""Test page for ui/editor/json_editor.py only: a JSON text, marks found in it, Reset and a go-to button."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run tests/e2e/editor_app.py` puts only this folder on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import streamlit as st

from ui.editor.json_editor import Mark, json_editor, pending_text

TEXT = '{\n  "order_id": "A-1",\n  "qty": "three",\n  "items": []\n}\n'
QTY_MESSAGE = "Input should be a valid integer, unable to parse string as an integer"
ITEMS_MESSAGE = "List should have at least 1 item after validation"
QTY = (3, 10)


def marks_for(text: str) -> list[Mark]:
    """A stand-in validator: an error at each `"three"`, a warning at each `[]`."""
    marks = []
    for number, line in enumerate(text.split("\n"), start=1):
        if (col := line.find('"three"')) >= 0:
            marks.append(Mark(number, col + 1, QTY_MESSAGE))
        if (col := line.find("[]")) >= 0:
            marks.append(Mark(number, col + 1, ITEMS_MESSAGE, "warning"))
    return marks


def main() -> None:
    st.session_state.setdefault("doc", TEXT)
    # Validate what the editor just sent, so the marks drawn now belong to it; the page's
    # own new text (Reset) comes last and wins.
    text = pending_text("editor")
    if text is None:
        text = st.session_state.doc
    if st.button("Reset", key="reset"):
        text = TEXT
    goto = QTY if st.button("Go to qty", key="goto_qty") else None
    st.session_state.doc = json_editor(
        text, key="editor", marks=marks_for(text), goto=goto, height=240
    )
    with st.container(key="returned"):
        st.code(st.session_state.doc, language="json")


# Streamlit runs this file as __main__; pytest's doctest collection only imports it.
if __name__ == "__main__":
    main()
