"""The app's pages: file, title, address and icon (app.py builds its navigation from these)."""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["PAGES", "PageSpec", "page_file"]


class PageSpec(NamedTuple):
    path: str  # relative to the repository root, as st.switch_page takes it
    title: str
    url_path: str  # also the `page` a share link names
    icon: str
    default: bool = False


PAGES = (
    PageSpec("views/validate.py", "Validate", "validate", "🔎", default=True),
    PageSpec("views/trace.py", "Trace", "trace", "🧭"),
    PageSpec("views/threads.py", "Threads", "threads", "🧵"),
    PageSpec("views/behaviour.py", "Behaviour lab", "behaviour", "🔬"),
    PageSpec("views/tools.py", "Tool-parameter lab", "tools", "🧰"),
    PageSpec("views/retry.py", "Retry lab", "retry", "🔁"),
)


def page_file(url_path: object) -> str | None:
    """The file of the page at `url_path`, None when the app has no such page.

    Example:
        >>> page_file("trace"), page_file("admin")
        ('views/trace.py', None)
    """
    return next((page.path for page in PAGES if page.url_path == url_path), None)
