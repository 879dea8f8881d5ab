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
from core.stores.backends.raw import RawCheckpoint, RawWrite
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
NOT_YET_THROUGH_BACKEND: dict[str, int] = {}


def _signature(cls: type, name: str) -> list[tuple[str, object]]:
    member = inspect.getattr_static(cls, name)
    if isinstance(member, property):
        return [("property", None)]
    return [(p.name, p.kind) for p in inspect.signature(member).parameters.values()]


def test_the_protocol_names_what_a_reader_needs():
    assert _MEMBERS == [
        "checkpoint_row",
        "count_threads",
        "iter_thread_ids",
        "page_starts",
        "pick",
        "thread_rows",
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


def _shape(row: RawCheckpoint | None) -> tuple[object, ...]:
    """What every store's raw checkpoint holds, whatever its payload: the same record."""
    assert isinstance(row, RawCheckpoint)
    ids = (row.thread_id, row.checkpoint_ns, row.checkpoint_id)
    assert all(isinstance(part, str) for part in ids), row
    assert row.parent_id is None or isinstance(row.parent_id, str)
    assert isinstance(row.writes, tuple)
    assert all(isinstance(w, RawWrite) and isinstance(w.task_id, str) for w in row.writes)
    return (type(row).__name__, row.checkpoint_ns, row.parent_id is None, len(row._fields))


def _rows_read_the_same_both_ways(store: Backend, thread_id: str) -> list[tuple[object, ...]]:
    """The thread's rows newest first, each parent the next one's id, each read again alone
    (`checkpoint_row`) equal to itself; an unknown checkpoint or thread is None / nothing."""
    rows = list(store.thread_rows(thread_id))
    assert [r.checkpoint_id for r in rows] == sorted((r.checkpoint_id for r in rows), reverse=True)
    assert [r.parent_id for r in rows] == [r.checkpoint_id for r in rows[1:]] + [None]
    alone = [store.checkpoint_row(thread_id, r.checkpoint_id) for r in rows]
    assert [_but_echo(row) for row in alone] == [_but_echo(row) for row in rows]
    assert store.checkpoint_row(thread_id, "1f000000-0000-6000-8000-000000000000") is None
    return [_shape(row) for row in rows]


def _but_echo(row: RawCheckpoint | None) -> RawCheckpoint | None:
    """`row` without what a server echoes of the request (its `checkpoint` key: get_state
    gives no checkpoint_ns, get_history does); a database's row as it is."""
    if row is None or not isinstance(row.payload, dict):
        return row
    return row._replace(payload={k: v for k, v in row.payload.items() if k != "checkpoint"})


def _database_rows(store: Store) -> list[tuple[object, ...]]:
    rows = list(store.thread_rows("clean-1"))
    first = rows[0]
    assert (first.thread_id, len(rows)) == ("clean-1", 4)
    assert isinstance(first.metadata[0], (bytes, str)) and first.metadata[1] > 0
    assert list(store.thread_rows("no-such-thread")) == []
    assert store.checkpoint_row("no-such-thread", first.checkpoint_id) is None
    # a database's pending writes: (type, bytes, size) each, as stored
    held = [w for row in rows for w in row.writes or ()]
    assert held and all(
        isinstance(w.value[0], str) and isinstance(w.value[1], bytes) and w.node is None
        for w in held
    )
    return _rows_read_the_same_both_ways(store, "clean-1")


_FOUR_ROOT_CHECKPOINTS = [("RawCheckpoint", "", False, 7)] * 3 + [("RawCheckpoint", "", True, 7)]


def test_a_sqlite_file_is_a_backend_read_as_msgpack():
    with open_demo_store() as store:
        assert isinstance(store, Backend)
        assert store.values_are_json is False
        assert list(store.iter_thread_ids()) == sorted(DEMO_THREADS)
        assert list(store.iter_thread_ids((1, 3))) == list(iter_thread_ids(store, (1, 3)))
        assert store.pick(database=lambda db: db.kind, server=lambda s: s.label) == "sqlite"
        assert _database_rows(store) == _FOUR_ROOT_CHECKPOINTS
        type_, blob, size = next(store.thread_rows("clean-1")).payload  # the whole checkpoint
        assert (type_, isinstance(blob, bytes), size) == ("msgpack", True, len(blob))


def test_a_postgres_database_is_a_backend(postgres_demo):
    with open_store(postgres_demo, strict_serde([AgentState])) as store:
        assert isinstance(store, Backend)
        assert (store.values_are_json, store.whole_checkpoints) == (False, False)
        assert list(store.iter_thread_ids(page=3)) == sorted(DEMO_THREADS)
        assert store.pick(database=lambda db: db.kind, server=lambda s: s.label) == "postgres"
        assert _database_rows(store) == _FOUR_ROOT_CHECKPOINTS
        text, size, blobs = next(store.thread_rows("clean-1")).payload  # JSON, and its blobs
        assert (isinstance(text, str), size > 0, len(blobs[0])) == (True, True, 5)


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
        thread = ids[0]
        history = get_sync_client(url=served.url, api_key=None).threads.get_history(thread)
        shapes = _rows_read_the_same_both_ways(store, thread)
        assert shapes == [("RawCheckpoint", "", False, 7)] * (len(history) - 1) + [
            ("RawCheckpoint", "", True, 7)
        ]
        rows = list(store.thread_rows(thread))
        assert [row.payload for row in rows] == history  # the JSON states as the server gave
        assert [len(row.writes or ()) for row in rows] == [
            sum(len(t.get("result") or {}) for t in s["tasks"]) for s in history
        ]


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
