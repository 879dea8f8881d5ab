"""State Validation Playground: page navigation and the shared sidebar."""

from __future__ import annotations

from functools import cache
from importlib import metadata

import streamlit as st

from ui.project import active_project, project_sidebar


@cache  # installed versions do not change while the server runs
def _versions() -> list[str]:
    return [
        metadata.version(name) for name in ("pydantic", "langgraph", "langchain-core", "streamlit")
    ]


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
    st.caption("Installed versions (every behaviour shown is observed on these)")
    st.dataframe(
        {
            "package": ["pydantic", "langgraph", "langchain-core", "streamlit"],
            "version": _versions(),
        },
        hide_index=True,
        key="versions",
    )

navigation.run()
