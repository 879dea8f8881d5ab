"""app.py: every page of the registry (ui.pages.PAGES) opens inside the navigation, with the
shared sidebar, without an exception: a page added to the registry is smoke-tested here."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.pages import PAGES, PageSpec
from ui.versions import installed_versions

ROOT = Path(__file__).parents[2]


def test_the_registry_lists_the_six_pages_in_navigation_order():
    assert [page.url_path for page in PAGES] == [
        "validate",
        "trace",
        "threads",
        "behaviour",
        "tools",
        "retry",
    ]
    assert [page.path for page in PAGES] == [f"views/{page.url_path}.py" for page in PAGES]


@pytest.mark.parametrize("page", PAGES, ids=[page.url_path for page in PAGES])
def test_every_page_opens_inside_the_app_without_an_exception(page: PageSpec):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page(page.path).run()
    assert not at.exception
    pydantic, langgraph, checkpoint, core, pydantic_ai, streamlit = installed_versions()
    # A table, each version beside its package (a code block wrapped or cut them).
    assert [m.value for m in at.sidebar.markdown if m.value.startswith("| package")] == [
        "| package | version |\n| --- | --- |\n"
        f"| pydantic | {_escaped(pydantic)} |\n"
        f"| langgraph | {_escaped(langgraph)} |\n"
        f"| langgraph\\-checkpoint | {_escaped(checkpoint)} |\n"
        f"| langchain\\-core | {_escaped(core)} |\n"
        f"| pydantic\\-ai\\-slim | {_escaped(pydantic_ai)} |\n"
        f"| streamlit | {_escaped(streamlit)} |"
    ]


def _escaped(version: str) -> str:
    return version.replace(".", "\\.")


def test_no_pages_folder_so_streamlit_never_runs_a_page_without_app_py():
    # A `pages/` folder makes Streamlit open a deep link's page file directly (old
    # multipage mode) until app.py has run once in the process; `views/` avoids that.
    assert not (ROOT / "pages").exists()
