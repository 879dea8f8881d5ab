"""The shard hash: SQLite and Postgres compute shard_of in the WHERE, evenly, over every id."""

from __future__ import annotations

import random
import uuid
from collections import Counter

import pytest

from core.order import AgentState
from core.stores import open_store, shard_of, strict_serde
from core.stores.threads import walk as walk_module
from core.stores.walk import iter_thread_ids

from .conftest import new_store, writer

VARIED_IDS = [
    "", " ", "  ", "\t", "a", "thread-1", "Thread-1", "订单-①", "😀", "x😀", "😀x",
    "e\u0301", "\u00e9", "Ω€", "\U0010ffff", "ÿ" * 9, "x" * 5_000 + "end",
    "550e8400-e29b-41d4-a716-446655440000", "ends with a space ",
]  # fmt: skip
# Postgres text holds no NUL; SQLite's length() and substr() stop at the first one
SQLITE_ONLY_IDS = ["a\x00b", "\x00"]
SEQUENTIAL = [f"thread-{n:05d}" for n in range(1, 10_001)]
_draw = random.Random(20_240_601)
UUIDS = [str(uuid.UUID(int=_draw.getrandbits(128), version=4)) for _ in range(10_000)]


def _store_of(kind: str, name: str, ids: list[str], tmp_path, request) -> str:
    """A store whose `checkpoints` table holds one row per id (enough to be a thread)."""
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, name, tmp_path, pg)
    with writer(kind, spec) as saver:
        saver.setup()
        rows = [(thread, f"c-{n}") for n, thread in enumerate(ids)]
        if kind == "sqlite":
            with saver.conn:
                saver.conn.executemany(
                    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, type, "
                    "checkpoint, metadata) VALUES (?, '', ?, 'msgpack', x'80', '{}')",
                    rows,
                )
        else:
            with saver.conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, "
                    "checkpoint) VALUES (%s, '', %s, '{}')",
                    rows,
                )
    return spec


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_database_puts_each_id_in_the_shard_shard_of_names(kind, tmp_path, request):
    ids = VARIED_IDS + UUIDS[:20] + (SQLITE_ONLY_IDS if kind == "sqlite" else [])
    spec = _store_of(kind, "varied", ids, tmp_path, request)
    with open_store(spec, strict_serde([AgentState])) as store:
        for shards in (2, 3, 4, 8, 2**31 - 1):  # the last one: the whole hash, no modulo
            expected: dict[int, list[str]] = {}
            for thread in sorted(ids):
                expected.setdefault(shard_of(thread, shards), []).append(thread)
            found = {index: list(iter_thread_ids(store, (index, shards))) for index in expected}
            assert found == expected, shards


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_each_worker_reads_only_its_own_ids_and_together_every_id(
    kind, tmp_path, request, monkeypatch
):
    ids = [f"t{n:04d}" for n in range(1_000)] + ["", " ", "\u00e9"]
    spec = _store_of(kind, "paged", ids, tmp_path, request)
    monkeypatch.setattr(walk_module, "_PAGE", 97)  # pages end inside each shard's run of ids
    with open_store(spec, strict_serde([AgentState])) as store:
        query, fetched = store.query, []

        def counted(sql, params):
            rows = query(sql, params)
            fetched.append(len(rows))
            return rows

        store.query = counted
        slices = [list(iter_thread_ids(store, (index, 4))) for index in range(4)]
    assert sum(fetched) == len(ids)  # no id crosses the wire to be dropped in Python
    assert slices == [sorted(t for t in ids if shard_of(t, 4) == index) for index in range(4)]
    assert shard_of("", 4) == 0 and slices[0][0] == ""


def _balance(ids: list[str], shards: int) -> list[int]:
    counts = Counter(shard_of(thread, shards) for thread in ids)
    return [counts[index] for index in range(shards)]


@pytest.mark.parametrize("ids", [UUIDS, SEQUENTIAL], ids=["uuid4", "sequential"])
@pytest.mark.parametrize("shards", [2, 4, 8])
def test_uuid_and_sequential_ids_spread_evenly(ids, shards):
    counts = _balance(ids, shards)
    assert sum(counts) == 10_000
    assert max(counts) <= 1.25 * 10_000 / shards, counts


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_the_databases_count_the_same_shards_over_twenty_thousand_ids(kind, tmp_path, request):
    spec = _store_of(kind, "balance", UUIDS + SEQUENTIAL, tmp_path, request)
    with open_store(spec, strict_serde([AgentState])) as store:
        counts = [sum(1 for _ in iter_thread_ids(store, (index, 8))) for index in range(8)]
    assert counts == _balance(UUIDS + SEQUENTIAL, 8)
