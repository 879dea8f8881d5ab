"""Threads page with AppTest on a store whose thread ids are not all text: a BLOB, an INTEGER
and a REAL are listed under the audit's printable ids, each opens, and no text id is drawn as
bytes (a mixed column once turned the whole list into b'...')."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests._crafted_ids import crafted_id_store
from tests.app.conftest import table_rows
from tests.app.test_threads_page import PAGE
from ui import keys

pytestmark = pytest.mark.usefixtures("session_ends")
IDS = {"t-text": "t-text", "t-blob": b"blob-id", "t-int": 42, "t-real": 4.5}


@pytest.fixture
def at(monkeypatch, tmp_path) -> AppTest:
    spec = crafted_id_store(tmp_path / "ids.sqlite", IDS)
    monkeypatch.setenv(STORE_ENV, spec)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    return AppTest.from_file(PAGE, default_timeout=60).run()


def test_ids_that_are_not_text_are_listed_printable_and_the_text_one_stays_text(at):
    assert not at.exception
    listed = sorted(row[0] for row in table_rows(at, "thread_id", "status"))
    assert listed == sorted(["float(4.5)", "int(42)", "b'blob-id'", "t-text"])
    statuses = {row[0]: row[1] for row in table_rows(at, "thread_id", "status")}
    # LangGraph's saver looks threads up by text: only the text id is a thread it can read
    assert statuses["t-text"] != statuses["int(42)"]
    box = at.selectbox(key=keys.THREADS_THREAD)
    assert sorted(box.options) == sorted(listed)  # the box names them as the list does
    for stored, shown in ((42, "int(42)"), (b"blob-id", "b'blob-id'"), (4.5, "float(4.5)")):
        at.selectbox(key=keys.THREADS_THREAD).select(stored).run()
        assert not at.exception
        assert shown in [c.value for c in at.code]  # the open thread's id, as printed
