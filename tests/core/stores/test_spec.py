"""Store specs in every form users keep: one label, never a password; the forms that open."""

from __future__ import annotations

import psycopg
import pytest

from core.__main__ import main
from core.order import AgentState
from core.stores import StoreError, audit_store, open_store, strict_serde
from core.stores.spec import parse_store_spec, store_label

from .conftest import PG_PASSWORD

SECRET = "Pw-7@x:y/z?q"  # what a password may hold: @, :, / and ?

# spec -> (kind, label): the forms of issue 28 and their neighbours
FORMS = {
    "postgresql+psycopg://app:Pw@db:5432/shop": ("postgres", "postgresql://app@db:5432/shop"),
    "postgresql+psycopg2://app:Pw@db:5432/shop": ("postgres", "postgresql://app@db:5432/shop"),
    "postgresql+asyncpg://app:Pw@db/shop": ("postgres", "postgresql://app@db:5432/shop"),
    "PostgreSQL://app:Pw@db:6543/shop": ("postgres", "postgresql://app@db:6543/shop"),
    "POSTGRES://app:Pw@db/shop": ("postgres", "postgresql://app@db:5432/shop"),
    "  postgresql://app:Pw@db/shop\n": ("postgres", "postgresql://app@db:5432/shop"),
    "postgresql://app:x@Pw@db/shop": ("postgres", "postgresql://app@db:5432/shop"),
    "postgresql://app:Pw@[::1]:5433/shop?sslmode=disable&password=Pw": (
        "postgres", "postgresql://app@::1:5433/shop",
    ),
    "postgresql://app:Pw@h1:5432,h2:5433/shop": ("postgres", "postgresql://app@h1,h2:5432,5433/shop"),
    "postgresql://db/shop?user=app&password=Pw": ("postgres", "postgresql://app@db:5432/shop"),
    "jdbc:postgresql://db:5432/shop?user=app&password=Pw": ("jdbc", "postgresql://app@db:5432/shop"),
    " host=db port=6543 user=app password=Pw dbname=shop": (
        "postgres", "postgresql://app@db:6543/shop",
    ),
    "host=db password='Pw with spaces' user=app": ("postgres", "postgresql://app@db:5432/"),
    "HOST=db PASSWORD=Pw": ("postgres", "postgresql://(a DSN that cannot be parsed)"),
    "host=db password='Pw": ("postgres", "postgresql://(a DSN that cannot be parsed)"),
    # a password's "?" and "&" written as they are: all of it is the password
    "postgresql://app:Pw?x=1&y@db/shop": ("postgres", "postgresql://app@db:5432/shop"),
    # an "@" in a query's value: the host is read, but the password might run to that "@"
    "postgresql://app:Pw@db.internal/shop?application_name=Pw@x": (
        "postgres", "a PostgreSQL DSN (not shown: part of it may be a password)",
    ),
    "postgresql://db/shop?user=app&password=Pw&Pw-2=x": ("postgres", "postgresql://app@db:5432/shop"),
    "postgres:/app:Pw-Pw@db/shop": ("unknown", "a store spec (not shown: part of it may be a password)"),
    "mysql://app:Pw@db/shop": ("unknown", "a mysql:// URL"),
    "redis+sentinel://:Pw@db": ("unknown", "a redis+sentinel:// URL"),
    "://app:Pw@db": ("unknown", "a URL of an unknown kind"),
    "http://app:Pw@langgraph.internal:2024/api/?key=Pw": (
        "server", "http://langgraph.internal:2024/api",
    ),
    "HTTPS://app:Pw@[::1]:8123": ("server", "https://[::1]:8123"),
    "https://app:Pw@host:99999": ("server", "a LangGraph server URL that cannot be parsed"),
    "https://app:Pw/Pw-2@host:8123": ("server", "a LangGraph server URL that cannot be parsed"),
    "sqlite:///runs/checkpoints.sqlite": ("sqlite", "runs/checkpoints.sqlite"),
    "SQLite+pysqlite:////abs/runs.db": ("sqlite", "/abs/runs.db"),
    "runs/checkpoints.sqlite": ("sqlite", "runs/checkpoints.sqlite"),
    "   ": ("none", "(no store)"),
}  # fmt: skip


def test_every_form_gets_a_label_without_its_password():
    assert {spec: (parse_store_spec(spec).kind, store_label(spec)) for spec in FORMS} == FORMS
    for spec in FORMS:
        assert "Pw" not in store_label(spec), spec


@pytest.fixture(scope="module")
def at_role(postgres, postgres_demo):
    """A login whose password holds @, :, / and ?, allowed to read the demo store."""
    with psycopg.connect(postgres.dsn(), autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS reader")
        conn.execute(f"CREATE ROLE reader LOGIN PASSWORD '{SECRET}'")
    with psycopg.connect(postgres_demo, autocommit=True) as conn:
        conn.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader")
    return f"reader:{SECRET}@127.0.0.1:{postgres.port}/demo"


@pytest.mark.parametrize(
    "scheme", ["postgresql+psycopg://", "postgresql+psycopg2://", "PostgreSQL://", " postgres://"]
)
def test_the_forms_users_keep_open_with_a_password_written_as_it_is(at_role, scheme):
    with open_store(f"{scheme}{at_role}", strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
        assert (store.label, store.warnings) == (
            f"postgresql://reader@{at_role.split('@')[-1]}",
            [],
        )
    assert (result.threads, len(result.invalid)) == (10, 2)


def test_a_jdbc_url_is_refused_by_name_and_its_password_never_shown(postgres, capsys):
    spec = f"jdbc:postgresql://127.0.0.1:{postgres.port}/demo?user=postgres&password={PG_PASSWORD}"
    with pytest.raises(StoreError) as refused:
        with open_store(spec, strict_serde([AgentState])):
            pass
    label = f"postgresql://postgres@127.0.0.1:{postgres.port}/demo"
    assert (refused.value.code, refused.value.message) == (
        "bad_store_spec",
        f"{label} is given as a JDBC URL (jdbc:postgresql://...), which Python's drivers do not "
        "read; drop the jdbc: prefix and write postgresql://user:password@host:port/db.",
    )
    assert main(["audit", spec, "--model", "core.order:AgentState"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"[bad_store_spec] {refused.value.message}\n")


@pytest.mark.parametrize("spec", [s for s, (kind, _) in FORMS.items() if kind != "sqlite"])
def test_no_refusal_of_any_form_quotes_its_password(spec, monkeypatch):
    def refuse(conninfo, **_):  # as libpq does, the driver's message quotes what it was given
        raise psycopg.OperationalError(f'connection to "{conninfo}" failed: no such host')

    monkeypatch.setattr(psycopg, "connect", refuse)  # and no name is looked up
    with pytest.raises(StoreError) as refused:
        with open_store(spec, strict_serde([AgentState])):
            pass
    assert "Pw" not in str(refused.value) and "Pw" not in repr(refused.value)
