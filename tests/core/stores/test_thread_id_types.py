"""Every thread id SQLite can hold (text with control characters or a NUL, a BLOB, valid
UTF-8 or not, an INTEGER, a REAL) is read, printed on one safe line that selects it again,
and given a coded outcome by the audit, its CLI and JSON, the thread list and the timeline."""

from __future__ import annotations

import json
import math
import sqlite3
from contextlib import closing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.__main__ import main
from core.order import AgentState
from core.stores import audit_store, open_store, strict_serde
from core.stores.backends.thread_ids import printable_id, stored_id, text_id
from core.stores.threads import list_threads
from core.stores.timeline import thread_timeline
from tests._crafted_ids import crafted_id_store

TEXT_IDS = {"plain": "t-1", "escape": "\x1b[2J\nrm -rf", "nul": "a\x00b", "quote": "b'x'"}
# "text-not-utf8": TEXT holding the bytes ff 41, as read (its bad byte a lone surrogate)
OTHER_IDS = {"blob": b"blob-id", "not-utf8": b"\xff\xfe\x00x", "integer": 42, "real": 4.5,
             "text-not-utf8": "\udcffA"}  # fmt: skip
BROKEN = {"escape", "blob"}  # confirm writes a status the model refuses
ORDERED = [4.5, 42, "\udcffA", b"blob-id", b"\xff\xfe\x00x"]  # numbers, text, BLOBs


@pytest.fixture
def crafted(tmp_path) -> str:
    """Real runs under text ids, then five of them given another storage class in both
    tables, as a crafted file (or another writer) may hold them."""
    ids = {**{text: text for text in TEXT_IDS.values()}, **OTHER_IDS}
    broken = {TEXT_IDS.get(name, name) for name in BROKEN}
    return crafted_id_store(tmp_path / "ids.sqlite", ids, broken)


NOT_TEXT = (
    "the thread id is stored {kind} (printed here as {printed}): LangGraph's "
    "saver looks a thread up by its id as text and never finds this one, so no application "
    "reads or resumes it, and its states are not checked here. Give it a text id in the "
    "checkpoints and writes tables if it should be read."
)


def _not_text(value: object) -> tuple[str, str, str]:
    kind = {bytes: "as a BLOB, not text", int: "as an INTEGER, not text",
            float: "as a REAL, not text", str: "as TEXT that is not valid UTF-8"}[type(value)]  # fmt: skip
    printed = printable_id(value)  # type: ignore[arg-type]
    return printed, "thread_id_not_text", NOT_TEXT.format(kind=kind, printed=printed)


def test_every_storage_class_of_a_thread_id_gets_a_coded_outcome_in_the_audit(crafted):
    with open_store(crafted, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
    assert (result.threads, result.checkpoints) == (9, 9)
    assert [(s.thread_id, s.step, s.node) for s in result.invalid] == [
        (TEXT_IDS["escape"], 2, "confirm")
    ]
    assert [(printable_id(r.thread_id), r.code, r.message) for r in result.unreadable] == [
        _not_text(value) for value in ORDERED
    ]
    assert [r.thread_id for r in result.unreadable] == ORDERED


def test_the_cli_prints_each_id_on_one_safe_line_and_its_json_as_text(crafted, capsys):
    assert main(["audit", crafted, "--model", "core.order:AgentState"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert main(["audit", crafted, "--model", "core.order:AgentState", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    heads = [line.split("  ")[0] for line in lines[1:] if not line.startswith(" ")]
    assert heads == ["'\\x1b[2J\\nrm -rf'", "float(4.5)", "int(42)", "'\\udcffA'", "b'blob-id'",
                     "b'\\xff\\xfe\\x00x'"]  # fmt: skip
    assert all(line.isprintable() for line in lines)
    assert [r["thread_id"] for r in report["invalid"]] == [TEXT_IDS["escape"]]
    assert [(r["thread_id"], r["code"], r["message"]) for r in report["unreadable"]] == [
        _not_text(value) for value in ORDERED
    ]


def test_the_list_pages_through_every_id_and_each_row_opens_its_timeline_again(crafted):
    with open_store(crafted, strict_serde([AgentState])) as store:
        rows, after = [], None
        while True:  # two a page: the cursor passes numbers, text and BLOBs on to the next
            page = list_threads(store, AgentState, after=after, limit=2)
            rows += page.rows
            if page.next_after is None:
                break
            after = page.next_after
        opened = {}
        for row in rows:  # the page keeps the row's id, or reads it back from its print
            assert stored_id(row.printable_id) == row.thread_id
            timeline = thread_timeline(store, stored_id(row.printable_id), AgentState)
            assert timeline is not None and timeline.thread_id == row.thread_id
            codes = {c.unreadable.code if c.unreadable else None for c in timeline.checkpoints}
            opened[timeline.printable_id] = (len(timeline.checkpoints), sorted(map(str, codes)))
    listed = [(row.printable_id, row.label(), row.detail.split("]")[0]) for row in rows]
    assert listed == [
        ("float(4.5)", "unreadable", "[thread_id_not_text"),
        ("int(42)", "unreadable", "[thread_id_not_text"),
        ("'\\x1b[2J\\nrm -rf'", "broken at step 2", "written by confirm"),
        ("'a\\x00b'", "valid", ""),
        ("\"b'x'\"", "valid", ""),
        ("t-1", "valid", ""),
        ("'\\udcffA'", "unreadable", "[thread_id_not_text"),
        ("b'blob-id'", "unreadable", "[thread_id_not_text"),
        ("b'\\xff\\xfe\\x00x'", "unreadable", "[thread_id_not_text"),
    ]
    assert all(printed.isprintable() for printed, _, _ in listed)
    not_text, text = (4, ["thread_id_not_text"]), (4, ["None"])
    assert opened == {printed: not_text if label == "unreadable" else text
                      for printed, label, _ in listed}  # fmt: skip


def test_the_shards_of_an_audit_hold_each_id_once(crafted):
    with open_store(crafted, strict_serde([AgentState])) as store:
        parts = [audit_store(store, AgentState, shard=(i, 3)) for i in range(3)]
    seen = [text_id(r.thread_id) for p in parts for r in [*p.invalid, *p.unreadable]]
    assert (sum(p.threads for p in parts), sorted(seen)) == (
        9, sorted(["\x1b[2J\nrm -rf", "int(42)", "float(4.5)", "'\\udcffA'", "b'blob-id'",
                   "b'\\xff\\xfe\\x00x'"]),
    )  # fmt: skip


_IDS = st.one_of(
    st.text(), st.binary(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False)
)


@given(_IDS)
def test_every_id_prints_on_one_line_and_reads_back_as_itself(thread_id):
    printed = printable_id(thread_id)
    back = stored_id(printed)
    assert printed.isprintable() and printed.strip() == printed and printed
    assert (type(back), back) == (type(thread_id), thread_id) or (
        isinstance(back, float) and math.isclose(back, thread_id)
    )


def test_the_cli_audits_one_thread_again_by_the_id_it_printed(crafted, capsys):
    assert main(["audit", crafted, "--model", "core.order:AgentState", "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    printed = [printable_id(r["thread_id"]) for r in report["invalid"]]
    printed += [r["thread_id"] for r in report["unreadable"]]  # not text: printed already
    again = {}
    for thread in [*printed, "t-1", "no-such-thread"]:
        code = main(["audit", crafted, "--model", "core.order:AgentState", "--thread", thread,
                     "--json"])  # fmt: skip
        one = json.loads(capsys.readouterr().out)
        rows = [*one["invalid"], *one["unreadable"]]
        again[thread] = (code, one["threads"], [text_id(stored_id(thread))] * len(rows) ==
                         [r["thread_id"] for r in rows], len(rows))  # fmt: skip
    assert again == {
        "'\\x1b[2J\\nrm -rf'": (1, 1, True, 1),
        "float(4.5)": (1, 1, True, 1),
        "int(42)": (1, 1, True, 1),
        "'\\udcffA'": (1, 1, True, 1),
        "b'blob-id'": (1, 1, True, 1),
        "b'\\xff\\xfe\\x00x'": (1, 1, True, 1),
        "t-1": (0, 1, True, 0),
        "no-such-thread": (0, 0, True, 0),
    }


def test_one_thread_and_a_shard_are_not_asked_at_once(crafted, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["audit", crafted, "--thread", "t-1", "--shard", "0/2"])
    assert (exited.value.code, capsys.readouterr().err.splitlines()[-1]) == (
        2, "python -m core audit: error: --thread audits one thread: leave out --shard and "
        "--shards",
    )  # fmt: skip


def test_a_type_or_checkpoint_id_that_is_not_utf8_is_a_coded_row(crafted, capsys):
    with closing(sqlite3.connect(crafted)) as conn:
        conn.execute("UPDATE checkpoints SET type = x'ff' WHERE thread_id = 't-1'")
        conn.execute(
            "UPDATE checkpoints SET type = CAST(x'ff41' AS TEXT) WHERE thread_id = 'a'||x'00'||'b'"
        )
        conn.execute(
            "UPDATE checkpoints SET checkpoint_id = CAST(x'ff41' AS TEXT) || checkpoint_id "
            "WHERE thread_id = 'b''x'''"
        )
        conn.commit()
    with open_store(crafted, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
    rows = {r.thread_id: (r.code, r.message) for r in result.unreadable}
    bad_type = (
        "row_not_a_checkpoint",
        "the checkpoint is stored under a type name that is not UTF-8 text ({}), so no "
        "serializer reads it.",
    )
    assert (rows["t-1"], rows["a\x00b"]) == (
        (bad_type[0], bad_type[1].format("b'\\xff'")),
        (bad_type[0], bad_type[1].format("'\\udcffA'")),
    )
    assert "b'x'" not in rows and result.threads == 9  # an odd checkpoint id is still read
    assert main(["audit", crafted, "--model", "core.order:AgentState"]) == 1
    assert all(line.isprintable() for line in capsys.readouterr().out.splitlines())


def test_a_printed_id_that_is_no_literal_is_a_text_id_never_parsed(crafted, capsys):
    hostile = "'a'," + "-" * 100_000 + "1"  # parsed, it exhausts the parser's memory
    assert stored_id(hostile) == hostile
    assert main(["audit", crafted, "--model", "core.order:AgentState", "--thread", hostile,
                 "--json"]) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out) == {
        "threads": 0, "checkpoints": 0, "invalid": [], "unreadable": [],
    }  # fmt: skip


def test_a_checkpoint_id_that_is_not_utf8_is_written_as_a_json_escape(crafted, capsys):
    with closing(sqlite3.connect(crafted)) as conn, conn:  # the invalid thread's newest id
        conn.execute(
            "UPDATE checkpoints SET checkpoint_id = checkpoint_id || CAST(x'ff' AS TEXT) "
            "WHERE checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints "
            "WHERE thread_id = ?)",
            (TEXT_IDS["escape"],),
        )
    assert main(["audit", crafted, "--model", "core.order:AgentState", "--json"]) == 1
    out = capsys.readouterr().out
    (invalid,) = json.loads(out)["invalid"]
    assert (invalid["checkpoint_id"][-1], out.isascii()) == ("\udcff", True)
