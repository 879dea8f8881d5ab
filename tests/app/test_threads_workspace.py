"""Threads as a workspace with AppTest: one model judges the list, the thread, the audit, migrate."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests.app.conftest import table_rows
from ui import keys
from ui.threads.share import THREAD_TABS

pytestmark = pytest.mark.usefixtures("session_ends")  # each test's demo store is its own
PAGE = str(Path(__file__).resolve().parents[2] / "views" / "threads.py")


@pytest.fixture
def at(monkeypatch: pytest.MonkeyPatch) -> Iterator[AppTest]:
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    yield AppTest.from_file(PAGE, default_timeout=60).run()


def _judged(at: AppTest) -> dict[str, object]:
    """What each view says it judges model-change by: the header, the list's status, the
    open thread's headline, the audit's button and findings, Migrate's target."""
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert not at.exception
    headline = [
        a.value
        for a in (*at.success, *at.error, *at.warning)
        if "thread" in a.value and ("under" in a.value or "fails" in a.value)
    ]
    return {
        "header": [c.value for c in at.caption if c.value.startswith("Judged against")],
        "list": {row[0]: row[1] for row in table_rows(at, "thread_id")}["model-change"],
        "thread": headline,
        "audit": at.button(key=keys.THREADS_AUDIT_RUN).label,
        "audit finds it": "model-change"
        in {row[0] for row in table_rows(at, "thread_id", "checkpoint_id")},
        "migrate": [c.value for c in at.caption if c.value.startswith("Carry the stored threads")],
        "radios": [r.key for r in at.radio if r.key != keys.THREADS_SOURCE],
    }


def test_the_list_the_thread_the_audit_and_migrate_judge_by_the_one_model_the_header_names(
    at: AppTest,
) -> None:
    at.selectbox(key=keys.THREADS_THREAD).set_value("model-change").run()
    assert _judged(at) == {
        "header": [
            "Judged against **AgentState**: the list, the open thread and the audit. Migrate "
            "carries threads from AgentState to CandidateState."
        ],
        "list": "valid",
        "thread": ["The latest state of this thread is valid under AgentState."],
        "audit": "Run audit against AgentState",
        "audit finds it": False,
        "migrate": [
            "Carry the stored threads from AgentState to CandidateState: the proposed steps "
            "(edit them, or upload a plan), their preview over this store, any thread before "
            "and after, then Apply (when the server allows writes)."
        ],
        "radios": [keys.THREADS_CURRENT],  # one choice of model on the page, no other
    }
    at.radio(key=keys.THREADS_CURRENT).set_value("candidate").run()
    judged = _judged(at)
    assert judged == {
        "header": [
            "Judged against **CandidateState**: the list, the open thread and the audit. "
            "Migrate carries threads from AgentState to CandidateState."
        ],
        "list": "would not resume",
        "thread": ["This thread would not resume under CandidateState: its latest state fails it."],
        "audit": "Run audit against CandidateState",
        "audit finds it": True,
        "migrate": judged["migrate"],  # its target is the candidate either way
        "radios": [keys.THREADS_CURRENT],
    }


def test_the_threads_tools_are_tabs_beside_the_list_each_drawn(at: AppTest) -> None:
    assert [tab.label for tab in at.tabs] == ["Timeline", "Guard", "Audit", "Migrate", "Unbrick"]
    assert list(THREAD_TABS) == [tab.label for tab in at.tabs]
    # the list in the first column, the open thread (its headline, then its tabs) beside it
    panes = [column for column in at.columns if column.subheader]
    assert [[s.value for s in pane.subheader] for pane in panes] == [
        ["Thread list"],
        ["Open thread"],
    ]
    thread_pane = panes[1]
    assert thread_pane.code[0].value == "clean-1"  # the whole id, with its copy button
    tabs = {tab.label: tab for tab in at.tabs}
    assert list(tabs["Timeline"].dataframe[0].value.columns[:3]) == ["step", "source", "written by"]
    assert tabs["Audit"].button[0].key == keys.THREADS_AUDIT_RUN
    assert "Writing a repaired state is off on this server" in tabs["Unbrick"].caption[0].value
