"""Control for bench/browser_roundtrip.py: the least a page answering with an error table draws.

The app's shell (its `main`: navigation and shared sidebar) with one page at `/table`: the
editor on the left and, on the right, the verdict and the error table of the seed order model,
drawn by the same `validate_text` and `ui.errors.view.error_table` as the Validate page, in one
st.fragment. Nothing else: no presets, options, form, views, exports or share link. Its round
trip is the floor of any page of this app that shows a verdict and a data grid per edit.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # also under a bare `streamlit run`

from app import main
from core.order import AgentState
from core.validate.report import validate_text
from ui.errors.view import error_table


@st.fragment
def _table() -> None:
    text = st.session_state.setdefault("payload", "")
    edit, result = st.columns([5, 6], gap="large")
    with result:  # filled first, as on the Validate page
        error_table(validate_text(text, AgentState), key="errors")
    with edit:
        st.text_area("Payload (JSON)", key="payload", height=420)


def _page() -> None:
    _table()


main([st.Page(_page, title="Error table (bench control)", url_path="table", icon="🔁")])
