"""Stores for the migration tests: each case's threads written by real runs through LangGraph's
own SqliteSaver and PostgresSaver (a throwaway PostgreSQL 15 for the session)."""

from __future__ import annotations

import itertools
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.postgres import PostgresSaver
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.sqlite import SqliteSaver
from psycopg.rows import dict_row

from bench._postgres import Postgres, throwaway_postgres

from .cases import CASES, Case

KINDS = ("sqlite", "postgres")
_names = (f"migrate{n}" for n in itertools.count())


@contextmanager
def saver_on(
    kind: str, spec: str, serde: SerializerProtocol | None = None
) -> Iterator[BaseCheckpointSaver[Any]]:
    """LangGraph's own saver on a SQLite file or a Postgres DSN (its default serializer, or
    `serde`: the strict one, which reads the fixtures' classes without a warning)."""
    if kind == "sqlite":
        with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
            yield SqliteSaver(conn, serde=serde)
        return
    with psycopg.connect(
        spec, autocommit=True, prepare_threshold=0, row_factory=dict_row
    ) as conn:  # as PostgresSaver.from_conn_string connects
        saver = PostgresSaver(conn, serde=serde)
        saver.setup()
        yield saver


@dataclass(frozen=True)
class Stored:
    """A case's threads written to one store: where, and how each run ended."""

    case: Case
    kind: str
    spec: str
    outcome: dict[str, str | None]  # thread id -> what stopped its run (None: it finished)


def write_store(case: Case, kind: str, folder: Path, postgres: Postgres | None) -> Stored:
    name = next(_names)
    if kind == "sqlite":
        spec = str(folder / f"{name}.sqlite")
    else:
        assert postgres is not None
        spec = postgres.create_database(name)
    with saver_on(kind, spec) as saver:
        outcome = case.write_threads(saver)
    return Stored(case, kind, spec, outcome)


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    with throwaway_postgres() as cluster:
        yield cluster


_PAIRS = [(case, kind) for case in CASES for kind in KINDS]


@pytest.fixture(scope="session", params=_PAIRS, ids=[f"{c}-{k}" for c, k in _PAIRS])
def stored(request, tmp_path_factory) -> Stored:
    """A case's store, shared by the tests that only read it."""
    case, kind = request.param
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    return write_store(CASES[case], kind, tmp_path_factory.mktemp(case), cluster)


@pytest.fixture(params=_PAIRS, ids=[f"{c}-{k}" for c, k in _PAIRS])
def own_store(request, tmp_path) -> Stored:
    """A case's store of this test's own: it is written to."""
    case, kind = request.param
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    return write_store(CASES[case], kind, tmp_path, cluster)
