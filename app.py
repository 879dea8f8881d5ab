"""State Validation Playground: page navigation and the shared sidebar."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from ui.project import active_project, project_sidebar
from ui.versions import versions_view

ROOT = Path(__file__).resolve().parent
_PAGES = [
    ("views/validate.py", "Validate", "validate", "🔎", True),
    ("views/trace.py", "Trace", "trace", "🧭", False),
    ("views/behaviour.py", "Behaviour lab", "behaviour", "🔬", False),
    ("views/tools.py", "Tool-parameter lab", "tools", "🧰", False),
    ("views/retry.py", "Retry lab", "retry", "🔁", False),
]


def main(extra_pages: Sequence[st.Page] = ()) -> None:
    """The app: its pages in the navigation, the shared sidebar, then the chosen page.

    `extra_pages` lets a benchmark measure a control page inside this same shell.
    """
    st.set_page_config(page_title="State Validation Playground", page_icon="🧪", layout="wide")
    pages = [
        st.Page(ROOT / path, title=title, url_path=url_path, icon=icon, default=default)
        for path, title, url_path, icon, default in _PAGES
    ]
    navigation = st.navigation([*pages, *extra_pages])
    with st.sidebar:
        project_sidebar(active_project())
        versions_view()
    navigation.run()


if __name__ == "__main__":  # `streamlit run app.py` runs it as __main__
    main()
