"""One protocol for every store: a SQLite file, a Postgres database and a LangGraph server all
implement `Backend`, and no code outside `core/stores/backends/` asks which one a store is."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from langgraph_sdk import get_sync_client

from core.order import AgentState
from core.stores import open_store, shard_of, strict_serde
from core.stores.backends.protocol import Backend
from core.stores.backends.server import RemoteStore
from core.stores.backends.store import Store
from core.stores.demo import DEMO_THREADS, open_demo_store
from core.stores.reader import open_any
from core.stores.walk import iter_thread_ids
from tests.server_fixtures import serve_four_threads

ROOT = Path(__file__).resolve().parents[3]
_MEMBERS = [name for name in dir(Backend) if not name.startswith("_")]
# `isinstance(x, RemoteStore)` / `isinstance(x, Store)`, and a store's or spec's kind compared
# with a backend's name
_DISPATCH = re.compile(
    r"isinstance\([^)]*\b(RemoteStore|Store)\b"
    r"|\bkind\s*(==|!=|in|not in)\s*[(\[{]?\s*[\"'](sqlite|postgres|server)[\"']"
)
# Modules outside core.stores that dispatch today, each with its count. They are not this
# package's to edit: each should ask the store (`values_are_json`, `pick`) and leave this
# list, which the test below keeps exact.
NOT_YET_THROUGH_BACKEND = {
    "ui/threads/migrate/diff.py": 1,
}


def _signature(cls: type, name: str) -> list[tuple[str, object]]:
    member = inspect.getattr_static(cls, name)
    if isinstance(member, property):
        return [("property", None)]
    return [(p.name, p.kind) for p in inspect.signature(member).parameters.values()]


def test_the_protocol_names_what_a_reader_needs():
    assert _MEMBERS == [
        "count_threads",
        "iter_thread_ids",
        "page_starts",
        "pick",
        "values_are_json",
        "write_fork",
    ]
    assert set(Backend.__annotations__) == {"label", "max_value_bytes", "warnings"}


def test_store_and_remote_store_implement_every_member_with_its_parameters():
    for cls in (Store, RemoteStore):
        fields = set(inspect.get_annotations(cls))
        assert {"label", "max_value_bytes", "warnings"} <= fields, cls
        for name in _MEMBERS:
            wanted = _signature(Backend, name)
            assert _signature(cls, name)[: len(wanted)] == wanted, (cls, name)


def test_a_sqlite_file_is_a_backend_read_as_msgpack():
    with open_demo_store() as store:
        assert isinstance(store, Backend)
        assert store.values_are_json is False
        assert list(store.iter_thread_ids()) == sorted(DEMO_THREADS)
        assert list(store.iter_thread_ids((1, 3))) == list(iter_thread_ids(store, (1, 3)))
        assert store.pick(database=lambda db: db.kind, server=lambda s: s.label) == "sqlite"


def test_a_postgres_database_is_a_backend(postgres_demo):
    with open_store(postgres_demo, strict_serde([AgentState])) as store:
        assert isinstance(store, Backend)
        assert (store.values_are_json, store.whole_checkpoints) == (False, False)
        assert list(store.iter_thread_ids(page=3)) == sorted(DEMO_THREADS)
        assert store.pick(database=lambda db: db.kind, server=lambda s: s.label) == "postgres"


@pytest.mark.server
def test_a_langgraph_server_is_a_backend_read_as_json():
    with serve_four_threads() as served, open_any(served.url, strict_serde([])) as store:
        listed = get_sync_client(url=served.url, api_key=None).threads.search(limit=100)
        assert isinstance(store, Backend)
        assert store.values_are_json is True
        ids = list(store.iter_thread_ids())
        assert (ids, len(ids)) == (sorted(str(t["thread_id"]) for t in listed), 4)
        halves = [list(store.iter_thread_ids((i, 2))) for i in (0, 1)]
        assert sorted(halves[0] + halves[1]) == ids
        assert [shard_of(i, 2) for i in halves[1]] == [1] * len(halves[1])
        assert (store.count_threads(), store.count_threads("x")) == (4, None)
        assert store.page_starts("", 2, 2) == ["", "2"]
        assert store.pick(database=lambda db: db.kind, server=lambda s: s.label) == store.label


def dispatch_outside_backends() -> dict[str, int]:
    """Each module of core/, ui/ and views/ outside core/stores/backends/ that asks which
    backend a store is, with how many times."""
    found: dict[str, int] = {}
    for top in ("core", "ui", "views"):
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if relative.startswith("core/stores/backends/"):
                continue
            hits = len(_DISPATCH.findall(path.read_text(encoding="utf-8")))
            if hits:
                found[relative] = hits
    return found


def test_no_module_outside_backends_asks_which_backend_a_store_is():
    assert dispatch_outside_backends() == NOT_YET_THROUGH_BACKEND


def test_only_backends_hold_sql_table_layouts_and_server_requests():
    held = re.compile(r"\bSELECT\b|\bSAVER_TABLES\b|\bTASK_PATH\b|\.client\.|\.query\(")
    found = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "core" / "stores").rglob("*.py"))
        if "backends" not in path.parts and held.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_dispatch_check_finds_each_form():
    lines = [
        "if isinstance(store, RemoteStore):",
        "elif isinstance(x, (Store, int)):",
        'if store.kind == "sqlite":',
        "if parsed.kind in ('postgres', 'sqlite'):",
        'if spec.kind != "server":',
    ]
    assert [bool(_DISPATCH.search(line)) for line in lines] == [True] * 5
    assert _DISPATCH.search('if change.kind == "removed":') is None
