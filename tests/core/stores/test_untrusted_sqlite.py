"""A SQLite store is opened as SQLite advises for a file from elsewhere, and checked first."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from core.__main__ import main
from core.order import AgentState
from core.stores import StoreError, audit_store, open_store, strict_serde
from core.stores.demo import build_demo_store

SERDE = strict_serde([AgentState])
PRAGMAS = ("trusted_schema", "cell_size_check", "mmap_size", "query_only")
MALFORMED = (
    " is damaged (SQLite: database disk image is malformed), so none of it is read; restore "
    "it from a backup, or copy what SQLite can still read to a new file (sqlite3 "
    "damaged.sqlite .recover | sqlite3 recovered.sqlite) and open that."
)


def _demo(tmp_path: Path, *statements: str) -> str:
    """The demo store, written by LangGraph's SqliteSaver, with `statements` run on it."""
    spec = str(tmp_path / "upload.sqlite")
    build_demo_store(spec)
    with closing(sqlite3.connect(spec)) as conn, conn:
        for statement in statements:
            conn.execute(statement)
    return spec


def _damage_a_leaf_page(spec: str) -> None:
    """Point the first cell of the checkpoints table's first leaf page into the page's header."""
    with closing(sqlite3.connect(spec)) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        root = conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'checkpoints'"
        ).fetchone()[0]
    data = bytearray(Path(spec).read_bytes())
    page = (root - 1) * size
    assert data[page] == 0x05  # an interior table page: 12-byte header, then cell pointers
    cell = int.from_bytes(data[page + 12 : page + 14], "big")
    leaf = (int.from_bytes(data[page + cell : page + cell + 4], "big") - 1) * size
    assert data[leaf] == 0x0D  # a leaf table page: 8-byte header, then cell pointers
    data[leaf + 8 : leaf + 10] = (3).to_bytes(2, "big")
    Path(spec).write_bytes(data)


def test_both_connections_read_back_the_pragmas_sqlite_advises(tmp_path):
    with open_store(_demo(tmp_path), SERDE) as store:
        read_back = {
            name: {pragma: conn.execute(f"PRAGMA {pragma}").fetchone()[0] for pragma in PRAGMAS}
            for name, conn in (("saver", store.saver.conn), ("own", store.conn))
        }
    advised = {"trusted_schema": 0, "cell_size_check": 1, "mmap_size": 0, "query_only": 1}
    assert read_back == {"saver": advised, "own": advised}


def test_a_damaged_page_is_refused_by_code_before_anything_is_read(tmp_path, capsys):
    spec = _demo(tmp_path)
    _damage_a_leaf_page(spec)
    with pytest.raises(StoreError) as refused:
        with open_store(spec, SERDE):
            pass
    assert (refused.value.code, refused.value.message) == ("store_corrupt", spec + MALFORMED)
    assert main(["audit", spec, "--model", "core.order:AgentState"]) == 2
    assert capsys.readouterr() == ("", f"[store_corrupt] {spec}{MALFORMED}\n")


def test_a_file_checked_once_is_checked_again_once_it_changes(tmp_path):
    spec = _demo(tmp_path)
    with open_store(spec, SERDE) as store:  # checked, and intact
        assert audit_store(store, AgentState).threads == 10
    _damage_a_leaf_page(spec)  # the same size, written later
    with pytest.raises(StoreError) as refused:
        with open_store(spec, SERDE):
            pass
    assert (refused.value.code, refused.value.message) == ("store_corrupt", spec + MALFORMED)


def test_a_store_too_large_to_check_first_is_still_refused_at_the_damage(tmp_path, monkeypatch):
    spec = _demo(tmp_path)
    _damage_a_leaf_page(spec)
    monkeypatch.setattr("core.stores.backends.open.QUICK_CHECK_BYTES", 0)  # a file over the limit
    with pytest.raises(StoreError) as refused:
        with open_store(spec, SERDE) as store:  # opened: the check is skipped
            audit_store(store, AgentState, history=True)
    assert (refused.value.code, refused.value.message) == ("store_corrupt", spec + MALFORMED)


def test_a_function_in_the_files_schema_is_not_run(tmp_path):
    spec = _demo(
        tmp_path,
        "CREATE VIEW extra AS SELECT json('[1]') AS x",
        "CREATE TABLE audit_log (at TEXT)",
        "CREATE TRIGGER stamp AFTER INSERT ON audit_log BEGIN "
        "INSERT INTO audit_log SELECT json('[2]'); END",
    )
    with open_store(spec, SERDE) as store:
        assert audit_store(store, AgentState).threads == 10  # the real tables read as ever
        for conn in (store.saver.conn, store.conn):
            for statement in ("SELECT x FROM extra", "INSERT INTO audit_log VALUES ('now')"):
                # refused as it is prepared: the trigger's too, before query_only refuses it
                with pytest.raises(sqlite3.OperationalError, match=r"^unsafe use of json\(\)$"):
                    conn.execute(statement)


def test_the_check_stops_at_the_time_budget(tmp_path):
    # no NOT NULL column: quick_check's walk is one VM step, which no progress handler stops
    spec = str(tmp_path / "slow.sqlite")
    with closing(sqlite3.connect(spec)) as conn, conn:
        conn.execute("CREATE TABLE t (a)")
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300000) "
            "INSERT INTO t SELECT randomblob(40) FROM n"
        )
    with pytest.raises(StoreError) as refused:
        with open_store(spec, SERDE, query_seconds=0.001):
            pass
    assert (refused.value.code, refused.value.message) == (
        "store_timeout",
        f"{spec}: checking the file for damage took longer than 0.001 s and was stopped; copy "
        "the store to a local disk and open the copy.",
    )
