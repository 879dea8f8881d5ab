"""Threads page, after a Migrate write: the Timeline's stepper opens on the thread's newest
checkpoint, as when the thread is opened fresh, however the browser still holds its slider."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from streamlit.testing.v1 import AppTest

from core.lg_compat import recompile
from core.order import build_order_graph
from core.stores.demo import DEMO_THREADS
from tests.app.conftest import open_demo_threads
from ui import keys
from ui.threads.migrate.plan_grid import cell_key

pytestmark = pytest.mark.usefixtures("session_ends")  # each test's demo store is its own
THREAD = "fault-bad_status_last"
STATUS_MAP = {"path": "status", "action": "map", "from": "shipped", "to": "confirmed"}


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    """The page with writes on, its demo store built in `tmp_path`, THREAD open."""
    page = open_demo_threads(monkeypatch, tmp_path, writes=True)
    page.selectbox(key=keys.THREADS_THREAD).set_value(THREAD).run()
    assert not page.exception
    return page


def _migrate(at: AppTest) -> None:
    """On the Migrate tab: a plan of one step (STATUS_MAP), its dry run, then Write."""
    at.session_state[keys.THREADS_TAB] = "Migrate"
    at.run()
    base = at.session_state[keys.THREADS_MIGRATE_BASE]
    row = len(base["rows"])  # the new line under the proposal's rows
    for column, value in STATUS_MAP.items():
        key = cell_key(base["generation"], row, column)
        cell = at.selectbox(key=key) if column == "action" else at.text_input(key=key)
        cell.set_value(value)
    at.run()
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    write = at.button(key=keys.THREADS_MIGRATE_APPLY)
    assert write.label == "Write 1 checkpoint"
    write.click().run()
    assert not at.exception


def _as_the_browser_sends(at: AppTest, held: str) -> AppTest:
    """Rerun as the browser does when a tab is clicked: every widget's state, the slider's
    being the label it shows. That is the one the page last set (`set_value`), else the one
    it held before (`held`). AppTest itself would send the label of the value the page read
    last, under the new options: a browser's slider holds no such label."""
    slider = at.select_slider(key=keys.THREADS_STEP)
    if slider.proto.set_value:
        (held,) = slider.proto.raw_value
    states = at._tree.get_widget_states()  # the browser's message, rebuilt
    for state in states.widgets:
        if state.id == slider.id:
            state.string_array_value.data[:] = [held]
    return at._run(states)


def test_after_a_migrate_write_the_timeline_opens_on_the_thread_newest_checkpoint(
    at: AppTest,
) -> None:
    before = at.select_slider(key=keys.THREADS_STEP)
    held = before.options[3]  # what the browser's slider shows (the blamed), and sends
    assert (before.value, held) == (3, "checkpoint 4 of 4 · step 2 · loop · invalid")
    (ids,) = [c.value for c in at.code if c.value.startswith("checkpoint_id  ")]
    head = ids.splitlines()[0].removeprefix("checkpoint_id  ")
    _migrate(at)
    at.session_state[keys.THREADS_TAB] = "Timeline"  # the tab clicked
    _as_the_browser_sends(at, held)
    assert not at.exception
    stepper = at.select_slider(key=keys.THREADS_STEP)
    assert (stepper.options, stepper.value) == (
        [
            "checkpoint 1 of 5 · step -1 · input",
            "checkpoint 2 of 5 · step 0 · loop",
            "checkpoint 3 of 5 · step 1 · loop",
            "checkpoint 4 of 5 · step 2 · loop · invalid",
            "checkpoint 5 of 5 · step 3 · update",
        ],
        4,
    )
    # the panels are the new head's: forked from the invalid checkpoint, its status mapped
    (ids,) = [c.value for c in at.code if c.value.startswith("checkpoint_id  ")]
    assert ids.splitlines()[1] == f"parent_id      {head}"
    assert json.loads(at.json[0].value)["status"] == "confirmed"
    # the thread's verdict: the migrated fork goes on from the invalid checkpoint it read
    assert (
        "Every state the latest run stored is valid under the model. Older checkpoints (step 2) "
        "are still invalid; the thread goes on from a valid state written after them."
    ) in [c.value for c in at.code]


def test_a_thread_opened_fresh_after_the_write_opens_on_the_same_checkpoint(at: AppTest) -> None:
    _migrate(at)
    at.selectbox(key=keys.THREADS_THREAD).set_value("clean-1").run()
    at.selectbox(key=keys.THREADS_THREAD).set_value(THREAD).run()
    stepper = at.select_slider(key=keys.THREADS_STEP)
    assert (stepper.value, stepper.options[-1]) == (4, "checkpoint 5 of 5 · step 3 · update")


def test_a_step_picked_on_the_same_timeline_is_kept(at: AppTest) -> None:
    at.select_slider(key=keys.THREADS_STEP).set_value(1).run()
    at.session_state[keys.THREADS_TAB] = "Audit"
    at.run()
    assert at.select_slider(key=keys.THREADS_STEP).value == 1


def test_a_verdict_that_relabels_the_checkpoints_keeps_the_one_shown(at: AppTest) -> None:
    """Checked against the candidate, model-change's checkpoints are marked invalid: their
    labels change, the checkpoint shown stays (the browser still sends the old label)."""
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    at.select_slider(key=keys.THREADS_STEP).set_value(1).run()
    held = at.select_slider(key=keys.THREADS_STEP).options[1]
    at.radio(key=keys.THREADS_CURRENT).set_value("candidate")
    _as_the_browser_sends(at, held)  # the radio's click: the slider as the browser holds it
    assert not at.exception
    stepper = at.select_slider(key=keys.THREADS_STEP)
    assert (held, stepper.value, stepper.options[1]) == (
        "checkpoint 2 of 4 · step 0 · loop",
        1,
        "checkpoint 2 of 4 · step 0 · loop · invalid",
    )
    # the next click sends what the browser holds: the label the page set, or the old one
    at.session_state[keys.THREADS_TAB] = "Audit"
    _as_the_browser_sends(at, held)
    assert at.select_slider(key=keys.THREADS_STEP).value == 1


def test_a_checkpoint_written_elsewhere_keeps_the_one_shown(at: AppTest, tmp_path: Path) -> None:
    """Another writer (a run, a colleague) adds a checkpoint to the open thread: the stepper
    stays on the checkpoint the user chose, found by its id under its new label."""
    at.select_slider(key=keys.THREADS_STEP).set_value(1).run()
    stepper = at.select_slider(key=keys.THREADS_STEP)
    held, shown = stepper.options[1], _ids_drawn(at)
    with closing(sqlite3.connect(tmp_path / "demo.sqlite", check_same_thread=False)) as conn:
        graph = recompile(build_order_graph(DEMO_THREADS[THREAD][0]), SqliteSaver(conn))
        graph.update_state({"configurable": {"thread_id": THREAD}}, {"status": "confirmed"})
    at.session_state[keys.THREADS_TAB] = "Audit"  # any click: the browser sends `held`
    _as_the_browser_sends(at, held)
    assert not at.exception
    stepper = at.select_slider(key=keys.THREADS_STEP)
    assert (held, stepper.value, stepper.options[1], len(stepper.options)) == (
        "checkpoint 2 of 4 · step 0 · loop", 1, "checkpoint 2 of 5 · step 0 · loop", 5,
    )  # fmt: skip
    assert _ids_drawn(at) == shown  # the same checkpoint's ids


def _ids_drawn(at: AppTest) -> str:
    (ids,) = [c.value for c in at.code if c.value.startswith("checkpoint_id  ")]
    return ids
