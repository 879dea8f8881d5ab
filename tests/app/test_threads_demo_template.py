"""The demo store is built once per process and copied for each session (issue 41: Threads
took 3.9 s to show its list on a phone, each new session running the seed graphs again)."""

from __future__ import annotations

import sqlite3
import tempfile
from contextlib import closing
from pathlib import Path

import pytest
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from core.stores.demo import DEMO_THREADS, build_demo_store
from core.stores.open import STORE_ENV
from tests.app.conftest import SESSION_ID, table_rows
from ui.threads import source

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "threads.py")


def _threads(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        rows = conn.execute("SELECT DISTINCT thread_id FROM checkpoints ORDER BY thread_id")
        return [row[0] for row in rows]


def test_two_sessions_copy_one_build_of_the_demo_store_and_write_only_their_own(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the temp files made, seen here
    builds: list[str] = []

    def counted(path: Path | str) -> dict[str, str | None]:
        builds.append(Path(path).parent.name.rsplit("-", 1)[0])
        return build_demo_store(path)

    monkeypatch.setattr(source, "build_demo_store", counted)
    source._demo_template.clear()  # a fresh process: no template yet
    listed = []
    for _ in range(2):  # two sessions, one after the other (AppTest's share an id)
        at = AppTest.from_file(PAGE, default_timeout=60).run()
        assert not at.exception
        listed.append([row[0] for row in table_rows(at, "thread_id")])
        clear_session_resource_cache(SESSION_ID)  # the session ends: its copy is deleted
    template = Path(source._demo_template())
    assert builds == ["playground-demo-template"]  # once, for the process, not per session
    assert listed == [sorted(DEMO_THREADS)] * 2
    assert not list(tmp_path.glob("playground-threads-*"))  # both sessions' copies deleted

    # a session's copy is its own file: writing it leaves the template as built
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    (copy,) = tmp_path.glob("playground-threads-*/demo.sqlite")
    with closing(sqlite3.connect(copy)) as conn, conn:
        conn.execute("DELETE FROM checkpoints WHERE thread_id = 'clean-1'")
    assert (_threads(template), _threads(copy)) == (
        sorted(DEMO_THREADS),
        sorted(set(DEMO_THREADS) - {"clean-1"}),
    )
    assert template.stat().st_mode & 0o222 == 0  # read-only
    clear_session_resource_cache(SESSION_ID)
    source._demo_template.clear()  # the next test's process-wide template is its own


def test_a_template_removed_under_the_process_is_built_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    source._demo_template.clear()
    first = Path(source._demo_template())
    first.unlink()  # a temp cleaner, say
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert [row[0] for row in table_rows(at, "thread_id")] == sorted(DEMO_THREADS)
    assert Path(source._demo_template()).is_file()
    clear_session_resource_cache(SESSION_ID)
    source._demo_template.clear()
