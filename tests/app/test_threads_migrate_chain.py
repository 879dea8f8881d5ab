"""Threads page's Migrate section with a chain of plans (AppTest): the ledger's v1 -> v2 -> v3
plans uploaded as several files, the chain in order, where each thread stands, the chain's
preview, dry run and apply over a real SQLite store of threads at every version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.stores.open import STORE_ENV
from core.stores.unbrick import WRITES_ENV
from tests.app.conftest import table_rows
from tests.core.migrate.ledger_stores import THREADS, write_ledger
from ui import keys
from ui.threads.migrate.plan_grid import cell_key

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "views" / "threads.py")
FIXTURES = ROOT / "tests" / "fixtures"
CHAIN = FIXTURES / "migrations" / "ledger_chain"
CHAIN_ROWS = [
    ("v2", "", "migrations.ledger:InvoiceV1", 2, "v2.toml"),
    ("v3", "v2", "migrations.ledger:InvoiceV2", 2, "v3.toml"),
]
BEFORE = "(before the first)"


def _files(*names: str) -> list[tuple[str, bytes, str]]:
    return [(name, (CHAIN / name).read_bytes(), "application/toml") for name in names]


def _ledger(path: Path) -> str:
    """A SQLite store of the ledger's threads at every version (tests/core/migrate/
    ledger_stores.py's `THREADS`): `once-*` (v1) migrated by the chain to v2 before the
    others were written; `*-done` ran to the end, `*-paused` stops before ship."""
    spec = str(path)
    write_ledger("sqlite", spec)
    return spec


@pytest.fixture
def at(monkeypatch, tmp_path) -> AppTest:
    """The page over the ledger store, v1 the model, v3 the candidate, writes on."""
    monkeypatch.syspath_prepend(str(FIXTURES))
    monkeypatch.setenv(WRITES_ENV, "1")
    monkeypatch.setenv(STORE_ENV, _ledger(tmp_path / "ledger.sqlite"))
    monkeypatch.setenv("PLAYGROUND_MODEL", "migrations.ledger:InvoiceV1")
    monkeypatch.setenv("PLAYGROUND_CANDIDATE", "migrations.ledger:InvoiceV3")
    monkeypatch.setenv("PLAYGROUND_GRAPH", "migrations.ledger:build_v1")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    return at


def _upload(at: AppTest, files: list[tuple[str, bytes, str]]) -> AppTest:
    at.file_uploader(key=keys.THREADS_MIGRATE_CHAIN_UPLOAD).set_value(files).run()
    assert not at.exception
    return at


def _standing(at: AppTest) -> list[tuple]:
    return [row[:4] for row in table_rows(at, "thread", "after", "to apply", "record")]


def _chain(at: AppTest) -> list[tuple]:
    return table_rows(at, "plan", "after", "model", "steps", "file")


def _counts(at: AppTest) -> dict[str, int]:
    return {metric.label: int(metric.value) for metric in at.metric}


def test_an_uploaded_chain_is_shown_in_order_with_where_each_thread_stands(at):
    _upload(at, _files("v3.toml", "v2.toml"))  # in any order: the ids and afters order them
    assert _chain(at) == CHAIN_ROWS
    assert _standing(at) == [
        ("once-done", "v2", "v3", "v2"),
        ("once-paused", "v2", "v3", "v2"),
        ("v1-done", BEFORE, "v2, v3", ""),
        ("v1-paused", BEFORE, "v2, v3", ""),
        ("v2-done", "v2", "v3", ""),  # InvoiceV2, v3's model, accepts its state
        ("v2-paused", "v2", "v3", ""),
        ("v3-done", BEFORE, "v2, v3", ""),  # no version's model fits: the whole chain
        ("v3-paused", BEFORE, "v2, v3", ""),
    ]
    # the chain stands in for the table's one plan, and its preview counts each plan's steps
    assert not [w for w in at.text_input if w.key.startswith(keys.THREADS_MIGRATE_STEPS)]
    assert _counts(at) == {
        "Threads": 8, "Checkpoints": 8, "Broken before": 6, "Fixed": 6, "Still broken": 0,
    }  # fmt: skip
    assert table_rows(at, "plan", "path", "action", "changed", "fixed") == [
        ("v2", "user_id", "rename", 2, 2),
        ("v2", "currency", "default", 4, 0),
        ("v3", "currency", "drop", 8, 8),
        ("v3", "status", "map", 3, 3),
    ]


def test_the_chains_dry_run_and_apply_write_each_thread_from_where_it_stands_once(at):
    _upload(at, _files("v2.toml", "v3.toml"))
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert not at.exception
    planned = [row[0] for row in table_rows(at, "thread", "from checkpoint")]
    assert planned == THREADS[:6]
    at.button(key=keys.THREADS_MIGRATE_APPLY).click().run()
    assert not at.exception
    written = at.session_state[keys.THREADS_MIGRATE_WRITTEN]
    assert ([row["thread_id"] for row in written["rows"]], written["as_planned"]) == (
        THREADS[:6], True)  # fmt: skip
    # each migrated thread now stands after the chain's last plan; the v3 ones, as before
    assert _standing(at) == [
        *[(thread, "v3", "(none)", "v3") for thread in THREADS[:6]],
        ("v3-done", BEFORE, "v2, v3", ""),
        ("v3-paused", BEFORE, "v2, v3", ""),
    ]
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert [info.value for info in at.info][-1].startswith("Nothing to write:")


def _said(at: AppTest) -> list[str]:
    """The Migrate section's errors (the thread list's own are elsewhere on the page)."""
    return [error.value for error in at.error if error.value.startswith("The uploaded")]


def _refusal(at: AppTest) -> list[str]:
    """The sentence under the refusal (its code is in the alert: `_said`)."""
    return [code.value for code in at.code if code.value.startswith("The uploaded chain")]


def test_files_that_are_not_one_chain_are_refused_with_the_code_and_kept(at):
    orphan = ("v4.toml", b'id = "v4"\nafter = "v9"\n', "application/toml")
    _upload(at, [*_files("v2.toml", "v3.toml"), orphan])
    assert _said(at) == [
        "The uploaded files are not one chain (the table's plan stays) [plan_chain]:"
    ]
    assert _refusal(at) == [
        "The uploaded chain: v4.toml: after = 'v9': no plan has that id; the ids are v2, v3, v4."
    ]
    uploader = at.file_uploader(key=keys.THREADS_MIGRATE_CHAIN_UPLOAD)
    assert [file.name for file in uploader.value] == ["v2.toml", "v3.toml", "v4.toml"]
    assert keys.THREADS_MIGRATE_CHAIN not in at.session_state
    assert at.text_input(key=cell_key(0, 0, "path")) is not None  # the table's plan stays


def test_a_cycle_two_ids_and_a_model_from_outside_the_project_are_each_refused(at):
    first = ("a.toml", b'id = "a"\nafter = "b"\n', "")
    second = ("b.toml", b'id = "b"\nafter = "a"\n', "")
    _upload(at, [first, second])
    assert _refusal(at) == [
        "The uploaded chain: every plan names one it comes after (a, b): a cycle; "
        "the first plan has no after."
    ]
    _upload(at, [("a.toml", b'id = "a"\n', ""), ("c.toml", b'id = "a"\nafter = "a"\n', "")])
    assert _refusal(at) == [
        "The uploaded chain: c.toml: id = 'a' is also a.toml's; give each plan its own."
    ]
    _upload(at, [("a.toml", b'id = "a"\nmodel = "antigravity:Model"\n', "")])
    assert _refusal(at) == [
        "The uploaded chain: a.toml: model = 'antigravity:Model': the page reads "
        "a plan's model only from the project's own modules, already loaded; name one of "
        "them, or leave model out (a thread then starts after its migration record, else at "
        "the first plan)."
    ]
    import sys

    assert "antigravity" not in sys.modules


def test_a_refused_upload_keeps_the_chain_in_use_and_the_table_comes_back_on_request(at):
    _upload(at, _files("v2.toml", "v3.toml"))
    _upload(at, [("v2.toml", b"[[step]]\npath = 1\n", "")])
    assert _said(at) == [
        "The uploaded files are not one chain (the chain below is unchanged) [plan_step]:"
    ]
    assert _chain(at) == CHAIN_ROWS
    at.button(key=keys.THREADS_MIGRATE_CHAIN_CLEAR).click().run()
    assert not at.exception
    assert _chain(at) == []
    assert at.text_input(key=cell_key(0, 0, "path")) is not None


def test_one_thread_before_and_after_runs_only_the_plans_after_where_it_stands(at):
    _upload(at, _files("v2.toml", "v3.toml"))
    at.selectbox(key=keys.THREADS_MIGRATE_THREAD).set_value(("once-done", "")).run()
    assert not at.exception
    # migrated to v2 already (its fork records v2): only v3's two steps, numbered in v3
    assert table_rows(at, "field", "step", "action") == [
        ("currency", 1, "drop"),
        ("status", 2, "map"),
    ]
    after = [element.value for element in at.json][-1]
    assert json.loads(after) == {"customer_id": "u-1", "amount": 12.5, "status": "fulfilled"}
    at.selectbox(key=keys.THREADS_MIGRATE_THREAD).set_value(("v1-done", "")).run()
    assert table_rows(at, "field", "step", "action") == [
        ("user_id", 1, "rename"),
        ("currency", 2, "default"),
        ("currency", 3, "drop"),
        ("status", 4, "map"),
    ]


def test_a_chain_stopped_after_its_first_plan_applies_and_counts_only_that_plan(at):
    _upload(at, _files("v2.toml", "v3.toml"))
    assert at.selectbox(key=keys.THREADS_MIGRATE_CHAIN_TO).value == "v3"  # the whole chain
    at.selectbox(key=keys.THREADS_MIGRATE_CHAIN_TO).set_value("v2").run()
    assert not at.exception
    assert _chain(at) == CHAIN_ROWS  # the chain is still shown whole
    assert _standing(at) == [
        ("once-done", "v2", "(none)", "v2"),
        ("once-paused", "v2", "(none)", "v2"),
        ("v1-done", BEFORE, "v2", ""),
        ("v1-paused", BEFORE, "v2", ""),
        ("v2-done", "v2", "(none)", ""),
        ("v2-paused", "v2", "(none)", ""),
        ("v3-done", BEFORE, "v2", ""),
        ("v3-paused", BEFORE, "v2", ""),
    ]
    # v3, the candidate, rejects every v2 state (a currency, a shipped status): none is fixed
    assert _counts(at) == {
        "Threads": 8, "Checkpoints": 8, "Broken before": 6, "Fixed": 0, "Still broken": 8,
    }  # fmt: skip
    assert table_rows(at, "plan", "path", "action", "changed", "fixed") == [
        ("v2", "user_id", "rename", 2, 2),
        ("v2", "currency", "default", 4, 0),
    ]
    at.button(key=keys.THREADS_MIGRATE_DRY_RUN).click().run()
    assert [info.value for info in at.info][-1].startswith("Nothing to write:")  # v3 rejects v2
