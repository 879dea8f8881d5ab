"""Keep every page inside app.py's navigation, even when a deep link is a server's first request."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

__all__ = ["inside_app"]


def inside_app() -> None:
    """Rerun through app.py when Streamlit ran this page file on its own.

    A `pages/` folder makes Streamlit start in its old multipage mode, which runs a page
    file directly for a deep link (`/trace?s=...`) until app.py has called `st.navigation`
    once in this process. The page would then miss the app's layout, sidebar and page
    list. Switching the mode off and rerunning lets app.py route the same URL.
    """
    if PagesManager.uses_pages_directory:
        PagesManager.uses_pages_directory = False
        st.rerun()
