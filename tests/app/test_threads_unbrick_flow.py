"""Threads page's Unbrick with AppTest: one sentence before it, then after the write the row
written and what to do next; the resume call it shows, run, finishes the thread."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from streamlit.testing.v1 import AppTest

from core.lg_compat import recompile
from core.order import build_order_graph
from core.stores.demo import DEMO_THREADS
from tests.app._editor import editor
from tests.app.conftest import open_demo_threads, table_rows
from ui import keys
from ui.text import plain
from ui.threads.listing import short_ids

pytestmark = pytest.mark.usefixtures("session_ends")


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    """The page with writes on, its demo store built in `tmp_path` (the test reads it)."""
    return open_demo_threads(monkeypatch, tmp_path, writes=True)


def _unbrick(at: AppTest, thread: str, field: str, value: Any) -> dict[str, Any]:
    """Open `thread`, set `field` in its broken state, dry-run it; returns the dry run."""
    at.selectbox(key=keys.THREADS_THREAD).set_value(thread).run()
    text = editor(at, keys.THREADS_UNBRICK_TEXT)
    state = json.loads(text.value)
    state[field] = value
    text.input(json.dumps(state, indent=2)).run()
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert not at.exception
    dry_run: dict[str, Any] = json.loads(at.json[-1].value)
    return dry_run


def _intro(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if c.value.startswith("Unbrick writes")]


def _next(at: AppTest) -> tuple[str, str] | None:
    try:
        box = at.main.get_by_key(keys.THREADS_WRITE_NEXT)
    except KeyError:
        return None
    return box.caption[0].value, box.code[0].value


def test_unbrick_says_what_it_writes_and_from_which_checkpoint_before_the_editor(at):
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-negative_amount").run()
    (said,) = _intro(at)
    dry_run = _unbrick(at, "fault-negative_amount", "amount", 99)
    # the sentence names the checkpoint LangGraph's fork starts from, as the dry run does
    assert said == plain(
        "Unbrick writes the state below, once you edit, dry-run and confirm it, as one new "
        "checkpoint of thread fault-negative_amount forked from checkpoint "
        f"{dry_run['fork_from_checkpoint']} (step 0, the last valid one, before "
        "validate_order's write broke the state), written as validate_order so the run goes "
        "on with what follows it; no stored row changes."
    )
    assert dry_run["as_node"] == "validate_order"
    # the dry run's row, as Migrate's: what will be written, where from, as which node
    (row,) = table_rows(at, "thread", "from checkpoint", "as node", "fields written")
    assert (*row[:3], json.loads(row[3])) == (
        "fault-negative_amount", dry_run["fork_from_checkpoint"], "validate_order",
        dry_run["values"],
    )  # fmt: skip
    assert [c.value for c in at.caption if c.value.startswith("Confirm")] == [
        plain(
            "Confirm: write it as one new checkpoint of thread fault-negative_amount, forked "
            f"from checkpoint {dry_run['fork_from_checkpoint']}."
        )
    ]
    assert at.button(key=keys.THREADS_UNBRICK_WRITE).label == "Write 1 checkpoint"
    assert _next(at) is None  # nothing written yet


def test_after_an_unbrick_the_resume_call_shown_runs_the_thread_to_its_end(at, tmp_path):
    dry_run = _unbrick(at, "fault-negative_amount", "amount", 99)
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not at.exception
    (written,) = table_rows(at, "thread", "from checkpoint", "new checkpoint")
    # the ids as their start and end (as the timeline shows them); the config above: whole
    (config,) = [json.loads(shown.value) for shown in at.json if '"configurable"' in shown.value]
    new = config["configurable"]["checkpoint_id"]
    assert written == ("fault-negative_amount", *short_ids([dry_run["fork_from_checkpoint"], new]))
    said, code = _next(at) or ("", "")
    assert said == plain(
        "Next: the thread waits at the new checkpoint to run confirm (the list reads it as "
        "interrupted until then). Resume it, and the run goes on from the repaired state:"
    )
    assert code == (
        "# graph: your graph, compiled with a checkpointer on this store\n"
        'graph.invoke(None, {"configurable": {"thread_id": "fault-negative_amount"}})'
    )
    # LangGraph is the oracle: the code shown, run on the store, finishes the thread
    faults = DEMO_THREADS["fault-negative_amount"][0]
    with closing(sqlite3.connect(tmp_path / "demo.sqlite", check_same_thread=False)) as conn:
        graph = recompile(build_order_graph(faults), SqliteSaver(conn))
        scope: dict[str, Any] = {"graph": graph}
        exec(code, scope)  # the page's own text, run as a user would
        state = graph.get_state({"configurable": {"thread_id": "fault-negative_amount"}})
    assert (state.next, state.values["status"], state.values["amount"]) == ((), "confirmed", 99)
    assert state.values["logs"][-1] == "confirmed"


def test_an_unbrick_as_the_last_node_says_the_run_is_complete_and_how_to_go_on(at):
    _unbrick(at, "fault-bad_status_last", "status", "confirmed")
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not at.exception
    assert _next(at) == (
        plain(
            "Next: no node is due at the new checkpoint, so the thread's run is complete; its "
            "next input starts a new run from the repaired state:"
        ),
        "# graph: your graph, compiled with a checkpointer on this store\n"
        'graph.invoke(new_input, {"configurable": {"thread_id": "fault-bad_status_last"}})',
    )
    at.selectbox(key=keys.THREADS_THREAD).set_value("clean-1").run()
    assert _next(at) is None  # said once, after the write


def _valid_said(at: AppTest) -> list[str]:
    return [c.value for c in at.caption if "nothing needs unbricking" in c.value]


def test_a_valid_thread_and_one_just_unbricked_say_nothing_needs_unbricking(at):
    at.selectbox(key=keys.THREADS_THREAD).set_value("clean-1").run()
    assert _valid_said(at) == [
        plain("Thread clean-1's latest state is valid: nothing needs unbricking.")
    ]
    assert len(_intro(at)) == 1  # an edit of it can still be written, as the sentence says
    _unbrick(at, "fault-negative_amount", "amount", 99)
    assert _valid_said(at) == []  # a broken thread: the sentence is the repair's
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert _valid_said(at) == [
        plain("Thread fault-negative_amount's latest state is valid: nothing needs unbricking.")
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"amount": 99,\n  bad}', (
            "The edited state is not valid JSON [json_syntax]:",
            "Line 2, column 3: Invalid JSON: Expecting property name enclosed in double quotes — "
            "keys need double quotes, and a trailing comma before } is not allowed.",
        )),
        ("[" * 300 + "]" * 300, (
            "The edited state is refused [too_deep]:",
            "Line 1, column 201: The payload nests deeper than 200 levels; flatten it.",
        )),
        ('{"amount": ' + "1" * 5000 + "}", (
            "The edited state is refused [number_too_long]:",
            "Line 1, column 12: An integer has 5,000 digits; the limit is 4,300. Shorten it or "
            "send it as a string.",
        )),
        ('{"notes": "' + "x" * 2_000_000 + '"}', (  # a size has no line and column
            "The edited state is refused [too_large]:",
            "The payload is 2,000,013 bytes; the limit is 2,000,000. Remove items or shorten "
            "long strings.",
        )),
    ],
)  # fmt: skip
def test_an_edit_that_cannot_be_read_says_where_and_why(at, text, said):
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-negative_amount").run()
    editor(at, keys.THREADS_UNBRICK_TEXT).input(text).run()
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert not at.exception
    assert (at.error[-1].value, at.code[-1].value) == said
    assert editor(at, keys.THREADS_UNBRICK_TEXT).value == text  # the user's text is kept
