"""Test page for ui/json_editor.py only: a fixed JSON text, two marks and a go-to button."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run tests/e2e/editor_app.py` puts only this folder on sys.path.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import streamlit as st  # noqa: E402

from ui.json_editor import Mark, json_editor  # noqa: E402

TEXT = '{\n  "order_id": "A-1",\n  "qty": "three",\n  "items": []\n}\n'
MARKS = [
    Mark(3, 10, "Input should be a valid integer, unable to parse string as an integer"),
    Mark(4, 12, "List should have at least 1 item after validation", "warning"),
]
QTY = (3, 10)


def main() -> None:
    st.session_state.setdefault("doc", TEXT)
    if st.button("Reset", key="reset"):
        st.session_state.doc = TEXT
    goto = QTY if st.button("Go to qty", key="goto_qty") else None
    st.session_state.doc = json_editor(
        st.session_state.doc, key="editor", marks=MARKS, goto=goto, height=240
    )
    with st.container(key="returned"):
        st.code(st.session_state.doc, language="json")


# Streamlit runs this file as __main__; pytest's doctest collection only imports it.
if __name__ == "__main__":
    main()
