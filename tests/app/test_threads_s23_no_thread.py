"""Threads page with no thread open (a filter that matches none): what needs a thread says so
in one line, the Share link carries the filters; Audit and Migrate act on the whole store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import open_demo_threads, shared
from ui import keys

pytestmark = pytest.mark.usefixtures("session_ends")
HOSTILE = "日本🎉<b>x</b>"  # matches no thread: wide and emoji text, and markup kept as text
NONE_OPEN = (
    "No thread is open: the Timeline, Guard and Unbrick tabs need one; Audit and Migrate read "
    "the whole store."
)


def _open(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, writes: bool) -> AppTest:
    return open_demo_threads(monkeypatch, tmp_path, writes=writes)


def _tabs(at: AppTest) -> dict[str, list[tuple[str, Any]]]:
    """Each tab's top elements: (kind, text) for a caption, (kind, None) for a block."""
    return {
        tab.label: [
            (type(child).__name__, getattr(child, "value", None)) for child in tab.children.values()
        ]
        for tab in at.tabs
    }


def _filtered(at: AppTest) -> AppTest:
    at.text_input(key=keys.THREADS_CONTAINS).input(HOSTILE).run()
    assert not at.exception
    return at


@pytest.mark.parametrize("writes", [True, False])
def test_a_filter_that_matches_no_thread_says_what_needs_one_and_links_the_filters(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, writes: bool
) -> None:
    at = _open(monkeypatch, tmp_path, writes=writes)
    assert keys.THREADS_SHARE in [button.key for button in at.button]  # a thread is open
    _filtered(at)
    assert [info.value for info in at.info] == ["No thread matches these filters.", NONE_OPEN]
    # the link carries the list as filtered, no thread and no checkpoint
    at.button(key=keys.THREADS_SHARE).click().run()
    assert shared(at) == {
        "page": "threads", "source": "demo", "current": "same", "contains": HOSTILE,
        "status": "all", "page_size": 25, "cursors": [""], "tab": "Timeline",
    }  # fmt: skip
    off = (
        "Writing a repaired state is off on this server (start it with "
        "PLAYGROUND_STORE_WRITES=1 to allow it); the other tabs are read-only."
    )
    assert _tabs(at) == {
        "Timeline": [("Caption", "Open a thread to see its checkpoints.")],
        "Guard": [("Caption", "Open a thread to see how the guard reads it.")],
        "Audit": [("Block", None)],  # the whole store's: drawn as ever
        "Migrate": [("Block", None)],
        "Unbrick": [("Caption", "Open a thread to unbrick it." if writes else off)],
    }
    # the store-wide tools are there to use: the audit's Run, Migrate's Propose
    assert {keys.THREADS_AUDIT_RUN, keys.THREADS_MIGRATE_PROPOSE} <= {b.key for b in at.button}


def test_clearing_the_filter_opens_a_thread_with_its_tabs_and_link_again(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    at = _filtered(_open(monkeypatch, tmp_path, writes=True))
    at.text_input(key=keys.THREADS_CONTAINS).input("").run()
    assert not at.exception
    assert NONE_OPEN not in [info.value for info in at.info]
    assert keys.THREADS_SHARE in [button.key for button in at.button]
    assert at.select_slider(key=keys.THREADS_STEP).options[-1].startswith("checkpoint ")
    opened = [c.value for c in at.caption if c.value.startswith("Open a thread")]
    assert opened == []  # each tab shows its thread's tools again
