"""State Validation Playground: page navigation and the shared sidebar."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from ui import keys
from ui.access import access_sidebar, announce_public_mode, refusal
from ui.pages import PAGES, PageSpec
from ui.validate.first_paint import will_paint_first

ROOT = Path(__file__).resolve().parent
# Seconds a thread may hold the GIL while another waits for it (Python's default: 5 ms). A
# page's LangGraph run hands work between its own threads (its checkpointer's background
# writes) while the server's thread sends the page: at 5 ms a turn, Validate's entry verdict
# took 20-30 ms instead of 1.6. Measured in bench/browser_roundtrip.py.
SWITCH_INTERVAL = 0.001


def main(extra_pages: Sequence[st.Page] = ()) -> None:
    """The app: its pages in the navigation, the shared sidebar, then the chosen page.

    `extra_pages` lets a benchmark measure a control page inside this same shell.
    """
    sys.setswitchinterval(SWITCH_INTERVAL)  # the server's setting, the same for every session
    st.set_page_config(page_title="State Validation Playground", page_icon="🧪", layout="wide")
    pages = [
        st.Page(
            ROOT / p.path,
            title=p.title,
            # The default page is served at the root: its own name is left to `alias`.
            url_path=f"{p.url_path}-root" if p.default else p.url_path,
            icon=p.icon,
            default=p.default,
        )
        for p in PAGES
    ]
    default = next(n for n, spec in enumerate(PAGES) if spec.default)
    alias = _alias(pages[default], PAGES[default])
    refused = refusal()  # a public server with a store and no sign-in serves nothing else
    navigation = st.navigation(
        [*pages, *extra_pages, alias], position="hidden" if refused else "sidebar"
    )
    if refused:
        st.title("This server is not set up to serve")
        st.error(refused)
        return
    if navigation is alias:  # before the sidebar: this run only hands over to the root
        navigation.run()
        return
    announce_public_mode()
    if navigation is pages[0] and will_paint_first():
        # Validate on a cold server: the page paints its editor, imports the rest and reruns
        # (ui/validate/first_paint.py); the sidebar's loader would import LangGraph first.
        st.session_state[keys.FIRST_PAINT] = True
    else:
        from ui.project import active_project, project_sidebar
        from ui.versions import versions_view

        with st.sidebar:
            access_sidebar()
            project_sidebar(active_project())
            versions_view()
    navigation.run()


def _alias(home: st.Page, spec: PageSpec) -> st.Page:
    """A hidden page at the default page's own name (`/validate`) that opens it at the root,
    with the same query (a share link's `?s=`): Streamlit has no page at that address and
    would say "Page not found" before running the default page."""

    def reopen() -> None:
        st.switch_page(home, query_params=st.query_params.to_dict())

    return st.Page(reopen, title=spec.title, url_path=spec.url_path, visibility="hidden")


if __name__ == "__main__":  # `streamlit run app.py` runs it as __main__
    main()
