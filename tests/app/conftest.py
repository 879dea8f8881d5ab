"""What the pages' AppTests share: opening a page (on a share link too), the link a page made,
the schema options opened, a table's rows, the downloads a run offers, the Threads tables'
phone layouts, and the end of a session. Imported by name (`from tests.app.conftest import
...`); `session_ends` is a fixture.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from core.share import decode_share
from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from ui import keys
from ui.threads import source

# The one message every page shows for a link's refused fields.
SHARE_FIELD = (
    "[share_field] These fields of the share link have the wrong type or value and were "
    "ignored; their defaults are used. Make a fresh link with Share link."
)
SESSION_ID = "test session id"  # AppTest's, for every instance


def open_page(page: str, *, timeout: int = 60) -> AppTest:
    """The page run once, with no exception."""
    at = AppTest.from_file(page, default_timeout=timeout).run()
    assert not at.exception
    return at


THREADS_PAGE = str(Path(__file__).resolve().parents[2] / "views" / "threads.py")


def open_demo_threads(
    monkeypatch: pytest.MonkeyPatch,
    session_dir: Path | None = None,
    *,
    writes: bool = False,
    candidate: str | None = None,
) -> AppTest:
    """The Threads page on its demo store (no store configured; the `candidate` model, else
    none), writes on or off, run once; its session's copy of the store in `session_dir`."""
    monkeypatch.delenv(STORE_ENV, raising=False)
    if candidate is None:
        monkeypatch.delenv("PLAYGROUND_CANDIDATE", raising=False)
    else:
        monkeypatch.setenv("PLAYGROUND_CANDIDATE", candidate)
    if writes:
        monkeypatch.setenv(WRITES_ENV, "1")
    else:
        monkeypatch.delenv(WRITES_ENV, raising=False)
    if session_dir is not None:
        monkeypatch.setattr(source, "_session_dir", lambda: str(session_dir))
    return open_page(THREADS_PAGE)


def opened(page: str, token: str, *, timeout: int = 60) -> AppTest:
    """The page run once in a fresh session, opened on the share link `token`."""
    fresh = AppTest.from_file(page, default_timeout=timeout)
    fresh.query_params["s"] = token
    return fresh.run()


def token(at: AppTest) -> str:
    """The `?s=` token in the page's address (the last share link it made or opened)."""
    value = at.query_params["s"]
    return value[0] if isinstance(value, list) else value


def shared(at: AppTest) -> dict[str, Any]:
    """What the page's `?s=` token carries."""
    return decode_share(token(at))


def options_open(at: AppTest) -> AppTest:
    """The Validate page with its "Schema options" popover open (as a click on it does: the
    page reruns with the popover's widgets in it)."""
    at.session_state[keys.SCHEMA_OPTIONS_MENU] = True
    return at.run()


def table_rows(at: AppTest, *columns: str) -> list[tuple[Any, ...]]:
    """The rows of the first table whose first columns are `columns` ([] when none is drawn)."""
    for table in at.dataframe:
        if tuple(table.value.columns[: len(columns)]) == columns:
            return list(table.value.itertuples(index=False, name=None))
    return []


def phone_layouts(
    at: AppTest, layouts: dict[str, list[str]]
) -> dict[str, tuple[list[str], dict[str, int], int]]:
    """The tables drawn that start with one of `layouts`' first columns, by its key: their
    column order, the widths of those first columns, and their row height."""
    drawn = {}
    for table in at.dataframe:
        order = list(table.proto.column_order)
        key = next((k for k, first in layouts.items() if order[: len(first)] == first), None)
        if key is not None:
            config = json.loads(table.proto.columns)
            widths = {name: config[name]["width"] for name in layouts[key]}
            drawn[key] = (order, widths, table.proto.row_height)
    return drawn


@contextmanager
def downloads() -> Iterator[dict[str, str]]:
    """The files the runs inside offer for download, by file name (the last of each)."""
    stored: dict[str, str] = {}
    original = MediaFileManager.add

    def record(self, data, mimetype, coordinates, file_name=None, is_for_static_download=False):
        stored[file_name] = data.decode() if isinstance(data, bytes) else data
        return original(self, data, mimetype, coordinates, file_name, is_for_static_download)

    with patch.object(MediaFileManager, "add", record):
        yield stored


@pytest.fixture
def session_ends() -> Iterator[None]:
    """End the session after each test as a disconnect does: its session caches released.

    AppTest gives every instance the same session id, so without this one test's demo
    store (unbricked, say) would be the next test's.
    """
    yield
    clear_session_resource_cache(SESSION_ID)
