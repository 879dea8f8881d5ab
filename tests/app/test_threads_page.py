"""Threads page with AppTest: the demo store, statuses, blame, audit, uploads, a DSN's secrecy."""

from __future__ import annotations

import json
import tempfile
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from streamlit.runtime.caching import clear_session_resource_cache
from streamlit.testing.v1 import AppTest

from bench.audit import build_store
from core.stores.demo import DEMO_THREADS, build_demo_store
from core.stores.open import STORE_ENV, store_label
from core.stores.unbrick import WRITES_ENV
from tests.app._editor import editor
from tests.app.conftest import SESSION_ID, phone_layouts, shared, table_rows, token
from tests.core.stores.conftest import PG_PASSWORD, postgres, postgres_demo  # noqa: F401
from ui import keys
from ui.threads.audit import SLICES
from ui.threads.columns import PHONE_COLUMNS
from ui.threads.source import MAX_UPLOAD_BYTES

pytestmark = pytest.mark.usefixtures("session_ends")  # each test's demo store is its own
ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "views" / "threads.py")


@pytest.fixture
def at(monkeypatch) -> AppTest:
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    return AppTest.from_file(PAGE, default_timeout=60).run()


def _all_text(at: AppTest) -> str:
    """Every rendered element's protobuf as text: labels, values, options, messages."""
    found: list[str] = []

    def walk(node) -> None:
        if getattr(node, "proto", None) is not None:
            found.append(str(node.proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(found)


def test_the_demo_store_lists_every_thread_with_the_status_the_demo_defines(at):
    assert not at.exception
    rows = table_rows(at, "thread_id")
    # the list fits its pane beside the open thread: id, status, detail (no more columns)
    assert [(row[0], row[1], row[2]) for row in rows] == [
        ("clean-1", "valid", ""),
        ("clean-2", "valid", ""),
        ("fault-bad_status_last", "broken at step 2", "written by confirm"),
        ("fault-negative_amount", "broken at step 1", "written by validate_order"),
        ("fault-node_exception", "interrupted", "a task raised; next: confirm"),
        ("fault-overwrite_logs", "valid", ""),
        ("fault-parallel_status", "interrupted", "next: audit, validate_order"),
        ("fault-undeclared_key", "valid", ""),
        ("interrupted", "interrupted", "next: confirm"),
        ("model-change", "valid", ""),
    ]
    assert [row[0] for row in rows] == sorted(DEMO_THREADS)
    # to the second, in UTC: each thread's last checkpoint was written a moment ago
    # the open thread's counts and time are said under the list (to the second, in UTC)
    # (said as plain text: Markdown's marks escaped, which the reader does not see)
    captions = [c.value.replace("\u2060", "").replace("\\", "") for c in at.caption]
    (said,) = [c for c in captions if c.startswith("The open thread: ")]
    counted, when = said.removeprefix("The open thread: ").split(" · last written ")
    assert counted == "4 checkpoints · last step 2"  # clean-1, open first
    now = datetime.now(UTC)
    stamp = datetime.strptime(when, "%Y-%m-%d %H:%M:%S UTC").replace(tzinfo=UTC)
    assert now - timedelta(minutes=10) <= stamp <= now
    at.radio(key=keys.THREADS_CURRENT).set_value("candidate").run()
    assert dict((row[0], row[1]) for row in table_rows(at, "thread_id"))["model-change"] == (
        "would not resume"
    )
    at.selectbox(key=keys.THREADS_STATUS).set_value("interrupted").run()
    assert [row[0] for row in table_rows(at, "thread_id")] == [
        "fault-node_exception", "fault-parallel_status", "interrupted",
    ]  # fmt: skip


def test_one_page_holds_the_ten_demo_threads_and_there_is_no_next_page(at):
    at.selectbox(key=keys.THREADS_PAGE_SIZE).set_value(25).run()
    assert len(table_rows(at, "thread_id")) == 10
    assert at.button(key=keys.THREADS_NEXT).disabled and at.button(key=keys.THREADS_PREV).disabled


def test_the_broken_thread_shows_its_blamed_node_its_errors_and_writes(at):
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-negative_amount").run()
    assert not at.exception
    assert "First invalid at step 1, written by validate_order." in [c.value for c in at.code]
    assert at.select_slider(key=keys.THREADS_STEP).value == 2  # opens at the blamed checkpoint
    assert at.select_slider(key=keys.THREADS_STEP).options == [  # read aloud as they are
        "checkpoint 1 of 3 · step -1 · input",
        "checkpoint 2 of 3 · step 0 · loop",
        "checkpoint 3 of 3 · step 1 · loop · invalid",
    ]
    assert [row[:5] for row in table_rows(at, "step")] == [
        ("-1", "input", "", "user_id, amount, items, messages, logs", 0),
        ("0", "loop", "__start__", "", 0),  # the input as written at step -1
        ("1", "loop", "validate_order", "amount, status, logs, messages", 1),
    ]
    errors = table_rows(at, "path")
    assert [(row[0], row[3]) for row in errors] == [("amount", "greater_than_equal")]
    # fitted to its rows in the thread's pane: no line:col (a state has no text), no pointer
    # (the path again), no docs (a stored state's errors link nowhere)
    (table,) = [d for d in at.dataframe if "ctx" in d.value.columns]
    assert list(table.proto.column_order) == ["path", "message", "type", "input", "ctx"]
    human = '{"type": "human", "content": "Order, please", "id": "fault-negative_amount-human"}'
    ai = '{"type": "ai", "content": "Order validated", "id": "fault-negative_amount-msg-1"}'
    # The stored write is what LangGraph's saver serialized: it saves a task's writes on a
    # background thread while add_messages gives the message its id in place, so the stored
    # update holds the id or null depending on which came first (the merged state always
    # holds it). The page shows the stored value either way.
    merges = table_rows(at, "node", "field")
    update = merges[2][3]
    no_id = '{"type": "ai", "content": "Order validated", "id": null}'
    assert update in (f"[{ai}]", f"[{no_id}]")
    assert merges == [  # Trace's merge view, per stored write
        ("validate_order", "status", "(unset)", '"validated"', "last value", '"validated"'),
        ("validate_order", "logs", "(unset)", '["amount=99.0 items=1"]', "operator.add",
         '["amount=99.0 items=1"]'),
        ("validate_order", "messages", f"[{human}]", update, "add_messages",
         f"[{human}, {ai}]"),
        ("validate_order", "amount", "99", "-1", "last value", "-1"),
    ]  # fmt: skip
    # the writes, as stored, in the merge view's form (a message as type, content and id)
    assert [(row[0], row[1], row[2]) for row in table_rows(at, "node")] == [
        ("validate_order", "status", '"validated"'),
        ("validate_order", "logs", '["amount=99.0 items=1"]'),
        ("validate_order", "messages", update),
        ("validate_order", "amount", "-1"),
        ("validate_order", "branch:to:confirm", "null"),
    ]
    at.button(
        key=keys.step_button(keys.THREADS_STEP, "prev")
    ).click().run()  # Trace's stepper buttons
    assert at.select_slider(key=keys.THREADS_STEP).value == 1
    assert at.button(key=keys.step_button(keys.THREADS_STEP, "next")).disabled is False
    assert not _frame_or_none(at, "path")
    at.button(key=keys.step_button(keys.THREADS_STEP, "prev")).click().run()
    assert at.select_slider(key=keys.THREADS_STEP).value == 0
    assert at.button(key=keys.step_button(keys.THREADS_STEP, "prev")).disabled


def _captions(block) -> list[str]:
    return [caption.value for caption in block.caption]


def _line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def _frame_or_none(at: AppTest, *columns: str) -> list[tuple] | None:
    """The rows of the Timeline tab's first table starting with `columns` (the Guard tab,
    drawn too in AppTest, has its own error table)."""
    try:
        return table_rows(next(tab for tab in at.tabs if tab.label == "Timeline"), *columns)
    except StopIteration:
        return None


def test_the_audit_counts_errors_by_type_and_field_and_lists_the_threads(at):
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert not at.exception
    assert at.text[0].value == "10 threads, 10 checkpoints audited; 2 invalid states in 2 threads"
    assert table_rows(at, "type") == [
        ("greater_than_equal", "amount", 1, 1),
        ("literal_error", "status", 1, 1),
    ]
    assert [(row[0], row[2], row[3], row[4]) for row in table_rows(at, "thread_id", "checkpoint_id")] == [
        ("fault-bad_status_last", "2", "confirm", "literal_error"),
        ("fault-negative_amount", "1", "validate_order", "greater_than_equal"),
    ]  # fmt: skip
    # the page's one model judges the audit too: no choice of its own
    at.radio(key=keys.THREADS_CURRENT).set_value("candidate").run()
    assert at.button(key=keys.THREADS_AUDIT_RUN).label == "Run audit against CandidateState"
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert at.text[0].value == "10 threads, 10 checkpoints audited; 3 invalid states in 3 threads"
    assert ("less_than_equal", "amount", 1, 1) in table_rows(at, "type")
    downloads = [b.key for b in at.get("download_button") if b.key.startswith("threads_audit")]
    assert downloads == [keys.THREADS_AUDIT_CSV, keys.THREADS_AUDIT_JSON]  # the Migrate ones follow
    assert len(at.session_state[keys.THREADS_AUDIT_JOB]["parts"]) == SLICES
    assert [bar.proto.text for bar in at.get("progress")] == ["All 10 threads checked"]


def test_each_table_puts_what_names_a_row_and_its_verdict_first_within_a_phones_width(at):
    # A phone draws a table 356 px wide: the first columns, fixed widths summing to at most
    # 320 px, fit in it; rows over 64 px wrap what is longer than its column.
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    drawn = phone_layouts(at, PHONE_COLUMNS)
    assert drawn == {
        keys.THREADS_TABLE: (
            ["thread_id", "status", "detail"],
            {"thread_id": 154, "status": 126},
            35,  # each demo detail fits its column on one line: Streamlit's own row height
        ),
        keys.THREADS_TIMELINE: (
            ["step", "source", "written by", "errors", "unreadable", "changed", "pending", "time",
             "checkpoint_id", "parent_id"],
            # "written by" at least as wide as its longest word (validate_order, 87 px
            # drawn: fit_words), so no name is split over lines ("validate_orde / r"); the
            # ids are shortened
            {"step": 40, "source": 58, "written by": 110, "errors": 56},
            79,  # the time and the changed fields wrap in their columns (three lines at most)
        ),
        keys.THREADS_WRITES: (
            ["node", "channel", "value", "task_id"],
            {"node": 100, "channel": 72, "value": 148},
            0,
        ),
        keys.THREADS_AUDIT_INVALID: (
            ["thread_id", "field", "type", "step", "node", "msg", "input", "checkpoint_id"],
            # each as wide as its longest word (fit_words): no "fault-bad_statu / s_last"
            {"thread_id": 154, "field": 65, "type": 135},
            66,
        ),
    }  # fmt: skip
    # the audit's thread, field and type fill a phone's 356 px whole; its step a swipe away
    sums = {key: sum(d[1].values()) for key, d in drawn.items()}
    assert sums == {keys.THREADS_TABLE: 280, keys.THREADS_TIMELINE: 264,
                    keys.THREADS_WRITES: 320, keys.THREADS_AUDIT_INVALID: 354}  # fmt: skip


def test_a_text_file_upload_gets_a_coded_error_and_the_page_keeps_working(at):
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(
        ("notes.db", b"just some text, not a database\n" * 40, "application/octet-stream")
    ).run()
    assert not at.exception
    # the code with what did not happen, the sentence under it (a file name keeps its case)
    assert at.error[-1].value == "This store cannot be read [not_a_database]:"
    assert at.code[-1].value.startswith("notes.db is not a SQLite database")
    shown = _all_text(at)
    assert "notes.db" in shown and "playground-threads-" not in shown  # not the private copy
    at.radio(key=keys.THREADS_SOURCE).set_value("demo").run()
    assert len(table_rows(at, "thread_id")) == 10


def test_a_store_over_the_upload_limit_reaches_the_page_and_gets_its_coded_message(at):
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    uploader = at.file_uploader(key=keys.THREADS_UPLOAD)
    # The browser refuses, with Streamlit's words, a file over the uploader's cap, and the
    # server one over server.maxUploadSize: both sit above the page's limit, so a file just
    # over it reaches the page. (Outside Windows the browser's MB is 1,000,000 bytes.)
    server = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]
    assert (uploader.proto.max_upload_size_mb, server["maxUploadSize"]) == (100, 100)
    assert uploader.proto.max_upload_size_mb * 1_000_000 > MAX_UPLOAD_BYTES == 50_000_000
    uploader.set_value(("big.sqlite", bytes(MAX_UPLOAD_BYTES + 1), "")).run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "The file is not read [upload_too_large]: it is 50.1 MB, and the limit is 50 MB. "
        "Audit a larger store from the command line, or start the server with it as its "
        "store (--store or PLAYGROUND_STORE):"
    ]
    assert at.code[-1].value == "python -m core audit STORE --model pkg.mod:Model"
    assert not _frame_or_none(at, "thread_id")  # nothing was opened


def test_an_empty_upload_and_a_database_without_checkpoints_are_refused(at, tmp_path):
    import sqlite3

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE orders (id INTEGER)")
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(("empty.sqlite", b"", "")).run()
    assert at.error[-1].value == "This store cannot be read [store_empty]:"
    assert at.code[-1].value.startswith("empty.sqlite is empty (0 bytes)")
    at.file_uploader(key=keys.THREADS_UPLOAD).set_value(
        ("other.sqlite", other.read_bytes(), "")
    ).run()
    assert at.error[-1].value == "This store cannot be read [not_a_checkpoint_store]:"
    assert at.code[-1].value.startswith(
        "other.sqlite is a database but not a LangGraph checkpoint store"
    )
    assert not at.exception


def test_a_session_keeps_one_copy_of_its_upload_the_latest(monkeypatch, tmp_path):
    # this session's private directory is made under tmp_path, where the test can look
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv(STORE_ENV, raising=False)
    first, second = tmp_path / "first.sqlite", tmp_path / "second.sqlite"
    assert build_store("sqlite", str(first), 3, 6)[0] == 3  # a WAL store, as SqliteSaver's
    build_demo_store(second)  # DELETE-journaled
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key=keys.THREADS_SOURCE).set_value("upload").run()

    def copies() -> list[Path]:
        return sorted(tmp_path.glob("playground-threads-*/upload-*"))

    def upload(file: tuple[str, bytes, str] | None) -> None:
        at.file_uploader(key=keys.THREADS_UPLOAD).set_value(file).run()

    upload(("first.sqlite", first.read_bytes(), ""))
    first_copy = copies()[0]
    # SQLite made the WAL store's -shm and -wal beside the copy it read
    assert [p.name.removeprefix(first_copy.name) for p in copies()] == ["", "-shm", "-wal"]
    upload(("second.sqlite", second.read_bytes(), ""))
    second_copy = copies()[0]
    assert (copies(), first_copy.exists()) == ([second_copy], False)
    assert second_copy.read_bytes() == second.read_bytes()
    assert (at.code[0].value, len(table_rows(at, "thread_id"))) == (
        "uploaded file second.sqlite",
        10,
    )
    upload(None)  # removed from the uploader: its copy goes too
    assert (copies(), [i.value for i in at.info]) == (
        [],
        ["Upload the .sqlite file your SqliteSaver writes to read its threads."],
    )
    assert not at.exception


def test_a_dsn_configured_store_is_named_without_its_password(monkeypatch):
    monkeypatch.setenv(STORE_ENV, "postgresql://app:s3cret-Pw@127.0.0.1:1/shop")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key=keys.THREADS_SOURCE).set_value("server").run()
    assert not at.exception
    assert at.code[0].value == "postgresql://app@127.0.0.1:1/shop"
    assert at.error[-1].value == "This store cannot be read [store_unreachable]:"
    assert at.code[-1].value.startswith("Cannot connect to postgresql://app@")
    shown = _all_text(at)
    assert "postgresql://app@127.0.0.1:1/shop" in shown and "s3cret" not in shown


def test_unbrick_is_hidden_unless_the_server_enables_writes(at, monkeypatch):
    assert keys.THREADS_UNBRICK_TEXT not in at.session_state
    monkeypatch.setenv(WRITES_ENV, "1")
    page = AppTest.from_file(PAGE, default_timeout=60).run()
    page.selectbox(key=keys.THREADS_THREAD).set_value("fault-bad_status_last").run()
    text = editor(page, keys.THREADS_UNBRICK_TEXT)
    # the broken state's error is marked in the editor where it is, before any dry run
    assert [(m["line"], m["message"]) for m in text.args()["marks"]] == [
        (_line_of(text.value, '"shipped"'),
         "status: Input should be 'pending', 'validated' or 'confirmed'"),
    ]  # fmt: skip
    text.input(text.value.replace('"shipped"', '"confirmed"')).run()
    assert text.args()["marks"] == []
    page.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert not page.exception
    dry_run = page.json[-1].value
    assert '"as_node": "confirm"' in dry_run and '"status": "confirmed"' in dry_run
    page.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not page.exception
    assert page.success[-1].value.startswith("Written.")
    assert (
        dict((row[0], row[1]) for row in table_rows(page, "thread_id"))["fault-bad_status_last"]
        == "valid"
    )


def test_after_an_unbrick_write_the_stepper_opens_on_the_new_checkpoint_and_shows_it(monkeypatch):
    monkeypatch.setenv(WRITES_ENV, "1")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-bad_status_last").run()
    assert at.select_slider(key=keys.THREADS_STEP).value == 3  # the blamed checkpoint
    text = editor(at, keys.THREADS_UNBRICK_TEXT)
    fixed = text.value.replace('"shipped"', '"confirmed"')
    text.input(fixed).run()
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    at.button(key=keys.THREADS_UNBRICK_WRITE).click().run()
    assert not at.exception
    (written,) = [json.loads(j.value) for j in at.json if "configurable" in json.loads(j.value)]
    head = written["configurable"]["checkpoint_id"]
    # the timeline was read again: the fork's new head is its last row, and the stepper is on it
    assert [(row[0], row[1], row[2], row[8]) for row in table_rows(at, "step")][-1] == (
        "2", "update", "confirm", f"{head[:8]}…{head[-4:]}"
    )  # fmt: skip
    # the table shows an id's start and end; the stepped checkpoint's ids are whole
    assert f"checkpoint_id  {head}" in [c.value.splitlines()[0] for c in at.code]
    # the headline speaks of the run the thread stands on now, and names the abandoned one
    assert "The latest state of this thread is valid under AgentState." in [
        a.value for a in at.success
    ]
    assert (
        "Every state the latest run stored is valid under the model. Older checkpoints (step 2) "
        "are still invalid, but no longer on the thread's path."
    ) in [c.value for c in at.code]
    stepper = at.select_slider(key=keys.THREADS_STEP)
    assert stepper.options == [
        "checkpoint 1 of 5 · step -1 · input",
        "checkpoint 2 of 5 · step 0 · loop",
        "checkpoint 3 of 5 · step 1 · loop",
        "checkpoint 4 of 5 · step 2 · loop · invalid",
        "checkpoint 5 of 5 · step 2 · update",
    ]
    assert stepper.value == 4
    # the panels show that checkpoint: the state written, valid under the model
    assert json.loads(at.json[0].value) == json.loads(fixed)
    # the innermost column holding it (the open thread's pane holds it too)
    detail = [c for c in at.columns if "This state against the model" in _captions(c)][-1]
    assert [(a.type, a.value) for a in (*detail.success, *detail.error)] == [
        ("success", "Valid — this stored state passes the model.")
    ]
    assert not _frame_or_none(at, "path")  # and no error table


def test_a_cancelled_audit_keeps_the_threads_it_checked_and_says_so(at):
    from core.stores.audit import AuditResult, InvalidState

    error = {"type": "literal_error", "loc": ["status"], "msg": "Input should be …"}
    part = AuditResult(2, 2, [InvalidState("fault-bad_status_last", "c", 2, "confirm", [error])])
    at.session_state[keys.THREADS_AUDIT_JOB] = {
        "signature": ("demo", "demo store (this session's own copy)", "AgentState", "False"),
        "parts": [part, AuditResult(1, 1)],
        "cancelled": True,
    }
    at.run()
    assert not at.exception
    assert at.warning[0].value == (
        "Audit cancelled: the counts below cover the 3 threads checked before Cancel."
    )
    assert [bar.proto.text for bar in at.get("progress")] == ["3 threads checked so far"]
    assert at.text[0].value == (
        "3 threads, 3 checkpoints audited; 1 invalid state in 1 thread (so far)"
    )
    assert table_rows(at, "type") == [("literal_error", "status", 1, 1)]
    assert not [b for b in at.button if b.key == keys.THREADS_AUDIT_CANCEL]
    assert len(at.session_state[keys.THREADS_AUDIT_JOB]["parts"]) == 2  # nothing more ran


def test_editing_the_state_after_a_dry_run_withdraws_the_write_button(monkeypatch):
    monkeypatch.setenv(WRITES_ENV, "1")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-bad_status_last").run()
    text = editor(at, keys.THREADS_UNBRICK_TEXT)
    text.input(text.value.replace('"shipped"', '"confirmed"')).run()
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert [b.key for b in at.button if b.key == keys.THREADS_UNBRICK_WRITE]
    text.input('{"status": "pending"}').run()
    assert not [b for b in at.button if b.key == keys.THREADS_UNBRICK_WRITE]
    at.button(key=keys.THREADS_UNBRICK_VALIDATE).click().run()
    assert (at.error[-1].value, at.code[-1].value) == (
        "Nothing will be written [unbrick_invalid_edit]:",
        "The edited state still has 2 errors under the model; fix them, then dry-run again.",
    )
    table = [d for d in at.dataframe if d.value.columns[0] == "path"][-1]
    assert table.value[["path", "type"]].values.tolist() == [
        ["user_id", "missing"], ["amount", "missing"],
    ]  # fmt: skip
    # a state has no text: no line:col column (it was there, empty), the path and the whole
    # message first, at widths that wrap the message within its column
    assert list(table.proto.column_order)[:2] == ["path", "message"]
    assert "line:col" not in table.proto.column_order


def test_the_sessions_demo_store_is_deleted_when_the_session_ends(monkeypatch):
    import tempfile

    def session_dirs() -> set[Path]:
        return set(Path(tempfile.gettempdir()).glob("playground-threads-*"))

    monkeypatch.delenv(STORE_ENV, raising=False)
    before = session_dirs()
    AppTest.from_file(PAGE, default_timeout=60).run()
    made = session_dirs() - before
    assert [sorted(p.name for p in path.iterdir()) for path in made] == [["demo.sqlite"]]
    clear_session_resource_cache(SESSION_ID)  # what Streamlit does when a session disconnects
    assert not [path for path in made if path.exists()]


def test_a_postgres_store_opens_and_its_password_is_never_shown(monkeypatch, postgres_demo):  # noqa: F811
    monkeypatch.setenv(STORE_ENV, postgres_demo)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    at.radio(key=keys.THREADS_SOURCE).set_value("server").run()
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-bad_status_last").run()
    assert not at.exception
    label = at.code[0].value
    assert label == store_label(postgres_demo) and label.endswith("/demo")
    assert label.startswith("postgresql://postgres@127.0.0.1:")
    assert [row[:2] for row in table_rows(at, "thread_id")][2:4] == [
        ("fault-bad_status_last", "broken at step 2"),
        ("fault-negative_amount", "broken at step 1"),
    ]
    assert "First invalid at step 2, written by confirm." in [c.value for c in at.code]
    assert PG_PASSWORD not in _all_text(at)


def _encrypted_store(path: Path, key: str) -> str:
    import sqlite3
    from contextlib import closing

    from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
    from langgraph.checkpoint.sqlite import SqliteSaver

    from core.stores.demo import run_demo_threads

    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        saver = SqliteSaver(conn)
        saver.serde = EncryptedSerializer.from_pycryptodome_aes(key=key.encode())
        run_demo_threads(saver)
    return str(path)


def test_a_configured_store_opens_first_and_an_encrypted_one_needs_its_key(monkeypatch, tmp_path):
    key = "k3y-of-32-bytes-for-the-aes-test"
    spec = _encrypted_store(tmp_path / "secret.sqlite", key)
    monkeypatch.setenv(STORE_ENV, spec)
    monkeypatch.delenv("LANGGRAPH_AES_KEY", raising=False)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.radio(key=keys.THREADS_SOURCE).value == "server"  # the server's store, first
    assert [c.value for c in at.code] == [
        spec,
        f"{spec}: it is encrypted (msgpack+aes, LangGraph's "
        "EncryptedSerializer) and no key is configured; set LANGGRAPH_AES_KEY in the server's "
        "environment to the key the application writes with.",
    ]
    assert [e.value for e in at.error] == ["This store cannot be read [store_encrypted]:"]
    at.radio(key=keys.THREADS_SOURCE).set_value("demo").run()  # the page keeps working
    assert not at.exception and sorted(r[0] for r in table_rows(at, "thread_id")) == sorted(
        DEMO_THREADS
    )

    monkeypatch.setenv("LANGGRAPH_AES_KEY", key)
    clear_session_resource_cache(SESSION_ID)
    keyed = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not keyed.exception
    assert sorted(r[0] for r in table_rows(keyed, "thread_id")) == sorted(DEMO_THREADS)
    assert key not in _all_text(keyed) and key not in _all_text(at)


def test_a_configured_candidate_model_finds_the_threads_that_would_not_resume(monkeypatch):
    """PLAYGROUND_CANDIDATE (as --candidate or playground.toml's candidate) names the team's
    next model: the page offers it instead of the demo's, and both the list and the audit
    check the stored states against it (the demo's amounts 250 and 750 exceed its 200)."""
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "fixtures"))
    monkeypatch.setenv("PLAYGROUND_CANDIDATE", "candidates.order_v2:OrderV2")
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.radio(key=keys.THREADS_CURRENT).options == [
        "AgentState (the seed order's state)",
        "OrderV2 (your candidate, from environment)",
    ]
    at.radio(key=keys.THREADS_CURRENT).set_value("candidate").run()
    statuses = {row[0]: row[1] for row in table_rows(at, "thread_id")}
    assert {t: s for t, s in statuses.items() if s == "would not resume"} == {
        "clean-2": "would not resume",
        "model-change": "would not resume",
    }
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert at.text[0].value == "10 threads, 10 checkpoints audited; 4 invalid states in 4 threads"
    assert table_rows(at, "type") == [
        ("less_than_equal", "amount", 2, 2),
        ("greater_than_equal", "amount", 1, 1),
        ("literal_error", "status", 1, 1),
    ]


@pytest.mark.parametrize(
    "spec",
    [
        "postgresql+psycopg://app:Pw-9@127.0.0.1:1/shop",
        "PostgreSQL://app:x@Pw-9@127.0.0.1:1/shop",
        " postgresql+asyncpg://app:Pw-9@127.0.0.1:1/shop",
        "jdbc:postgresql://127.0.0.1:1/shop?user=app&password=Pw-9",
    ],
)
def test_every_form_of_a_configured_dsn_is_named_without_its_password(monkeypatch, spec):
    monkeypatch.setenv(STORE_ENV, spec)
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    assert at.code[0].value == "postgresql://app@127.0.0.1:1/shop"  # under "Reading:"
    assert at.error[-1].value in (
        "This store cannot be read [store_unreachable]:",
        "This store cannot be read [bad_store_spec]:",
    )
    assert "Pw-9" not in _all_text(at)


def _damaged_demo(path: Path, thread: str) -> str:
    """The demo store with `thread`'s latest checkpoint no longer msgpack."""
    import sqlite3
    from contextlib import closing

    from core.stores.demo import build_demo_store

    build_demo_store(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "UPDATE checkpoints SET checkpoint = x'c1c1c1' WHERE thread_id = ? AND checkpoint_id "
            "= (SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ?)",
            (thread, thread),
        )
    return str(path)


def test_a_damaged_row_is_listed_unreadable_with_its_code_and_the_page_works(monkeypatch, tmp_path):
    monkeypatch.setenv(STORE_ENV, _damaged_demo(tmp_path / "damaged.sqlite", "clean-2"))
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception
    message = (
        "[row_undecodable] the checkpoint is not valid msgpack (ValueError: invalid type Reserved)."
    )
    assert [(r[0], r[1], r[2]) for r in table_rows(at, "thread_id")][:2] == [
        ("clean-1", "valid", ""),
        ("clean-2", "unreadable", message),
    ]
    at.selectbox(key=keys.THREADS_THREAD).set_value("clean-2").run()
    assert not at.exception
    assert [e.value for e in at.error][:1] == [
        "The latest checkpoint of this thread cannot be read."
    ]
    assert "The latest checkpoint cannot be read: [row_undecodable]." in [c.value for c in at.code]
    assert at.select_slider(key=keys.THREADS_STEP).options[-1].endswith("· unreadable")
    # the checkpoint's own panel says why: the code with what did not happen, the sentence
    assert "This checkpoint cannot be read, so it is not validated [row_undecodable]:" in [
        e.value for e in at.error
    ]
    said = "The checkpoint is not valid msgpack (ValueError: invalid type Reserved)."
    assert said in [c.value for c in at.code]
    assert "Not shown: this checkpoint could not be read." in [t.value for t in at.text]
    at.button(key=keys.THREADS_AUDIT_RUN).click().run()
    assert not at.exception
    assert (
        "10 threads, 10 checkpoints audited; 2 invalid states in 2 threads, 1 checkpoint unreadable"
    ) in [t.value for t in at.text]
    (latest,) = [r[-2] for r in table_rows(at, "step") if r[-2]][-1:]  # its checkpoint_id column
    assert "…" in latest  # its start and end, in the timeline and the audit alike
    assert table_rows(at, "thread_id", "checkpoint_id", "step", "code") == [
        ("clean-2", latest, "6", "row_undecodable", message[len("[row_undecodable] ") :])
    ]


def test_what_langgraphs_get_state_does_is_said_only_as_it_was_run(at):
    said = {}
    for thread in ("fault-negative_amount", "fault-bad_status_last", "clean-1"):
        at.selectbox(key=keys.THREADS_THREAD).set_value(thread).run()
        assert not at.exception
        alerts = [(a.type, a.value) for a in (*at.error, *at.success, *at.warning)]
        codes = [c.value for c in at.code]
        said[thread] = (alerts[0], next(c for c in codes if c.startswith("LangGraph's get_state")))
    assert said == {
        "fault-negative_amount": (
            ("error", "This thread's latest state fails AgentState."),
            "LangGraph's get_state raised ValidationError: 1 validation error for AgentState "
            "amount Input should be greater than or equal to 0 [type=greater_than_equal, "
            "input_value=-1, input_type=int] For further information visit "
            "https://errors.pydantic.dev/2.14/v/greater_than_equal",
        ),
        # the last node's bad write: invalid as stored, and get_state returns it all the same
        "fault-bad_status_last": (
            ("error", "This thread's latest state fails AgentState."),
            "LangGraph's get_state returned the state.",
        ),
        "clean-1": (
            ("success", "The latest state of this thread is valid under AgentState."),
            "LangGraph's get_state returned the state.",
        ),
    }


def _counter(at: AppTest) -> tuple[tuple[str, list[str]] | None, str]:
    """The list's counter as drawn: the page-number box (the page shown, every page it
    offers; None: none drawn), and the caption beside the paging buttons."""
    numbers = at.selectbox(key=keys.THREADS_PAGE) if _has(at, keys.THREADS_PAGE) else None
    beside = [c.value for c in at.caption if " threads shown" in c.value]
    assert len(beside) == 1, beside
    return (
        None if numbers is None else (numbers.format_func(numbers.value), numbers.options),
        beside[0],
    )


def _has(at: AppTest, key: str) -> bool:
    return any(box.key == key for box in at.selectbox)


def test_the_list_says_how_many_threads_the_store_holds_and_how_many_match(at):
    assert _counter(at) == (("Page 1 of 1", ["Page 1 of 1"]), "10 threads shown of 10")
    at.text_input(key=keys.THREADS_CONTAINS).input("fault-").run()
    assert _counter(at) == (("Page 1 of 1", ["Page 1 of 1"]), "6 threads shown of 6 matching")
    # a status is known thread by thread, as read: no count of pages to jump through
    at.selectbox(key=keys.THREADS_STATUS).set_value("broken").run()
    assert _counter(at) == (None, "Page 1 · 2 threads shown of 6 matching")


@pytest.fixture(scope="module")
def sixty_threads(tmp_path_factory) -> str:
    """A store of 60 threads, t00000 to t00059 (real seed-graph runs, rows copied)."""
    spec = str(tmp_path_factory.mktemp("sixty") / "store.sqlite")
    assert build_store("sqlite", spec, 60, 120)[0] == 60
    return spec


@pytest.fixture
def sixty(monkeypatch, sixty_threads) -> AppTest:
    """The page on the server's store of 60 threads: three pages of 25, the last of 10."""
    monkeypatch.setenv(STORE_ENV, sixty_threads)
    monkeypatch.delenv(WRITES_ENV, raising=False)
    return AppTest.from_file(PAGE, default_timeout=60).run()


def _ids(first: int, last: int) -> list[str]:
    return [f"t{n:05d}" for n in range(first, last + 1)]


def test_page_numbers_jump_to_any_page_and_previous_pages_back_from_it(sixty):
    at = sixty
    pages = ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    assert _counter(at) == (("Page 1 of 3", pages), "25 threads shown of 60")
    at.selectbox(key=keys.THREADS_PAGE).set_value(3).run()
    assert not at.exception
    assert _counter(at) == (("Page 3 of 3", pages), "10 threads shown of 60")
    assert [row[0] for row in table_rows(at, "thread_id")] == _ids(50, 59)
    assert at.selectbox(key=keys.THREADS_THREAD).options == _ids(50, 59)
    # the pages before it are there to go back to, as if paged with Next
    assert at.session_state[keys.THREADS_CURSORS] == ["", "t00024", "t00049"]
    assert at.button(key=keys.THREADS_NEXT).disabled
    at.button(key=keys.THREADS_PREV).click().run()
    assert _counter(at) == (("Page 2 of 3", pages), "25 threads shown of 60")
    assert at.selectbox(key=keys.THREADS_THREAD).value == "t00025"
    at.button(key=keys.THREADS_NEXT).click().run()
    assert _counter(at) == (("Page 3 of 3", pages), "10 threads shown of 60")
    at.selectbox(key=keys.THREADS_PAGE_SIZE).set_value(50).run()  # a new size: page 1 again
    assert _counter(at) == (("Page 1 of 2", ["Page 1 of 2", "Page 2 of 2"]),
                            "50 threads shown of 60")  # fmt: skip
    at.selectbox(key=keys.THREADS_PAGE).set_value(2).run()
    assert [row[0] for row in table_rows(at, "thread_id")] == _ids(50, 59)


def test_a_link_reopens_the_page_jumped_to_and_the_thread_opened_there(sixty):
    at = sixty
    at.selectbox(key=keys.THREADS_PAGE).set_value(3).run()
    at.selectbox(key=keys.THREADS_THREAD).set_value("t00057").run()
    at.button(key=keys.THREADS_SHARE).click().run()
    step = at.select_slider(key=keys.THREADS_STEP).value
    assert shared(at) == {
        "page": "threads",
        "source": "server",
        "current": "same",
        "contains": "",
        "status": "all",
        "page_size": 25,
        "cursors": ["", "t00024", "t00049"],
        "thread": "t00057",
        "step": step,
        "tab": "Timeline",
    }
    fresh = AppTest.from_file(PAGE, default_timeout=60)
    fresh.query_params["s"] = token(at)
    fresh.run()
    assert not fresh.exception and not fresh.warning
    assert _counter(fresh) == _counter(at)
    assert (
        fresh.selectbox(key=keys.THREADS_THREAD).value,
        fresh.select_slider(key=keys.THREADS_STEP).value,
        fresh.session_state[keys.THREADS_TABLE]["selection"]["rows"],
    ) == ("t00057", step, [7])


def test_the_table_marks_the_row_of_the_thread_shown(at):
    """A click on a row opens its thread (tests/e2e/test_threads_click_e2e.py clicks one);
    the row marked is the thread shown however it was picked."""
    assert at.session_state[keys.THREADS_TABLE]["selection"] == {
        "rows": [0], "columns": [], "cells": [],
    }  # fmt: skip
    at.selectbox(key=keys.THREADS_THREAD).set_value("fault-negative_amount").run()
    assert at.session_state[keys.THREADS_TABLE]["selection"] == {
        "rows": [3], "columns": [], "cells": [],
    }  # fmt: skip
    assert [c.value for c in at.caption if c.value.startswith("Click")] == [
        "Click a row to open its thread."
    ]
