"""Open a checkpoint store read-only from a spec: a SQLite file or a PostgreSQL database."""

from __future__ import annotations

import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.serde.base import SerializerProtocol

from core.stores.errors import StoreCode, StoreError, StoreWarning
from core.stores.serde import EncryptionRefused
from core.stores.spec import StoreSpec, parse_store_spec, store_label

__all__ = [
    "MAX_VALUE_BYTES",
    "QUERY_SECONDS",
    "STORE_ENV",
    "Store",
    "open_store",
    "store_label",
]

STORE_ENV = "PLAYGROUND_STORE"
MAX_VALUE_BYTES = 16 * 1024 * 1024  # a stored value larger than this is skipped, not read
QUERY_SECONDS = 30.0  # one read may take this long before it is stopped
_TABLES = {"sqlite": ("checkpoints", "writes"),
           "postgres": ("checkpoints", "checkpoint_blobs", "checkpoint_writes")}  # fmt: skip


@dataclass
class Store:
    """An open store: LangGraph's own saver on a read-only connection, and where it is."""

    saver: BaseCheckpointSaver[Any]
    kind: Literal["sqlite", "postgres"]
    label: str  # the file path, or user@host:port/dbname; never a password
    conn: Any  # a second read-only connection for our own queries: the saver holds its
    # connection's lock while its `list` is being iterated
    has_task_path: bool = True  # stores written before LangGraph kept task paths lack it
    max_value_bytes: int = MAX_VALUE_BYTES
    warnings: list[StoreWarning] = field(default_factory=list)  # said on the page and stderr

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


@contextmanager
def open_store(
    spec: str,
    serde: SerializerProtocol,
    *,
    max_value_bytes: int = MAX_VALUE_BYTES,
    query_seconds: float = QUERY_SECONDS,
) -> Iterator[Store]:
    """Open `spec` read-only with LangGraph's saver for it, reading through `serde`.

    `spec`: a SQLite file path or `sqlite:///path` (opened with `mode=ro`), or a PostgreSQL
    URL (`postgresql://`, `postgres://`, SQLAlchemy's `postgresql+driver://`) or libpq
    keyword string (every read in a READ ONLY transaction). Only real tables are read,
    each query stops after `query_seconds`, and a stored value over `max_value_bytes` is
    skipped with a coded outcome. Raises `StoreError` with a stable code when the store
    cannot be read; its message names the store by its label only.

    Example:
        >>> from core.stores.serde import strict_serde
        >>> try:
        ...     with open_store("/nonexistent/runs.sqlite", strict_serde([])):
        ...         pass
        ... except StoreError as error:
        ...     print(error.code)
        store_missing
    """
    parsed = parse_store_spec(spec)
    if parsed.kind == "none":
        raise StoreError(
            StoreCode.NO_STORE,
            f"no store given; pass a SQLite file or a postgresql:// DSN, or set {STORE_ENV}.",
        )
    if parsed.kind == "jdbc":
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{parsed.label} is given as a JDBC URL (jdbc:postgresql://...), which Python's "
            "drivers do not read; drop the jdbc: prefix and write "
            "postgresql://user:password@host:port/db.",
        )
    if parsed.kind in ("unknown", "server"):
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{parsed.label} is neither a SQLite path, a sqlite:/// URL nor a postgresql:// "
            "DSN; give a file path or a postgresql:// DSN.",
        )
    opener = _open_postgres if parsed.kind == "postgres" else _open_sqlite
    with opener(parsed, serde, query_seconds) as store:
        store.max_value_bytes = max_value_bytes
        try:
            yield store
        except EncryptionRefused as error:  # raised by the serde while reading
            raise StoreError(StoreCode(error.code), f"{store.label}: {error.message}") from None
        except Exception as exc:
            if not _from_driver(exc):
                raise
            raise _read_error(store.label, exc, query_seconds) from None


def _from_driver(exc: BaseException) -> bool:
    return isinstance(exc, sqlite3.Error) or type(exc).__module__.startswith("psycopg")


def _read_error(label: str, exc: BaseException, seconds: float) -> StoreError:
    """A driver's error while reading, as a coded error: its text is never shown (psycopg's
    may quote the DSN), only its type."""
    name = type(exc).__name__
    if name in ("QueryCanceled", "OperationalError") and (
        name == "QueryCanceled" or "interrupted" in str(exc)
    ):
        return StoreError(
            StoreCode.TIMEOUT,
            f"{label}: a read took longer than {seconds:g} s and was stopped; audit a smaller "
            "part (--shard) or check the store's indexes.",
        )
    return StoreError(
        StoreCode.UNREADABLE,
        f"{label} failed while being read ({name}); check the file or server and read it again.",
    )


@contextmanager
def _open_sqlite(spec: StoreSpec, serde: SerializerProtocol, seconds: float) -> Iterator[Store]:
    from langgraph.checkpoint.sqlite import SqliteSaver

    label, path = spec.label, Path(spec.target)
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
    with closing(_sqlite(uri, seconds)) as conn, closing(_sqlite(uri, seconds)) as own:
        try:
            kinds = _sqlite_kinds(own)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                StoreCode.NOT_A_DATABASE,
                f"{label} is not a SQLite database ({exc}); point at the file your "
                "SqliteSaver writes.",
            ) from None
        _require_tables(label, kinds, "sqlite")
        columns = {row[1] for row in own.execute("PRAGMA table_info(writes)")}
        saver = SqliteSaver(conn, serde=serde)
        # setup() writes (WAL pragma, CREATE TABLE, ALTER TABLE); the tables are there
        saver.is_setup, saver._has_task_path = True, "task_path" in columns
        yield Store(saver, "sqlite", label, own, has_task_path="task_path" in columns)


_VIRTUAL = re.compile(r"^\s*create\s+virtual\s+table", re.IGNORECASE)


def _sqlite_kinds(conn: sqlite3.Connection) -> dict[str, str]:
    """Each checkpoint table's kind: "table" for a real table, else what it is instead."""
    kinds = {}
    for name, kind, sql in conn.execute(
        "SELECT name, type, sql FROM sqlite_master WHERE name IN ('checkpoints', 'writes')"
    ):
        if kind == "table" and _VIRTUAL.match(sql or ""):
            kind = "virtual table"
        elif kind == "table" and any(
            row[6] in (2, 3) for row in conn.execute(f"PRAGMA table_xinfo({name})")
        ):
            kind = "table with computed columns"
        kinds[name] = kind
    return kinds


def _sqlite(uri: str, seconds: float) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")
    started = [time.monotonic()]

    def began(_sql: str) -> None:  # called as each statement starts
        started[0] = time.monotonic()

    conn.set_trace_callback(began)
    # a nonzero return aborts the running statement ("interrupted")
    conn.set_progress_handler(lambda: time.monotonic() - started[0] > seconds, 100_000)
    return conn


@contextmanager
def _open_postgres(spec: StoreSpec, serde: SerializerProtocol, seconds: float) -> Iterator[Store]:
    from langgraph.checkpoint.postgres import PostgresSaver

    label = spec.label
    with _postgres(spec, seconds) as conn, _postgres(spec, seconds) as own:
        with own.cursor() as cur:
            # what each unqualified name resolves to on this search_path, as the saver's
            # queries will: r and p are real tables; a view (v) could run any function
            cur.execute(
                "SELECT name, (SELECT relkind FROM pg_class WHERE oid = to_regclass(name)) "
                "AS kind FROM unnest(%s::text[]) AS name",
                (list(_TABLES["postgres"]),),
            )
            names = {"r": "table", "p": "table", "v": "view", "m": "materialized view",
                     "f": "foreign table"}  # fmt: skip
            kinds = {
                row["name"]: names.get(row["kind"], str(row["kind"]))
                for row in cur.fetchall()
                if row["kind"]
            }
        _require_tables(label, kinds, "postgres")
        with own.cursor() as cur:
            cur.execute(
                "SELECT 1 FROM information_schema.columns "
                "WHERE table_name = 'checkpoint_writes' AND column_name = 'task_path'"
            )
            has_task_path = cur.fetchone() is not None
        warnings = _role_warnings(own, label)
        saver = PostgresSaver(conn, serde=serde)
        yield Store(saver, "postgres", label, own, has_task_path, warnings=warnings)


def _postgres(spec: StoreSpec, seconds: float) -> Any:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict
    from psycopg.rows import dict_row

    # Every read runs in an explicit READ ONLY transaction (psycopg begins each one with
    # BEGIN READ ONLY), not in an autocommit session a function could switch to read-write;
    # row_security=off makes a table's policy (which may call a function) an error instead.
    ours = (
        "-c default_transaction_read_only=on -c row_security=off "
        f"-c statement_timeout={int(seconds * 1000)}"
    )
    try:
        given = conninfo_to_dict(spec.target).get("options") or ""
        conn = psycopg.connect(
            spec.target,
            autocommit=False,
            prepare_threshold=0,
            row_factory=dict_row,
            connect_timeout=int(os.environ.get("PGCONNECT_TIMEOUT", "10")),
            options=f"{given} {ours}".strip(),
        )
    except psycopg.ProgrammingError:  # a malformed DSN; its text may hold the password
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{spec.label}: the DSN cannot be parsed; write "
            "postgresql://user:password@host:port/db.",
        ) from None
    except psycopg.OperationalError as exc:
        raise _connect_error(spec.label, str(exc)) from None
    conn.read_only = True
    return conn


def _role_warnings(conn: Any, label: str) -> list[StoreWarning]:
    with conn.cursor() as cur:
        cur.execute(
            "SELECT rolsuper, (SELECT bool_or(has_table_privilege(t, "
            "'INSERT, UPDATE, DELETE, TRUNCATE')) FROM unnest(%s::text[]) AS t) AS writes "
            "FROM pg_roles WHERE rolname = current_user",
            (list(_TABLES["postgres"]),),
        )
        row = cur.fetchone() or {"rolsuper": False, "writes": False}
    grant = "connect as a role that may only SELECT them (README: an audit role)"
    if row["rolsuper"]:
        return [
            StoreWarning(
                StoreCode.ROLE_SUPERUSER,
                f"{label}: the playground reads as a superuser, who may do anything on the "
                f"database server; {grant}.",
            )
        ]
    if row["writes"]:
        return [
            StoreWarning(
                StoreCode.ROLE_CAN_WRITE,
                f"{label}: the role the playground reads as may also change the checkpoint "
                f"tables; {grant}.",
            )
        ]
    return []


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


def _require_tables(label: str, kinds: dict[str, str], backend: str) -> None:
    needed = _TABLES[backend]
    missing = sorted(set(needed) - set(kinds))
    if missing:
        raise StoreError(
            StoreCode.NOT_A_CHECKPOINT_STORE,
            f"{label} is a database but not a LangGraph checkpoint store (missing table: "
            f"{', '.join(missing)}); point at the store your checkpointer writes.",
        )
    other = {name: kind for name, kind in kinds.items() if kind != "table"}
    if other:
        named = ", ".join(f"{name} is a {kind}" for name, kind in sorted(other.items()))
        raise StoreError(
            StoreCode.NOT_TABLES,
            f"{label}: {named}, not a plain table; the playground reads only real tables "
            "(reading a view or computed column runs whatever it was defined with).",
        )
