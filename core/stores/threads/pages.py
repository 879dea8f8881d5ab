"""The root checkpoints of a page of threads in one streamed query on the saver's own tables."""

from __future__ import annotations

import itertools
import queue
import threading
from collections.abc import Generator, Iterator, Sequence
from contextlib import closing, suppress
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple, writes_sort_key

from core.lg_compat import SAVER_TABLES, TASK_PATH
from core.stores.backends.open import Store
from core.stores.decode.rows import (
    RowProblem,
    Unreadable,
    UnreadValue,
    check_checkpoint,
    decode_json_checkpoint,
    decode_metadata,
    decode_value,
    step_of,
)
from core.stores.decode.serde import SharedValues

__all__ = ["read_checkpoints", "read_thread"]

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
    "WHERE checkpoint_ns = '' AND thread_id IN ({marks}){latest} "
    "ORDER BY thread_id, checkpoint_id DESC"
)
_SQLITE_LATEST = (
    f" AND checkpoint_id = (SELECT max(checkpoint_id) FROM {_LITE.checkpoints} l "
    "WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = '')"
)
_SQLITE_WRITES = (
    "SELECT thread_id, checkpoint_id, task_id, channel, type, {capped}, {path}, idx "
    f"FROM {_LITE.writes} "
    "WHERE checkpoint_ns = '' AND thread_id IN ({marks})"
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
    SELECT {distinct} * FROM {checkpoints} WHERE checkpoint_ns = '' AND thread_id = ANY(%(ids)s)
    ORDER BY thread_id, checkpoint_id DESC
) c, LATERAL (SELECT checkpoint::text AS ctext, metadata::text AS mtext OFFSET 0) t
ORDER BY thread_id, checkpoint_id DESC"""
_POSTGRES_WRITES = """
SELECT thread_id, checkpoint_id, task_id, channel, type,
    CASE WHEN length(blob) > %(limit)s THEN NULL ELSE blob END, length(blob), {path}, idx
FROM {writes} WHERE checkpoint_ns = '' AND thread_id = ANY(%(ids)s)"""


def read_checkpoints(
    store: Store,
    thread_ids: Sequence[str],
    *,
    latest: bool = False,
    writes: bool = False,
    share: bool = False,
) -> Iterator[CheckpointTuple | Unreadable]:
    """Each thread's root checkpoints, newest first (only the newest with `latest`).

    The tuples equal what the saver's own `list` (or `get_tuple`) yields for each thread,
    threads in `ORDER BY thread_id`, except `pending_writes` is None unless `writes` is set.
    A row that cannot be read (a value over the store's size limit, not decodable, nested
    too deep, NULL, not a checkpoint, bad metadata) is an `Unreadable` in its place; an
    undecodable write's value is an `UnreadValue`. Rows are streamed, so memory does not
    grow with the number of checkpoints. On Postgres, a channel version the thread's
    previous (newer) checkpoint also held is decoded once and shared by both tuples
    (read-only), unless the serde refused something in it. With `share`, for a reader that
    only reads the tuples, the same holds for each extension value (a message, a model
    instance) the previous checkpoint's row also held, when the serde can
    (`StrictSerializer.loads_shared`, one `SharedValues` per read).

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     steps = [t.metadata["step"] for t in read_checkpoints(store, ["clean-1"])]
        >>> steps
        [2, 1, 0, -1]
    """
    if not thread_ids:
        return
    found = _writes(store, thread_ids) if writes else None
    if store.whole_checkpoints:
        yield from _sqlite(store, thread_ids, latest, found, share)
    else:
        yield from _postgres(store, thread_ids, latest, found, share)


def read_thread(store: Store, thread_id: str) -> list[CheckpointTuple | Unreadable]:
    """One thread's root checkpoints with their pending writes, newest first."""
    return list(read_checkpoints(store, [thread_id], writes=True))


def _tuple(
    thread: str, ns: str, checkpoint_id: str, parent: str | None, checkpoint: Any, metadata: Any,
    writes: Any = None,
) -> CheckpointTuple:  # fmt: skip
    def config(checkpoint_id: str) -> RunnableConfig:
        ids = {"thread_id": thread, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}
        return {"configurable": ids}

    return CheckpointTuple(config(checkpoint_id), checkpoint, metadata,
                           config(parent) if parent else None, writes)  # fmt: skip


_Writes = dict[tuple[str, str], list[tuple[str, str, Any]]]


def _writes(store: Store, thread_ids: Sequence[str]) -> _Writes:
    """The pending writes of the threads' root checkpoints, in LangGraph's order."""
    path = TASK_PATH if store.has_task_path else "''"
    limit = store.max_value_bytes
    if store.whole_checkpoints:
        sql = _SQLITE_WRITES.format(
            capped=_capped("value"), path=path, marks=", ".join("?" * len(thread_ids))
        )
        rows = store.conn.execute(sql, (limit, *thread_ids)).fetchall()
    else:
        with store.conn.cursor() as cur:
            sql = _POSTGRES_WRITES.format(path=path, writes=_PG.writes)
            cur.execute(sql, {"limit": limit, "ids": thread_ids})
            rows = [tuple(row.values()) for row in cur.fetchall()]
    found: _Writes = {}
    for thread, checkpoint_id, task_id, channel, type_, blob, size, _path, _idx in sorted(
        rows, key=lambda r: (r[0], r[1], *writes_sort_key(str(r[7] or ""), r[2], int(r[8])))
    ):
        try:
            what = f"the write of {channel}"
            value = decode_value(store.saver.serde, type_, blob, size, limit, what)
        except RowProblem as problem:
            value = UnreadValue(problem.code, problem.message)
        found.setdefault((thread, checkpoint_id), []).append((task_id, channel, value))
    return found


def _sqlite(
    store: Store, thread_ids: Sequence[str], latest: bool, writes: _Writes | None, share: bool
) -> Iterator[CheckpointTuple | Unreadable]:
    sql = _SQLITE.format(
        marks=", ".join("?" * len(thread_ids)), latest=_SQLITE_LATEST if latest else ""
    )
    limit, serde = store.max_value_bytes, store.saver.serde
    cursor = store.conn.execute(sql, (limit, limit, *thread_ids))  # iterated: row by row
    shared = SharedValues() if share else None  # used when the serde is a strict one
    with closing(cursor):
        for thread, ns, checkpoint_id, parent, type_, blob, size, meta, meta_size in cursor:
            if shared is not None:
                shared.next_row()
            metadata: Any = None
            try:
                metadata = decode_metadata(meta, meta_size, limit)
                value = decode_value(serde, type_, blob, size, limit, "the checkpoint", shared)
                checkpoint = check_checkpoint(value)
            except RowProblem as problem:
                yield Unreadable(thread, checkpoint_id, step_of(metadata), problem.code,
                                 problem.message)  # fmt: skip
                continue
            pending = None if writes is None else writes.get((thread, checkpoint_id), [])
            yield _tuple(thread, ns, checkpoint_id, parent, checkpoint, metadata, pending)


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


def _decode(
    serde: Any, blob: tuple[bytes, ...], limit: int, shared: SharedValues | None
) -> tuple[Any, bool]:
    """A blob's value, and whether it may be shared: the serde counted no refusal in it."""
    channel, _, type_, value, size = blob
    before = getattr(serde, "refusals", 0)
    what = f"channel {channel.decode(errors='replace')}"
    decoded = decode_value(serde, type_, value, int(size or 0), limit, what, shared)
    return decoded, getattr(serde, "refusals", 0) == before


def _postgres(
    store: Store, thread_ids: Sequence[str], latest: bool, writes: _Writes | None, share: bool
) -> Iterator[CheckpointTuple | Unreadable]:
    from psycopg.rows import tuple_row

    distinct = "DISTINCT ON (thread_id)" if latest else ""
    sql = _POSTGRES.format(distinct=distinct, checkpoints=_PG.checkpoints, blobs=_PG.blobs)
    serde, limit = store.saver.serde, store.max_value_bytes
    shared = SharedValues() if share else None  # used when the serde is a strict one
    # a server-side cursor needs a transaction (read-only, as every one on this connection)
    with (
        store.conn.transaction(),
        store.conn.cursor(name=next(_cursor_names), row_factory=tuple_row) as cur,
    ):
        # binary: the blobs come as bytes, not as hex text for the client to parse
        cur.execute(sql, {"limit": limit, "ids": list(thread_ids)}, binary=True)
        yield from _postgres_rows(_prefetched(cur, _ROWS_PER_FETCH), serde, limit, writes, shared)


def _postgres_rows(
    rows: Generator[Any, None, None],
    serde: Any,
    limit: int,
    writes: _Writes | None,
    shared: SharedValues | None,
) -> Iterator[CheckpointTuple | Unreadable]:
    """The tuples of `_postgres`' rows; `rows` is closed (its fetcher stopped) when this ends
    or is closed."""
    # Postgres keeps each channel version once: a blob the previous (newer) checkpoint of
    # the thread also held is not decoded again; its value is shared, to be read only
    previous: dict[tuple[str, bytes, bytes], Any] = {}
    with closing(rows):
        for thread, ns, checkpoint_id, parent, text, size, meta, meta_size, blobs in rows:
            if shared is not None:
                shared.next_row()
            metadata: Any = None
            try:
                metadata = decode_metadata(meta, meta_size, limit)
                checkpoint = decode_json_checkpoint(text, size, limit)
                # as PostgresSaver._load_blobs: inline values, then each channel's blob
                # decoded; its migration of pending sends (checkpoints before v4) only fills
                # LangGraph's own `TASKS` channel (core.lg_compat), which is not in the state
                decoded: dict[tuple[str, bytes, bytes], tuple[Any, bool]] = {}
                for blob in blobs or ():
                    if blob[2] != b"empty":
                        key = (thread, blob[0], blob[1])
                        decoded[key] = (
                            (previous[key], True)
                            if key in previous
                            else _decode(serde, blob, limit, shared)
                        )
            except RowProblem as problem:
                yield Unreadable(thread, checkpoint_id, step_of(metadata), problem.code,
                                 problem.message)  # fmt: skip
                continue
            # a value with a refusal is decoded again each time, so each state counts it
            previous = {key: value for key, (value, whole) in decoded.items() if whole}
            values = {channel.decode(): value for (_, channel, _), (value, _) in decoded.items()}
            checkpoint = {
                **checkpoint,
                "channel_values": {**(checkpoint.get("channel_values") or {}), **values},
            }
            pending = None if writes is None else writes.get((thread, checkpoint_id), [])
            yield _tuple(thread, ns, checkpoint_id, parent, checkpoint, metadata, pending)
