"""Only real tables are read, every read is read-only and bounded in time, the role is named."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from core.__main__ import main
from core.order import AgentState
from core.stores import StoreError, audit_store, open_store, strict_serde
from core.stores.demo import build_demo_store

from .conftest import PG_PASSWORD, new_store, writer

ROOT = Path(__file__).resolve().parents[3]
SERDE = strict_serde([AgentState])


def _refusal(spec: str, **options) -> StoreError:
    with pytest.raises(StoreError) as refused:
        with open_store(spec, SERDE, **options) as store:
            audit_store(store, AgentState, history=True)
    return refused.value


def _sqlite_store(tmp_path: Path, *statements: str) -> str:
    """A real checkpoint store with `writes` kept and `checkpoints` replaced as told."""
    spec = str(tmp_path / "crafted.sqlite")
    build_demo_store(spec)
    with closing(sqlite3.connect(spec)) as conn, conn:
        conn.execute("ALTER TABLE checkpoints RENAME TO real_checkpoints")
        for statement in statements:
            conn.execute(statement)
    return spec


SQLITE_CRAFTS = {
    # a view over an endless recursive CTE: read, it never ends
    "endless_view": (
        "CREATE VIEW checkpoints AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 "
        "FROM n) SELECT c.* FROM real_checkpoints c, n",
        "checkpoints is a view",
    ),
    # a 32 kB file whose view appends 300 MB to every row
    "zeroblob_view": (
        "CREATE VIEW checkpoints AS SELECT thread_id, checkpoint_ns, checkpoint_id, "
        "parent_checkpoint_id, type, checkpoint || zeroblob(300000000) AS checkpoint, metadata "
        "FROM real_checkpoints",
        "checkpoints is a view",
    ),
    # the same through a computed column of a table
    "computed_column": (
        "CREATE TABLE checkpoints (thread_id TEXT, checkpoint_ns TEXT, checkpoint_id TEXT, "
        "parent_checkpoint_id TEXT, type TEXT, raw BLOB, metadata BLOB, "
        "checkpoint BLOB GENERATED ALWAYS AS (raw || zeroblob(300000000)) VIRTUAL)",
        "checkpoints is a table with computed columns",
    ),
}


@pytest.mark.parametrize("craft", list(SQLITE_CRAFTS))
def test_a_sqlite_checkpoints_view_or_computed_column_is_refused_before_any_read(craft, tmp_path):
    statement, what = SQLITE_CRAFTS[craft]
    spec = _sqlite_store(tmp_path, statement)
    error = _refusal(spec)
    assert (error.code, error.message) == (
        "store_not_tables",
        f"{spec}: {what}, not a plain table; the playground reads only real tables (reading "
        "a view or computed column runs whatever it was defined with).",
    )


def test_a_sqlite_read_that_runs_past_its_time_budget_is_stopped_with_a_code(tmp_path):
    spec = str(tmp_path / "demo.sqlite")
    build_demo_store(spec)
    with pytest.raises(StoreError) as stopped:
        with open_store(spec, SERDE, query_seconds=0.2) as store:
            store.query(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
                "SELECT count(*) FROM n",
                (),
            )
    assert (stopped.value.code, stopped.value.message) == (
        "store_timeout",
        f"{spec}: a read took longer than 0.2 s and was stopped; audit a smaller part "
        "(--shard) or check the store's indexes.",
    )


def test_a_postgres_checkpoints_view_is_refused(postgres, postgres_demo, tmp_path):
    spec = new_store("postgres", "with_view", tmp_path, postgres)
    with writer("postgres", spec):
        pass  # the saver's tables
    with psycopg.connect(spec, autocommit=True) as conn:
        conn.execute("ALTER TABLE checkpoints RENAME TO real_checkpoints")
        conn.execute("CREATE VIEW checkpoints AS SELECT * FROM real_checkpoints")
    error = _refusal(spec)
    assert (error.code, error.message) == (
        "store_not_tables",
        f"postgresql://postgres@127.0.0.1:{postgres.port}/with_view: checkpoints is a view, "
        "not a plain table; the playground reads only real tables (reading a view or computed "
        "column runs whatever it was defined with).",
    )


def test_a_function_that_turns_the_session_read_write_cannot_make_a_read_write(postgres_demo):
    with open_store(postgres_demo, SERDE) as store:
        conn = store.conn
        # what a volatile function in a view did to the old autocommit session
        store.query("SELECT set_config('default_transaction_read_only', 'off', false)", ())
        conn.rollback()
        assert store.query("SHOW transaction_read_only", ()) == [("on",)]
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            store.query("CREATE TABLE written_by_the_audit (x int)", ())
        conn.rollback()
        assert store.query("SHOW statement_timeout", ()) == [("30s",)]


def test_a_postgres_read_past_its_statement_timeout_is_a_coded_error(postgres_demo):
    with pytest.raises(StoreError) as stopped:
        with open_store(postgres_demo, SERDE, query_seconds=0.3) as store:
            store.query("SELECT pg_sleep(2)", ())
    assert stopped.value.code == "store_timeout"
    assert PG_PASSWORD not in str(stopped.value)


def _readme_audit_role() -> list[str]:
    """The README's SQL for an audit role, statement by statement."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sql\n(CREATE ROLE audit.*?)```", text, re.DOTALL)
    assert block, "README.md gives the audit role's SQL"
    return [s.strip() for s in block.group(1).split(";") if s.strip()]


def test_the_readmes_audit_role_reads_without_a_warning_and_others_are_warned(
    postgres, postgres_demo, monkeypatch, tmp_path, capsys
):
    with psycopg.connect(postgres_demo, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS audit")
        conn.execute("DROP ROLE IF EXISTS writer")
        for statement in _readme_audit_role():
            conn.execute(statement.replace("'change-me'", "'audit-Pw-1'").replace("shop", "demo"))
        conn.execute("CREATE ROLE writer LOGIN PASSWORD 'writer-Pw-1'")
        conn.execute(
            "GRANT SELECT, INSERT ON checkpoints, checkpoint_blobs, checkpoint_writes TO writer"
        )
    host = f"127.0.0.1:{postgres.port}/demo"
    warned = {}
    for role, password in (
        ("audit", "audit-Pw-1"),
        ("writer", "writer-Pw-1"),
        ("postgres", PG_PASSWORD),
    ):
        with open_store(f"postgresql://{role}:{password}@{host}", SERDE) as store:
            warned[role] = [(w.code, w.message) for w in store.warnings]
            assert len(audit_store(store, AgentState).invalid) == 2
    grant = "connect as a role that may only SELECT them (README: an audit role)"
    assert warned == {
        "audit": [],
        "writer": [("store_role_can_write", f"postgresql://writer@{host}: the role the "
                    f"playground reads as may also change the checkpoint tables; {grant}.")],
        "postgres": [("store_role_superuser", f"postgresql://postgres@{host}: the playground "
                      f"reads as a superuser, who may do anything on the database server; {grant}.")],
    }  # fmt: skip

    monkeypatch.chdir(tmp_path)
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)
    assert main(["audit", f"postgresql://writer:writer-Pw-1@{host}"]) == 1
    assert (
        capsys.readouterr().err == f"warning: [{warned['writer'][0][0]}] {warned['writer'][0][1]}\n"
    )
