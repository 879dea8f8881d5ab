"""Open a PostgreSQL checkpoint store: READ ONLY transactions, real tables, the role named."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langgraph.checkpoint.serde.base import SerializerProtocol

from core.lg_compat import SAVER_TABLES, TASK_PATH
from core.stores.backends.spec import StoreSpec
from core.stores.backends.store import TABLES, Store, require_tables
from core.stores.errors import StoreCode, StoreError, StoreWarning

__all__ = ["STORE_ENV", "open_postgres"]

STORE_ENV = "PLAYGROUND_STORE"


@contextmanager
def open_postgres(spec: StoreSpec, serde: SerializerProtocol, seconds: float) -> Iterator[Store]:
    from langgraph.checkpoint.postgres import PostgresSaver

    label = spec.label
    with _postgres(spec, seconds) as conn, _postgres(spec, seconds) as own:
        with own.cursor() as cur:
            # what each unqualified name resolves to on this search_path, as the saver's
            # queries will: r and p are real tables; a view (v) could run any function
            cur.execute(
                "SELECT name, (SELECT relkind FROM pg_class WHERE oid = to_regclass(name)) "
                "AS kind FROM unnest(%s::text[]) AS name",
                (list(TABLES["postgres"]),),
            )
            names = {"r": "table", "p": "table", "v": "view", "m": "materialized view",
                     "f": "foreign table"}  # fmt: skip
            kinds = {
                row["name"]: names.get(row["kind"], str(row["kind"]))
                for row in cur.fetchall()
                if row["kind"]
            }
        require_tables(label, kinds, "postgres")
        with own.cursor() as cur:
            cur.execute(
                "SELECT 1 FROM information_schema.columns "
                "WHERE table_name = %s AND column_name = %s",
                (SAVER_TABLES["postgres"].writes, TASK_PATH),
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
        parsed = conninfo_to_dict(spec.target)
        given = parsed.get("options") or ""
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
        raise _connect_error(spec.label, str(exc), _tls_asked(parsed)) from None
    conn.read_only = True
    return conn


def _role_warnings(conn: Any, label: str) -> list[StoreWarning]:
    with conn.cursor() as cur:
        cur.execute(
            "SELECT rolsuper, (SELECT bool_or(has_table_privilege(t, "
            "'INSERT, UPDATE, DELETE, TRUNCATE')) FROM unnest(%s::text[]) AS t) AS writes "
            "FROM pg_roles WHERE rolname = current_user",
            (list(TABLES["postgres"]),),
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


def _tls_asked(parsed: dict[str, Any]) -> str:
    """Where the DSN's TLS requirement comes from, as the message names it."""
    if parsed.get("sslmode"):
        return f"sslmode={parsed['sslmode']} in the DSN"
    mode = os.environ.get("PGSSLMODE", "")
    return f"PGSSLMODE={mode}" if mode else "the DSN"


def _connect_error(label: str, reason: str, tls: str = "the DSN") -> StoreError:
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
    if "server does not support SSL" in reason:  # libpq's words for sslmode=require and up
        return StoreError(
            StoreCode.UNREACHABLE,
            f"{label} requires TLS ({tls}) and the server does not offer it; turn on ssl in "
            "the server's postgresql.conf, or connect without TLS only on a network you trust "
            "(sslmode=prefer or disable).",
        )
    return StoreError(
        StoreCode.UNREACHABLE,
        f"cannot connect to {label} (server down, or wrong host or port); start the server "
        "or correct the DSN.",
    )
