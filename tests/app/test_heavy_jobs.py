"""The server's heavy-job slots on the Threads page, with one slot (PLAYGROUND_HEAVY_JOBS=1):
a job queued behind a held slot shows its place and Cancel, runs once the slot frees, and
gives its ticket back when cancelled or stopped.

The test holds the slot itself, as another session's job would. AppTest draws a run's page only
when the run ends, so the page of a run that waits is read from its script runner's messages
while it runs (the run in a thread).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

import pytest
from streamlit.runtime.runtime import Runtime
from streamlit.runtime.scriptrunner import RerunData
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import ElementTree, parse_tree_from_messages
from streamlit.testing.v1.local_script_runner import LocalScriptRunner

from core.heavy import HEAVY_JOBS_ENV, GateState, HeavyGate
from core.stores.demo import build_demo_store
from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests.app.conftest import table_rows
from ui import keys
from ui.heavy import heavy_gate

pytestmark = pytest.mark.usefixtures("session_ends")
ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "views" / "threads.py")
SECONDS = 60  # a page still waiting after this is stuck: the test fails
JOBS = "reading an uploaded store, an audit, a migration preview"


def _note(what: str, ahead: int = 1) -> str:
    return (
        f"Waiting for a free slot: {ahead} ahead. {what} starts when one frees: this server runs "
        f"1 heavy job at a time for all its visitors ({JOBS})."
    )


@pytest.fixture
def gate(monkeypatch) -> Iterator[HeavyGate]:
    """The server's gate, made afresh with one slot; made afresh again (the default) after."""
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    monkeypatch.setenv(HEAVY_JOBS_ENV, "1")
    heavy_gate.clear()
    yield heavy_gate()
    heavy_gate.clear()


@pytest.fixture
def runners() -> Iterator[list[LocalScriptRunner]]:
    """The script runners AppTest makes, one per run: the page of a run still going."""
    made: list[LocalScriptRunner] = []

    class Recorded(LocalScriptRunner):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            made.append(self)

    with patch("streamlit.testing.v1.app_test.LocalScriptRunner", Recorded):
        yield made


def _eventually(what: Callable[[], bool]) -> None:
    deadline = time.monotonic() + SECONDS
    while not what():
        assert time.monotonic() < deadline, "the page never got there"
        time.sleep(0.05)


def _so_far(runner: LocalScriptRunner) -> ElementTree:
    return parse_tree_from_messages(list(runner.forward_msgs()))


def _waiting(runner: LocalScriptRunner) -> tuple[list[str], list[str]]:
    """The queue notes a running page shows, and the Cancel buttons beside them."""
    page = _so_far(runner)
    notes = [info.value for info in page.info if info.value.startswith("Waiting")]
    cancels = [b.key for b in page.button if b.key and b.key.endswith("_wait_cancel")]
    return notes, cancels


@contextmanager
def _running(at: AppTest) -> Iterator[None]:
    """`at.run()` in a thread while the block runs; its exception, if any, raised after."""
    failed: list[BaseException] = []

    def run() -> None:
        try:
            at.run()
        except BaseException as error:  # noqa: BLE001 - raised again in the test's thread
            failed.append(error)

    thread = threading.Thread(target=run)
    thread.start()
    try:
        yield
    finally:
        thread.join(SECONDS)
    assert (thread.is_alive(), failed) == (False, [])


def _queued_behind(
    gate: HeavyGate, at: AppTest, runners: list[LocalScriptRunner]
) -> tuple[GateState, list[str], list[str]]:
    """Run `at` while the test holds the one slot: the gate and what the page shows once the
    run waits; then the slot is freed and the run finishes."""
    held = gate.enter()
    assert gate.acquire(held, timeout=0)
    with _running(at):
        _eventually(lambda: bool(runners) and _waiting(runners[-1])[0] != [])
        seen = (gate.state(), *_waiting(runners[-1]))
        gate.leave(held)
    assert not at.exception
    assert (gate.state(), _waiting(runners[-1])) == (GateState(1, (), ()), ([], []))
    return seen


def test_a_second_sessions_audit_waits_behind_a_held_slot_then_runs(gate, runners):
    at = AppTest.from_file(PAGE, default_timeout=SECONDS).run()
    at.button(key=keys.THREADS_AUDIT_RUN).click()
    assert _queued_behind(gate, at, runners) == (
        GateState(1, running=(2,), waiting=(3,)),  # ticket 1: the first run's preview
        [_note("The audit")],
        ["threads_audit_wait_cancel"],
    )
    assert [bar.proto.text for bar in at.get("progress")] == ["All 10 threads checked"]
    assert at.text[0].value == "10 threads, 10 checkpoints audited; 2 invalid states in 2 threads"


def test_the_migration_preview_waits_behind_a_held_slot_then_runs(gate, runners):
    at = AppTest.from_file(PAGE, default_timeout=SECONDS).run()
    assert _queued_behind(gate, at, runners) == (
        GateState(1, running=(2,), waiting=(3,)),  # ticket 1: the first run's preview
        [_note("The preview")],
        ["threads_migrate_preview_wait_cancel"],
    )
    assert {metric.label: int(metric.value) for metric in at.metric} == {
        "Threads": 10, "Checkpoints": 10, "Broken before": 3, "Fixed": 0, "Still broken": 3,
    }  # fmt: skip


def test_reading_an_upload_waits_behind_a_held_slot_then_lists_its_threads(gate, runners, tmp_path):
    store = tmp_path / "mine.sqlite"
    build_demo_store(store)
    at = AppTest.from_file(PAGE, default_timeout=SECONDS).run()
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(("mine.sqlite", store.read_bytes(), ""))
    state, notes, cancels = _queued_behind(gate, at, runners)
    assert (state.waiting, notes, cancels) == (
        (state.running[0] + 1,),
        [_note("Reading your upload")],
        ["threads_read_wait_cancel"],
    )
    assert at.code[0].value == "uploaded file mine.sqlite"
    assert len(table_rows(at, "thread_id")) == 10


def test_cancel_leaves_the_queue_and_the_page_says_how_to_start_again(gate, runners):
    at = AppTest.from_file(PAGE, default_timeout=SECONDS).run()
    at.button(key=keys.THREADS_AUDIT_RUN).click()
    held = gate.enter()
    with _running(at):
        _eventually(lambda: bool(runners) and _waiting(runners[-1])[1] != [])
        waiting = _so_far(runners[-1])
        waiting._runner = at  # its widgets' values: the session's
        waiting.button(key=keys.wait_cancel(keys.THREADS_AUDIT)).click()  # as the browser sends it
        runners[-1].request_rerun(RerunData(widget_states=waiting.get_widget_states()))
        # the audit's ticket has left; the new run's migration preview queues next
        _eventually(lambda: gate.state() == GateState(1, (held,), (held + 2,)))
        gate.leave(held)
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "Audit cancelled before any thread was checked: press Run audit to start it again."
    ]
    assert at.session_state[keys.THREADS_AUDIT_JOB]["parts"] == []
    assert keys.THREADS_AUDIT_RUN in [b.key for b in at.button]
    assert gate.state() == GateState(1, (), ())
    # Run audit starts it again
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert at.text[0].value == "10 threads, 10 checkpoints audited; 2 invalid states in 2 threads"


def test_a_run_stopped_while_it_waits_gives_its_ticket_back(gate, monkeypatch):
    at = AppTest.from_file(PAGE, default_timeout=SECONDS).run()
    held = gate.enter()
    # a run that times out is stopped by AppTest, as a closed tab stops a server's run; the
    # mock runtime it leaves behind is taken back after the test
    monkeypatch.setattr(Runtime, "_instance", Runtime._instance)
    with pytest.raises(RuntimeError, match=r"AppTest script run timed out after 2\(s\)"):
        at.button(key=keys.THREADS_AUDIT_RUN).click().run(timeout=2)
    assert gate.state() == GateState(1, (held,), ())


def test_a_bad_setting_is_logged_with_its_code_and_the_cpu_count_is_used(monkeypatch, caplog):
    monkeypatch.setenv(HEAVY_JOBS_ENV, "many")
    heavy_gate.clear()
    try:
        with caplog.at_level(logging.WARNING, logger="ui.heavy"):
            slots = heavy_gate().state().slots
    finally:
        heavy_gate.clear()
    cpus = os.cpu_count() or 1
    assert (slots, [(r.name, r.levelname, r.getMessage()) for r in caplog.records]) == (
        cpus,
        [("ui.heavy", "WARNING",
          f"[heavy_jobs] PLAYGROUND_HEAVY_JOBS='many' is not a positive integer; {cpus} (the "
          "CPU count) is used. Set it to a whole number of 1 or more, or unset it.")],
    )  # fmt: skip
