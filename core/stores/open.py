"""Open a checkpoint store read-only from a spec: a SQLite file or a postgresql:// DSN."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.base import SerializerProtocol

from core.stores.errors import StoreCode, StoreError
from core.stores.serde import EncryptionRefused

__all__ = ["STORE_ENV", "Store", "open_store", "store_label"]

STORE_ENV = "PLAYGROUND_STORE"
_PG_PREFIXES = ("postgresql://", "postgres://")
_PG_KEYWORDS = re.compile(r"^\s*[a-z_]+\s*=")  # libpq's "host=... password=..." form


def _is_postgres(spec: str) -> bool:
    return spec.startswith(_PG_PREFIXES) or bool(_PG_KEYWORDS.match(spec))


_SQLITE_PREFIX = "sqlite:///"


@dataclass
class Store:
    """An open store: LangGraph's own saver on a read-only connection, and where it is."""

    saver: BaseCheckpointSaver[Any]
    kind: Literal["sqlite", "postgres"]
    label: str  # the file path, or user@host:port/dbname; never a password
    conn: Any  # a second read-only connection for our own queries: the saver holds its
    # connection's lock while its `list` is being iterated
    has_task_path: bool = True  # stores written before LangGraph kept task paths lack it

    def query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of one read-only SQL query; `sql` uses `?` placeholders on both backends."""
        if self.kind == "sqlite":
            rows: list[tuple[Any, ...]] = self.conn.execute(sql, params).fetchall()
            return rows
        with self.conn.cursor() as cur:
            cur.execute(sql.replace("?", "%s"), params)
            return [tuple(row.values()) for row in cur.fetchall()]

    @property
    def writes_table(self) -> str:
        """The table where the saver keeps each task's writes."""
        return "writes" if self.kind == "sqlite" else "checkpoint_writes"


def store_label(spec: str) -> str:
    """What a message may say about a store: the file, or user@host:port/db without password.

    Example:
        >>> store_label("postgresql://app:s3cret@127.0.0.1:5433/shop")
        'postgresql://app@127.0.0.1:5433/shop'
        >>> store_label("host=db.internal port=6543 user=app password=s3cret dbname=shop")
        'postgresql://app@db.internal:6543/shop'
        >>> store_label("sqlite:///runs/checkpoints.sqlite")
        'runs/checkpoints.sqlite'
    """
    if _is_postgres(spec):
        from psycopg.conninfo import conninfo_to_dict

        try:
            info = conninfo_to_dict(spec)
        except Exception:  # the driver's message may quote the DSN, password included
            return "postgresql://(a DSN that cannot be parsed)"
        user = f"{info['user']}@" if info.get("user") else ""
        host, port = info.get("host") or "localhost", info.get("port") or "5432"
        return f"postgresql://{user}{host}:{port}/{info.get('dbname') or ''}"
    return spec.removeprefix(_SQLITE_PREFIX)


@contextmanager
def open_store(spec: str, serde: SerializerProtocol) -> Iterator[Store]:
    """Open `spec` read-only with LangGraph's saver for it, reading through `serde`.

    `spec`: a SQLite file path or `sqlite:///path` (opened with `mode=ro`), or a
    `postgresql://` DSN (every transaction read-only). Raises `StoreError` with a stable
    code when the store cannot be read.

    Example:
        >>> from core.stores.serde import strict_serde
        >>> try:
        ...     with open_store("/nonexistent/runs.sqlite", strict_serde([])):
        ...         pass
        ... except StoreError as error:
        ...     print(error.code)
        store_missing
    """
    if not spec or not spec.strip():
        raise StoreError(
            StoreCode.NO_STORE,
            f"no store given; pass a SQLite file or a postgresql:// DSN, or set {STORE_ENV}.",
        )
    opener = _open_postgres if _is_postgres(spec) else _open_sqlite
    with opener(spec, serde) as store:
        try:
            yield store
        except EncryptionRefused as error:  # raised by the serde while reading
            raise StoreError(StoreCode(error.code), f"{store.label}: {error.message}") from None


@contextmanager
def _open_sqlite(spec: str, serde: SerializerProtocol) -> Iterator[Store]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    label = store_label(spec)
    path = Path(label)
    if "://" in label:
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{label} is neither a SQLite path, a sqlite:/// URL nor a postgresql:// DSN; "
            "give a file path or a postgresql:// DSN.",
        )
    if not path.exists():
        raise StoreError(StoreCode.MISSING, f"{label} does not exist; check the path.")
    if not path.is_file() or path.stat().st_size == 0:
        what = "is a directory" if path.is_dir() else "is empty (0 bytes)"
        raise StoreError(
            StoreCode.EMPTY if path.is_file() else StoreCode.NOT_A_DATABASE,
            f"{label} {what}, not a checkpoint store; point at the .sqlite file your "
            "SqliteSaver writes.",
        )
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    with closing(_sqlite(uri)) as conn, closing(_sqlite(uri)) as own:
        try:
            tables = {row[0] for row in own.execute("SELECT name FROM sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                StoreCode.NOT_A_DATABASE,
                f"{label} is not a SQLite database ({exc}); point at the file your "
                "SqliteSaver writes.",
            ) from None
        _require_tables(label, tables, {"checkpoints", "writes"})
        columns = {row[1] for row in own.execute("PRAGMA table_info(writes)")}
        saver = SqliteSaver(conn, serde=serde)
        # setup() writes (WAL pragma, CREATE TABLE, ALTER TABLE); the tables are there
        saver.is_setup, saver._has_task_path = True, "task_path" in columns
        yield Store(saver, "sqlite", label, own, has_task_path="task_path" in columns)


def _sqlite(uri: str) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")
    return conn


@contextmanager
def _open_postgres(spec: str, serde: SerializerProtocol) -> Iterator[Store]:
    from langgraph.checkpoint.postgres import PostgresSaver

    label = store_label(spec)
    with _postgres(spec, label) as conn, _postgres(spec, label) as own:
        with own.cursor() as cur:
            cur.execute(
                "SELECT c.relname FROM pg_class c WHERE c.relkind IN ('r', 'p', 'v') "
                "AND pg_table_is_visible(c.oid)"
            )
            tables = {row["relname"] for row in cur.fetchall()}
        _require_tables(label, tables, {"checkpoints", "checkpoint_blobs", "checkpoint_writes"})
        with own.cursor() as cur:
            cur.execute(
                "SELECT 1 FROM information_schema.columns "
                "WHERE table_name = 'checkpoint_writes' AND column_name = 'task_path'"
            )
            has_task_path = cur.fetchone() is not None
        saver = PostgresSaver(conn, serde=serde)
        yield Store(saver, "postgres", label, own, has_task_path=has_task_path)


def _postgres(spec: str, label: str) -> Any:
    import psycopg
    from psycopg.rows import dict_row

    try:
        return psycopg.connect(
            spec,
            autocommit=True,  # as PostgresSaver.from_conn_string; every statement read-only
            prepare_threshold=0,
            row_factory=dict_row,
            connect_timeout=int(os.environ.get("PGCONNECT_TIMEOUT", "10")),
            options="-c default_transaction_read_only=on",
        )
    except psycopg.ProgrammingError:  # a malformed DSN; its text may hold the password
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{label}: the DSN cannot be parsed; write postgresql://user:password@host:port/db.",
        ) from None
    except psycopg.OperationalError as exc:
        raise _connect_error(label, str(exc)) from None


def _connect_error(label: str, reason: str) -> StoreError:
    if (
        "authentication failed" in reason
        or "no password supplied" in reason
        or ("role" in reason and "does not exist" in reason)
    ):
        return StoreError(
            StoreCode.LOGIN_REFUSED,
            f"{label} refused the login (wrong user or password); check the DSN's "
            f"credentials in {STORE_ENV} or the server configuration.",
        )
    if "database" in reason and "does not exist" in reason:
        return StoreError(
            StoreCode.MISSING,
            f"{label}: the server has no such database; correct the database name in the DSN.",
        )
    return StoreError(
        StoreCode.UNREACHABLE,
        f"cannot connect to {label} (server down, or wrong host or port); start the server "
        "or correct the DSN.",
    )


def _require_tables(label: str, tables: set[str], needed: set[str]) -> None:
    missing = sorted(needed - tables)
    if missing:
        raise StoreError(
            StoreCode.NOT_A_CHECKPOINT_STORE,
            f"{label} is a database but not a LangGraph checkpoint store (missing table: "
            f"{', '.join(missing)}); point at the store your checkpointer writes.",
        )
