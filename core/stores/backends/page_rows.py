"""The saver's own tables read raw for many threads at once: one streamed query for their
root checkpoints, one for their pending writes, in each dialect, given as `RawCheckpoint`s
(`raw_checkpoints`); decoded above (`core.stores.threads.pages`)."""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Generator, Sequence
from contextlib import closing, suppress
from typing import Any, Literal, Protocol

from langgraph.checkpoint.base import writes_sort_key

from core.lg_compat import SAVER_TABLES, TASK_PATH
from core.stores.backends.raw import RawCheckpoint, RawWrite
from core.stores.backends.thread_ids import ThreadId, sqlite_bound

__all__ = ["checkpoint_rows", "raw_checkpoints", "write_rows"]


class Store(Protocol):
    """What these reads need of `core.stores.backends.store.Store` (which calls them)."""

    kind: Literal["sqlite", "postgres"]
    conn: Any
    max_value_bytes: int
    has_task_path: bool

    @property
    def whole_checkpoints(self) -> bool: ...


_ROWS_PER_FETCH = 250  # Postgres: rows per round trip of the server-side cursor
_cursor_names = (f"read_checkpoints_{n}" for n in itertools.count())  # one per open read


def _size(column: str) -> str:
    # SQLite's length() counts a text's characters (at most 4 bytes each), a blob's bytes,
    # both from the record header: the value itself is not loaded to be measured
    return f"CASE typeof({column}) WHEN 'text' THEN 4 * length({column}) ELSE length({column}) END"


def _capped(column: str) -> str:
    return f"CASE WHEN {_size(column)} > ? THEN NULL ELSE {column} END, {_size(column)}"


_LITE, _PG = SAVER_TABLES["sqlite"], SAVER_TABLES["postgres"]  # their tables' names

# The columns and ordering of SqliteSaver.list / get_tuple, for many threads at once; a value
# over the store's limit comes back as NULL beside its size (it is never fetched).
_SQLITE = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, "
    f"{_capped('checkpoint')}, {_capped('metadata')} FROM {_LITE.checkpoints} c "
    "WHERE checkpoint_ns = '' AND thread_id IN ({marks}){latest}{only} "
    "ORDER BY thread_id, checkpoint_id DESC"
)
_SQLITE_LATEST = (
    f" AND checkpoint_id = (SELECT max(checkpoint_id) FROM {_LITE.checkpoints} l "
    "WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = '')"
)
_SQLITE_WRITES = (
    "SELECT thread_id, checkpoint_id, task_id, channel, type, {capped}, {path}, idx "
    f"FROM {_LITE.writes} "
    "WHERE checkpoint_ns = '' AND thread_id IN ({marks}){only}"
)
# PostgresSaver's SELECT_SQL without its pending_writes column (read separately, when
# asked): the checkpoint row and its channels' blobs, each with its version and size; the
# rows are chosen first, so only the latest ones' blobs are gathered. Text becomes bytea
# with convert_to (a cast would read backslashes in a channel name as escapes), and a
# channel_versions that is not an object (a damaged row) gathers no blob.
_POSTGRES = """
SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id,
    CASE WHEN octet_length(t.ctext) > %(limit)s THEN NULL ELSE t.ctext END,
    octet_length(t.ctext),
    CASE WHEN octet_length(t.mtext) > %(limit)s THEN NULL ELSE t.mtext END,
    octet_length(t.mtext), (
        SELECT array_agg(array[convert_to(bl.channel, 'UTF8'), convert_to(bl.version, 'UTF8'),
            convert_to(bl.type, 'UTF8'),
            CASE WHEN length(bl.blob) > %(limit)s THEN NULL ELSE bl.blob END,
            convert_to(length(bl.blob)::text, 'UTF8')])
        FROM jsonb_each_text(CASE jsonb_typeof(checkpoint -> 'channel_versions')
            WHEN 'object' THEN checkpoint -> 'channel_versions' ELSE '{{}}'::jsonb END) AS v
        INNER JOIN {blobs} bl
            ON bl.thread_id = c.thread_id
            AND bl.checkpoint_ns = c.checkpoint_ns
            AND bl.channel = v.key
            AND bl.version = v.value
    ) AS channel_values
FROM (
    SELECT {distinct} * FROM {checkpoints}
    WHERE checkpoint_ns = '' AND thread_id = ANY(%(ids)s){only}
    ORDER BY thread_id, checkpoint_id DESC
) c, LATERAL (SELECT checkpoint::text AS ctext, metadata::text AS mtext OFFSET 0) t
ORDER BY thread_id, checkpoint_id DESC"""
_POSTGRES_WRITES = """
SELECT thread_id, checkpoint_id, task_id, channel, type,
    CASE WHEN length(blob) > %(limit)s THEN NULL ELSE blob END, length(blob), {path}, idx
FROM {writes} WHERE checkpoint_ns = '' AND thread_id = ANY(%(ids)s){only}"""
_PG_ONLY = " AND checkpoint_id = %(checkpoint)s"


def raw_checkpoints(
    store: Store,
    thread_ids: Sequence[ThreadId],
    *,
    latest: bool = False,
    writes: bool = False,
    checkpoint_id: str | None = None,
) -> Generator[RawCheckpoint, None, None]:
    """The threads' root checkpoints as stored, each thread's newest first (only the newest
    with `latest`, only `checkpoint_id` with it), streamed (`checkpoint_rows`); with
    `writes`, each with its pending writes (read first, in one query for all the threads).
    Close the generator to stop early."""
    found = _raw_writes(store, thread_ids, checkpoint_id) if writes else None
    whole = store.whole_checkpoints
    with closing(checkpoint_rows(store, thread_ids, latest, checkpoint_id)) as rows:
        for row in rows:
            thread, ns, checkpoint, parent = row[:4]
            # SQLite: type, bytes, size; Postgres: JSON text, size, blobs
            payload, metadata = (row[4:7], row[7:9]) if whole else ((*row[4:6], row[8]), row[6:8])
            pending = None if found is None else found.get((thread, checkpoint), ())
            yield RawCheckpoint(thread, ns, checkpoint, parent, metadata, payload, pending)


def _raw_writes(
    store: Store, thread_ids: Sequence[ThreadId], checkpoint_id: str | None
) -> dict[tuple[str, str], tuple[RawWrite, ...]]:
    found: dict[tuple[str, str], list[RawWrite]] = {}
    for thread, checkpoint, task_id, channel, type_, blob, size in write_rows(
        store, thread_ids, checkpoint_id
    ):
        found.setdefault((thread, checkpoint), []).append(
            RawWrite(task_id, channel, (type_, blob, size))
        )
    return {key: tuple(writes) for key, writes in found.items()}


def checkpoint_rows(
    store: Store, thread_ids: Sequence[ThreadId], latest: bool, checkpoint_id: str | None = None
) -> Generator[tuple[Any, ...], None, None]:
    """The threads' root checkpoint rows, each thread's newest first, streamed (close the
    generator to stop early: a Postgres fetch under way is cancelled). A SQLite row:
    (thread, ns, id, parent, type, checkpoint or None, its size, metadata or None, its
    size); a Postgres row: (thread, ns, id, parent, checkpoint JSON text or None, its
    size, metadata or None, its size, [channel, version, type, blob or None, size] per
    channel blob). A value over the store's limit is None beside its size. With
    `checkpoint_id`, only that checkpoint's row."""
    limit = store.max_value_bytes
    only = () if checkpoint_id is None else (checkpoint_id,)
    if store.kind == "sqlite":
        sql = _SQLITE.format(
            marks=", ".join("?" * len(thread_ids)),
            latest=_SQLITE_LATEST if latest else "",
            only=" AND checkpoint_id = ?" if only else "",
        )
        bound = sqlite_bound(sql, (limit, limit, *thread_ids, *only))
        cursor = store.conn.execute(*bound)  # row by row
        with closing(cursor):
            yield from cursor
        return
    from psycopg.rows import tuple_row

    distinct = "DISTINCT ON (thread_id)" if latest else ""
    sql = _POSTGRES.format(
        distinct=distinct,
        checkpoints=_PG.checkpoints,
        blobs=_PG.blobs,
        only=_PG_ONLY if only else "",
    )
    # a server-side cursor needs a transaction (read-only, as every one on this connection)
    with (
        store.conn.transaction(),
        store.conn.cursor(name=next(_cursor_names), row_factory=tuple_row) as cur,
    ):
        # binary: the blobs come as bytes, not as hex text for the client to parse
        params = {"limit": limit, "ids": list(thread_ids), "checkpoint": checkpoint_id}
        cur.execute(sql, params, binary=True)
        rows = _prefetched(cur, _ROWS_PER_FETCH)
        with closing(rows):
            yield from rows


def write_rows(
    store: Store, thread_ids: Sequence[ThreadId], checkpoint_id: str | None = None
) -> list[tuple[Any, ...]]:
    """The pending writes of the threads' root checkpoints (only `checkpoint_id`'s with
    it), in LangGraph's order: (thread, checkpoint id, task id, channel, type, value or
    None over the limit, its size)."""
    path = TASK_PATH if store.has_task_path else "''"
    limit = store.max_value_bytes
    only = () if checkpoint_id is None else (checkpoint_id,)
    if store.kind == "sqlite":
        sql = _SQLITE_WRITES.format(
            capped=_capped("value"),
            path=path,
            marks=", ".join("?" * len(thread_ids)),
            only=" AND checkpoint_id = ?" if only else "",
        )
        rows = store.conn.execute(*sqlite_bound(sql, (limit, *thread_ids, *only))).fetchall()
    else:
        with store.conn.cursor() as cur:
            sql = _POSTGRES_WRITES.format(
                path=path, writes=_PG.writes, only=_PG_ONLY if only else ""
            )
            cur.execute(sql, {"limit": limit, "ids": thread_ids, "checkpoint": checkpoint_id})
            rows = [tuple(row.values()) for row in cur.fetchall()]
    ordered = sorted(
        rows, key=lambda r: (r[0], r[1], *writes_sort_key(str(r[7] or ""), r[2], int(r[8])))
    )
    return [row[:7] for row in ordered]


def _prefetched(cursor: Any, size: int) -> Generator[Any, None, None]:
    """The rows of a server-side `cursor`, `size` a fetch; a helper thread fetches the next
    rows while these are used, so the database computes and sends them meanwhile.

    At most three fetches' rows are held: the one read, one waiting, one arriving. The
    helper is stopped and joined before this returns (or is closed), so the cursor is
    free again; what it raised is raised here. Closed before the end (a reader that stops
    early, Ctrl+C), a fetch under way is cancelled on the server rather than waited for.
    """
    batches: queue.Queue[list[Any] | BaseException] = queue.Queue(maxsize=1)
    stop, fetching = threading.Event(), threading.Event()

    def fetch() -> None:
        try:
            while not stop.is_set():
                fetching.set()
                try:
                    rows = cursor.fetchmany(size)
                finally:
                    fetching.clear()
                batches.put(rows)
                if not rows:
                    return
        except BaseException as exc:  # noqa: BLE001 - handed to the reader, raised there
            batches.put(exc)

    fetcher = threading.Thread(target=fetch, name="read_checkpoints-fetch", daemon=True)
    fetcher.start()
    ended = False
    try:
        while batch := batches.get():
            if isinstance(batch, BaseException):
                raise batch
            yield from batch
        ended = True
    finally:
        stop.set()
        if not ended and fetching.is_set():
            # the server drops the fetch (the transaction ends in error and is rolled back);
            # a cancel that arrives once the backend is idle is ignored by it
            with suppress(Exception):
                cursor.connection.cancel_safe()
        while fetcher.is_alive():  # a helper waiting to hand over a fetch is let go
            with suppress(queue.Empty):
                batches.get_nowait()
            fetcher.join(0.01)
