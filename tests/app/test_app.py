"""app.py: every page opens inside the navigation, with the shared sidebar, without an exception."""

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ui.versions import versions_text

ROOT = Path(__file__).parents[2]
PAGES = ["validate", "trace", "threads", "behaviour", "tools", "retry"]


@pytest.mark.parametrize("page", PAGES)
def test_every_page_opens_inside_the_app_without_an_exception(page):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception
    versions = [c.value for c in at.sidebar.code if c.value.startswith("pydantic")]
    assert [line.split()[0] for line in versions[0].splitlines()] == [
        "pydantic",
        "langgraph",
        "langchain-core",
        "streamlit",
    ]
    assert versions[0] == versions_text()


def test_no_pages_folder_so_streamlit_never_runs_a_page_without_app_py():
    # A `pages/` folder makes Streamlit open a deep link's page file directly (old
    # multipage mode) until app.py has run once in the process; `views/` avoids that.
    assert not (ROOT / "pages").exists()
