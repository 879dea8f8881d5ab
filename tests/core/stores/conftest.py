"""A real PostgreSQL 15 for the store tests (one throwaway cluster per session) and stores."""

from __future__ import annotations

import os
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.sqlite import SqliteSaver

from core.stores.demo import run_demo_threads

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
PG_PASSWORD = "pg-Secret-4711"  # the tests check it never shows in a message


@dataclass
class Postgres:
    """A running throwaway cluster on 127.0.0.1:port; every login needs the password."""

    port: int
    data: Path

    def dsn(self, dbname: str = "postgres", password: str = PG_PASSWORD) -> str:
        return f"postgresql://postgres:{password}@127.0.0.1:{self.port}/{dbname}"

    def create_database(self, name: str) -> str:
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.dsn(name)


def free_port() -> int:
    with closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_owner(root: Path) -> list[str]:
    """initdb refuses root: run the server as the `postgres` system user then."""
    if os.geteuid() != 0:
        return []
    shutil.chown(root, "postgres", "postgres")
    return ["runuser", "-u", "postgres", "--"]


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    assert (PG_BIN / "initdb").exists(), f"{PG_BIN}/initdb missing: apt-get install postgresql"
    root = Path(tempfile.mkdtemp(prefix="playground-pg-"))
    prefix = _as_owner(root)
    data, log, pwfile = root / "data", root / "server.log", root / "pw"
    pwfile.write_text(PG_PASSWORD + "\n")
    if prefix:
        shutil.chown(pwfile, "postgres", "postgres")
    run = dict(check=True, capture_output=True, text=True, timeout=120)
    subprocess.run([*prefix, PG_BIN / "initdb", "-D", data, "-U", "postgres", "-E", "UTF8",
                    "--locale=C", "--no-sync", "--auth-local=trust",
                    "--auth-host=scram-sha-256", f"--pwfile={pwfile}"], **run)  # fmt: skip
    port = free_port()
    options = (f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c synchronous_commit=off -c full_page_writes=off")  # fmt: skip
    subprocess.run([*prefix, PG_BIN / "pg_ctl", "-D", data, "-l", log, "-o", options, "-w",
                    "-t", "60", "start"], **run)  # fmt: skip
    try:
        yield Postgres(port, data)
    finally:
        subprocess.run([*prefix, PG_BIN / "pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


@contextmanager
def writer(kind: str, target: str) -> Iterator[BaseCheckpointSaver]:
    """LangGraph's own saver, writable, on a SQLite file or a Postgres DSN."""
    if kind == "sqlite":
        with closing(sqlite3.connect(target, check_same_thread=False)) as conn:
            yield SqliteSaver(conn)
    else:
        with PostgresSaver.from_conn_string(target) as saver:
            saver.setup()
            yield saver


def new_store(kind: str, name: str, tmp: Path, postgres: Postgres | None) -> str:
    """An empty checkpoint store's spec: a SQLite file path or a fresh Postgres database."""
    if kind == "sqlite":
        return str(tmp / f"{name}.sqlite")
    assert postgres is not None
    return postgres.create_database(name)


def _demo(kind: str, tmp: Path, postgres: Postgres | None) -> str:
    spec = new_store(kind, "demo", tmp, postgres)
    with writer(kind, spec) as saver:
        run_demo_threads(saver)
    return spec


@pytest.fixture(scope="session")
def postgres_demo(postgres, tmp_path_factory) -> str:
    """The DSN of the demo threads written by real runs through the real PostgresSaver."""
    return _demo("postgres", tmp_path_factory.mktemp("demo"), postgres)


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def demo_store(request, tmp_path_factory) -> tuple[str, str]:
    """(kind, spec) of the demo threads written by real runs through the real saver."""
    if request.param == "postgres":
        return "postgres", request.getfixturevalue("postgres_demo")
    return "sqlite", _demo("sqlite", tmp_path_factory.mktemp("demo"), None)
