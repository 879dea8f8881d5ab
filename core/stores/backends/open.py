"""Open a checkpoint store read-only from a spec: a SQLite file, or a PostgreSQL database
(`core.stores.postgres`); `Store` and the limits are re-exported from `core.stores.store`."""

from __future__ import annotations

import re
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from functools import lru_cache
from pathlib import Path
from urllib.parse import quote

from langgraph.checkpoint.serde.base import SerializerProtocol

from core.lg_compat import SAVER_TABLES, TASK_PATH, mark_sqlite_set_up
from core.stores.backends.postgres import STORE_ENV, open_postgres
from core.stores.backends.sidecar import wal_without_shm
from core.stores.backends.spec import StoreSpec, parse_store_spec, store_label
from core.stores.backends.store import MAX_VALUE_BYTES, Store, require_tables
from core.stores.errors import EncryptionRefused, StoreCode, StoreError

__all__ = [
    "MAX_VALUE_BYTES",
    "QUERY_SECONDS",
    "QUICK_CHECK_BYTES",
    "STORE_ENV",
    "Store",
    "open_store",
    "store_label",
]

QUERY_SECONDS = 30.0  # one read may take this long before it is stopped
# SQLite files up to this size (every upload: the Threads page takes 50 MB) are checked
# whole before their first read, and again once changed. quick_check took 0.08 s on a 53 MB
# store here (0.4-0.6 s from a cold cache): a larger file, which only the server's own
# settings can name, is not checked first; a damaged page met while reading is refused then.
QUICK_CHECK_BYTES = 256 * 2**20
# SQLite's advice for a database file from elsewhere (sqlite.org/security.html): a function
# in its schema (a view's, a trigger's) runs only if SQLite calls it innocuous; a cell whose
# size does not fit its page is an error, not read past; the file is read, not mapped (a
# mapped file changed under the reader faults the process); and nothing is written
_UNTRUSTED = (
    "PRAGMA trusted_schema = OFF",
    "PRAGMA cell_size_check = ON",
    "PRAGMA mmap_size = 0",
    "PRAGMA query_only = ON",
)


@contextmanager
def open_store(
    spec: str,
    serde: SerializerProtocol,
    *,
    max_value_bytes: int = MAX_VALUE_BYTES,
    query_seconds: float = QUERY_SECONDS,
) -> Iterator[Store]:
    """Open `spec` read-only with LangGraph's saver for it, reading through `serde`.

    `spec`: a SQLite file path or `sqlite:///path` (opened with `mode=ro` and as SQLite
    advises for a file from elsewhere; up to `QUICK_CHECK_BYTES`, checked whole before the
    first read: a damaged one is `store_corrupt`), or a PostgreSQL URL (`postgresql://`,
    `postgres://`, SQLAlchemy's `postgresql+driver://`) or libpq keyword string (every
    read in a READ ONLY transaction). Only real tables are read, each query stops after
    `query_seconds`, and a stored value over `max_value_bytes` is skipped with a coded
    outcome. Raises `StoreError` with a stable code when the store cannot be read; its
    message names the store by its label only.

    Example:
        >>> from core.stores.decode.serde import strict_serde
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
    if parsed.problem:  # a spec this module cannot read is not handed to a driver to guess
        raise StoreError(StoreCode.BAD_SPEC, f"{parsed.label}: {parsed.problem}")
    if parsed.kind in ("unknown", "server"):
        raise StoreError(
            StoreCode.BAD_SPEC,
            f"{parsed.label} is neither a SQLite path, a sqlite:/// URL nor a postgresql:// "
            "DSN; give a file path or a postgresql:// DSN.",
        )
    opener = open_postgres if parsed.kind == "postgres" else _open_sqlite
    with opener(parsed, serde, query_seconds) as store:
        store.max_value_bytes, store.spec = max_value_bytes, spec
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
    # a damaged page met while reading: a file too large to check first, or one changed since
    if (getattr(exc, "sqlite_errorname", "") or "").startswith("SQLITE_CORRUPT"):
        return _corrupt(label, str(exc))
    return StoreError(
        StoreCode.UNREADABLE,
        f"{label} failed while being read ({name}); check the file or server and read it again.",
    )


def _corrupt(label: str, said: str) -> StoreError:
    said = " ".join(said.removeprefix("*** in database main ***").split())  # SQLite's own words
    return StoreError(
        StoreCode.CORRUPT,
        f"{label} is damaged (SQLite: {said[:120]}), so none of it is read; restore it from a "
        "backup, or copy what SQLite can still read to a new file (sqlite3 damaged.sqlite "
        ".recover | sqlite3 recovered.sqlite) and open that.",
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
    if path.stat().st_size <= QUICK_CHECK_BYTES:
        try:
            _check_intact(uri, label, seconds, _fingerprint(path))
        except StoreError as error:  # a log SQLite cannot open is not damage
            raise wal_without_shm(path, label) or error from None
    with closing(_sqlite(uri, seconds)) as conn, closing(_sqlite(uri, seconds)) as own:
        try:
            kinds = _sqlite_kinds(own)
        except sqlite3.DatabaseError as exc:
            raise wal_without_shm(path, label) or _not_a_database(label, exc) from None
        require_tables(label, kinds, "sqlite")
        writes = SAVER_TABLES["sqlite"].writes
        has_task_path = TASK_PATH in {row[1] for row in own.execute(f"PRAGMA table_info({writes})")}
        saver = SqliteSaver(conn, serde=serde)
        # setup() writes (WAL pragma, CREATE TABLE, ALTER TABLE); the tables are there
        mark_sqlite_set_up(saver, has_task_path=has_task_path)
        yield Store(saver, "sqlite", label, own, has_task_path=has_task_path)


_VIRTUAL = re.compile(r"^\s*create\s+virtual\s+table", re.IGNORECASE)


def _sqlite_kinds(conn: sqlite3.Connection) -> dict[str, str]:
    """Each checkpoint table's kind: "table" for a real table, else what it is instead."""
    kinds, names = {}, SAVER_TABLES["sqlite"].names
    for name, kind, sql in conn.execute(
        f"SELECT name, type, sql FROM sqlite_master WHERE name IN ({', '.join('?' * len(names))})",
        names,
    ):
        if kind == "table" and _VIRTUAL.match(sql or ""):
            kind = "virtual table"
        elif kind == "table" and any(
            row[6] in (2, 3) for row in conn.execute(f"PRAGMA table_xinfo({name})")
        ):
            kind = "table with computed columns"
        kinds[name] = kind
    return kinds


def _fingerprint(path: Path) -> tuple[int, ...]:
    """What changes when the file or its write-ahead log is written."""
    stats = [f.stat() for f in (path, path.with_name(path.name + "-wal")) if f.exists()]
    return tuple(n for stat in stats for n in (stat.st_ino, stat.st_size, stat.st_mtime_ns))


@lru_cache(maxsize=64)  # a page's every rerun opens its store: one check while it is unchanged
def _check_intact(uri: str, label: str, seconds: float, version: tuple[int, ...]) -> bool:
    """SQLite's quick_check of the whole file, within `seconds`: a damaged file is refused
    before anything is read from it, rather than read up to the damage. True, or raises;
    `version` (`_fingerprint`) is only the cache's key."""
    with closing(_sqlite(uri, seconds)) as conn:
        _quick_check(conn, label, seconds)
    return True


def _quick_check(conn: sqlite3.Connection, label: str, seconds: float) -> None:
    done = threading.Event()

    def stop_when_late() -> None:
        # quick_check walks each b-tree in one VM step, which calls no progress handler; an
        # interrupt from another thread stops it (again and again: one sent before the
        # statement starts is dropped)
        if not done.wait(seconds):
            while not done.wait(0.01):
                conn.interrupt()

    watcher = threading.Thread(target=stop_when_late, daemon=True)
    watcher.start()
    try:
        said = [row[0] for row in conn.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        if exc.sqlite_errorname == "SQLITE_NOTADB":
            raise _not_a_database(label, exc) from None
        if exc.sqlite_errorname == "SQLITE_INTERRUPT":
            raise StoreError(
                StoreCode.TIMEOUT,
                f"{label}: checking the file for damage took longer than {seconds:g} s and was "
                "stopped; copy the store to a local disk and open the copy.",
            ) from None
        raise _corrupt(label, str(exc)) from None
    finally:
        done.set()
        watcher.join()  # no interrupt after this: the connection is closed or reads on
    if said != ["ok"]:
        raise _corrupt(label, said[0] if said else "no answer")


def _not_a_database(label: str, exc: sqlite3.DatabaseError) -> StoreError:
    return StoreError(
        StoreCode.NOT_A_DATABASE,
        f"{label} is not a SQLite database ({exc}); point at the file your SqliteSaver writes.",
    )


def _sqlite(uri: str, seconds: float) -> sqlite3.Connection:
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    # a crafted file's TEXT that is not UTF-8 is read, its bad bytes as lone surrogates
    # (utf-8 would fail the whole query): a reader gives such an id a coded row
    conn.text_factory = lambda raw: raw.decode("utf-8", "surrogateescape")
    for pragma in _UNTRUSTED:
        conn.execute(pragma)
    started = [time.monotonic()]

    def began(_sql: str) -> None:  # called as each statement starts
        started[0] = time.monotonic()

    conn.set_trace_callback(began)
    # a nonzero return aborts the running statement ("interrupted")
    conn.set_progress_handler(lambda: time.monotonic() - started[0] > seconds, 100_000)
    return conn
