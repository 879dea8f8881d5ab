"""State Validation Playground: page navigation and the shared sidebar."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path

import streamlit as st

from ui.project import active_project, project_sidebar

st.set_page_config(page_title="State Validation Playground", page_icon="🧪", layout="wide")

_PAGES = [
    ("pages/validate.py", "Validate", "validate", "🔎", True),
    ("pages/trace.py", "Trace", "trace", "🧭", False),
    ("pages/behaviour.py", "Behaviour lab", "behaviour", "🔬", False),
    ("pages/tools.py", "Tool-parameter lab", "tools", "🧰", False),
    ("pages/retry.py", "Retry lab", "retry", "🔁", False),
]
_HERE = Path(__file__).parent

pages = [
    st.Page(path, title=title, url_path=url_path, icon=icon, default=default)
    for path, title, url_path, icon, default in _PAGES
    if (_HERE / path).exists()
]
navigation = st.navigation(pages)

with st.sidebar:
    project_sidebar(active_project())
    st.caption("Installed versions (every behaviour shown is observed on these)")
    st.dataframe(
        {
            "package": ["pydantic", "langgraph", "langchain-core", "streamlit"],
            "version": [
                metadata.version(name)
                for name in ("pydantic", "langgraph", "langchain-core", "streamlit")
            ],
        },
        hide_index=True,
        key="versions",
    )

navigation.run()
