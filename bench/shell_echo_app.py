"""Control for bench/browser_roundtrip.py: a page that only echoes a widget, in the app's shell.

The same navigation and shared sidebar as app.py (its `main`), plus one page at `/echo`
whose text area and echo are one st.fragment, as the Validate page's editor is: both pages
rerun the same way, so the difference is what the Validate page itself draws.
"""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # also under a bare `streamlit run`

from app import main


@st.fragment
def _echo() -> None:
    text = st.text_area("Payload (JSON)", key="payload", height=420)
    st.code(text, language=None)


def _page() -> None:
    _echo()


main([st.Page(_page, title="Echo (bench control)", url_path="echo", icon="🔁")])
