"""Control app for bench/browser_roundtrip.py: one text area, echoed back as text."""

from __future__ import annotations

import streamlit as st

text = st.text_area("Payload (JSON)", key="payload", height=420)
st.code(text, language=None)
