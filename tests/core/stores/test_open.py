"""open_store: read-only on both backends, and a coded error for each unreadable store."""

from __future__ import annotations

import hashlib
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from core.order import AgentState
from core.stores import StoreError, audit_store, open_store, strict_serde

from .conftest import PG_PASSWORD, free_port, writer

SERDE = strict_serde([AgentState])


def _refusal(spec: str) -> StoreError:
    with pytest.raises(StoreError) as caught:
        with open_store(spec, SERDE):
            pass
    return caught.value


def _text_file(tmp_path: Path) -> str:
    path = tmp_path / "notes.sqlite"
    path.write_text("these are meeting notes, not a database\n" * 10)
    return str(path)


def _plain_sqlite(tmp_path: Path) -> str:
    path = tmp_path / "app.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY)")
    return str(path)


def _damaged_pages(tmp_path: Path) -> str:
    path = tmp_path / "damaged.sqlite"
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("CREATE TABLE checkpoints (thread_id TEXT)")
        conn.execute("CREATE TABLE writes (thread_id TEXT)")
    data = path.read_bytes()
    path.write_bytes(data[:4096] + b"\xa5" * (len(data) - 4096))  # the header page kept
    return str(path)


def _empty(tmp_path: Path) -> str:
    (tmp_path / "empty.sqlite").touch()
    return str(tmp_path / "empty.sqlite")


CASES = {
    "missing": (lambda tmp: str(tmp / "nope.sqlite"), "store_missing",
                "{tmp}/nope.sqlite does not exist; check the path."),
    "empty": (_empty, "store_empty", "{tmp}/empty.sqlite is empty (0 bytes), not a checkpoint "
              "store; point at the .sqlite file your SqliteSaver writes."),
    "text": (_text_file, "not_a_database", "{tmp}/notes.sqlite is not a SQLite database (file "
             "is not a database); point at the file your SqliteSaver writes."),
    "directory": (lambda tmp: f"sqlite:///{tmp}", "not_a_database", "{tmp} is a directory, "
                  "not a checkpoint store; point at the .sqlite file your SqliteSaver writes."),
    "damaged_pages": (_damaged_pages, "store_corrupt", "{tmp}/damaged.sqlite is damaged "
                      "(SQLite: database disk image is malformed), so none of it is read; "
                      "restore it from a backup, or copy what SQLite can still read to a new "
                      "file (sqlite3 damaged.sqlite .recover | sqlite3 recovered.sqlite) and "
                      "open that."),
    "no_checkpoints_table": (_plain_sqlite, "not_a_checkpoint_store", "{tmp}/app.db is a "
                             "database but not a LangGraph checkpoint store (missing table: "
                             "checkpoints, writes); point at the store your checkpointer writes."),
    "unknown_scheme": (lambda tmp: "mysql://app:Pw@db/x", "bad_store_spec", "a mysql:// URL "
                       "is neither a SQLite path, a sqlite:/// URL nor a postgresql:// DSN; give "
                       "a file path or a postgresql:// DSN."),
    "nothing": (lambda tmp: "", "no_store", "no store given; pass a SQLite file or a "
                "postgresql:// DSN, or set PLAYGROUND_STORE."),
}  # fmt: skip


@pytest.mark.parametrize("case", list(CASES))
def test_an_unreadable_sqlite_store_is_a_coded_error(case, tmp_path):
    make, code, message = CASES[case]
    error = _refusal(make(tmp_path))
    assert (error.code, error.message) == (code, message.format(tmp=tmp_path))


def test_a_postgres_login_with_the_wrong_password_names_the_host_not_the_password(postgres):
    error = _refusal(postgres.dsn(password="Wrong-Pass-0815"))
    assert (error.code, error.message) == (
        "store_login_refused",
        f"postgresql://postgres@127.0.0.1:{postgres.port}/postgres refused the login (wrong "
        "user or password); check the DSN's credentials in PLAYGROUND_STORE or the server "
        "configuration.",
    )
    for shown in (str(error), repr(error), error.message):
        assert "Wrong-Pass-0815" not in shown and PG_PASSWORD not in shown


def test_a_postgres_that_is_down_names_host_and_port(postgres):
    port = free_port()  # nothing listens there
    error = _refusal(f"postgresql://postgres:{PG_PASSWORD}@127.0.0.1:{port}/postgres")
    assert (error.code, error.message) == (
        "store_unreachable",
        f"cannot connect to postgresql://postgres@127.0.0.1:{port}/postgres (server down, or "
        "wrong host or port); start the server or correct the DSN.",
    )
    assert PG_PASSWORD not in repr(error)


def test_a_postgres_database_without_checkpoint_tables_is_not_a_store(postgres):
    spec = postgres.create_database("plain")
    error = _refusal(spec)
    assert (error.code, error.message) == (
        "not_a_checkpoint_store",
        f"postgresql://postgres@127.0.0.1:{postgres.port}/plain is a database but not a "
        "LangGraph checkpoint store (missing table: checkpoint_blobs, checkpoint_writes, "
        "checkpoints); point at the store your checkpointer writes.",
    )


def test_sqlite_is_opened_read_only_and_an_audit_leaves_the_file_unchanged(demo_store):
    kind, spec = demo_store
    with open_store(spec, SERDE) as store:
        if kind == "sqlite":
            before = hashlib.sha256(Path(spec).read_bytes()).hexdigest()
            audit_store(store, AgentState, history=True)
            with pytest.raises(sqlite3.OperationalError, match="readonly database"):
                store.saver.conn.execute("DELETE FROM checkpoints")
            assert hashlib.sha256(Path(spec).read_bytes()).hexdigest() == before
        else:
            audit_store(store, AgentState, history=True)
            with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
                store.saver.conn.execute("DELETE FROM checkpoints")
    with writer(kind, spec) as saver:
        assert len(list(saver.list(None))) == 39


def test_a_postgres_database_that_does_not_exist_is_named(postgres):
    error = _refusal(postgres.dsn("no_such_db"))
    assert (error.code, error.message) == (
        "store_missing",
        f"postgresql://postgres@127.0.0.1:{postgres.port}/no_such_db: the server has no such "
        "database; correct the database name in the DSN.",
    )


def test_a_keyword_form_dsn_is_postgres_and_its_password_never_shown(postgres):
    error = _refusal(f"host=127.0.0.1 port={postgres.port} user=postgres password=Kw-Pass-77")
    assert (error.code, error.message) == (
        "store_login_refused",
        f"postgresql://postgres@127.0.0.1:{postgres.port}/ refused the login (wrong user or "
        "password); check the DSN's credentials in PLAYGROUND_STORE or the server "
        "configuration.",
    )
    assert "Kw-Pass-77" not in repr(error)


def test_the_allow_list_is_the_models_classes_and_langchains_messages():
    messages = {
        ("langchain_core.messages." + module, name + chunk)
        for module, name in [("ai", "AIMessage"), ("base", "BaseMessage"), ("chat", "ChatMessage"),
                             ("function", "FunctionMessage"), ("human", "HumanMessage"),
                             ("system", "SystemMessage"), ("tool", "ToolMessage")]
        for chunk in ("", "Chunk")
    }  # fmt: skip
    assert strict_serde([AgentState]).allowed == {
        ("core.order", "AgentState"),
        ("core.order", "LineItem"),  # nested: reached through AgentState.items
        ("langchain_core.messages.modifier", "RemoveMessage"),
        *messages,
    }
