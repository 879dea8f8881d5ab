"""State Validation Playground: page navigation and the shared sidebar."""

from __future__ import annotations

import streamlit as st

from ui.project import active_project, project_sidebar
from ui.versions import versions_view

st.set_page_config(page_title="State Validation Playground", page_icon="🧪", layout="wide")

_PAGES = [
    ("views/validate.py", "Validate", "validate", "🔎", True),
    ("views/trace.py", "Trace", "trace", "🧭", False),
    ("views/behaviour.py", "Behaviour lab", "behaviour", "🔬", False),
    ("views/tools.py", "Tool-parameter lab", "tools", "🧰", False),
    ("views/retry.py", "Retry lab", "retry", "🔁", False),
]

pages = [
    st.Page(path, title=title, url_path=url_path, icon=icon, default=default)
    for path, title, url_path, icon, default in _PAGES
]
navigation = st.navigation(pages)

with st.sidebar:
    project_sidebar(active_project())
    versions_view()

navigation.run()
