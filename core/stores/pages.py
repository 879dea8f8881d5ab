"""The root checkpoints of a page of threads in one streamed query on the saver's own tables."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple

from core.stores.open import Store

__all__ = ["read_checkpoints"]

_ROWS_PER_FETCH = 500  # Postgres: rows per round trip of the server-side cursor
_cursor_names = (f"read_checkpoints_{n}" for n in itertools.count())  # one per open read

# The columns and ordering of SqliteSaver.list / get_tuple, for many threads at once.
_SQLITE = (
    "SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, "
    "metadata FROM checkpoints c WHERE checkpoint_ns = '' AND thread_id IN ({marks}){latest} "
    "ORDER BY thread_id, checkpoint_id DESC"
)
_SQLITE_LATEST = (
    " AND checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints l "
    "WHERE l.thread_id = c.thread_id AND l.checkpoint_ns = '')"
)
# PostgresSaver's SELECT_SQL without its pending_writes column (the audit reads a state's
# writes only when that state is invalid): the checkpoint row and its channels' blobs, each
# with its version; the rows are chosen first, so only the latest ones' blobs are gathered.
_POSTGRES = """
SELECT thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint,
    metadata, (
        SELECT array_agg(array[bl.channel::bytea, convert_to(bl.version, 'UTF8'), bl.type::bytea,
            bl.blob])
        FROM jsonb_each_text(checkpoint -> 'channel_versions')
        INNER JOIN checkpoint_blobs bl
            ON bl.thread_id = checkpoints.thread_id
            AND bl.checkpoint_ns = checkpoints.checkpoint_ns
            AND bl.channel = jsonb_each_text.key
            AND bl.version = jsonb_each_text.value
    ) AS channel_values
FROM (
    SELECT {distinct} * FROM checkpoints WHERE checkpoint_ns = '' AND thread_id = ANY(%s)
    ORDER BY thread_id, checkpoint_id DESC
) checkpoints ORDER BY thread_id, checkpoint_id DESC"""


def read_checkpoints(
    store: Store, thread_ids: Sequence[str], *, latest: bool = False
) -> Iterator[CheckpointTuple]:
    """Each thread's root checkpoints, newest first (only the newest with `latest`).

    The tuples equal what the saver's own `list` (or `get_tuple`) yields for each thread,
    threads in `ORDER BY thread_id`, except `pending_writes` is None (not read). Every value
    is decoded by the saver's serde. Rows are streamed, so memory does not grow with
    the number of checkpoints. On Postgres, a channel version the thread's previous
    (newer) checkpoint also held is decoded once and shared by both tuples (read-only),
    unless the serde refused something in it.

    Example:
        >>> from core.order import AgentState
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     steps = [t.metadata["step"] for t in read_checkpoints(store, ["clean-1"])]
        >>> steps
        [2, 1, 0, -1]
    """
    if not thread_ids:
        return
    if store.kind == "sqlite":
        yield from _sqlite(store, thread_ids, latest)
    else:
        yield from _postgres(store, thread_ids, latest)


def _tuple(
    thread: str, ns: str, checkpoint_id: str, parent: str | None, checkpoint: Any, metadata: Any
) -> CheckpointTuple:
    def config(checkpoint_id: str) -> RunnableConfig:
        ids = {"thread_id": thread, "checkpoint_ns": ns, "checkpoint_id": checkpoint_id}
        return {"configurable": ids}

    return CheckpointTuple(config(checkpoint_id), checkpoint, metadata,
                           config(parent) if parent else None, None)  # fmt: skip


def _sqlite(store: Store, thread_ids: Sequence[str], latest: bool) -> Iterator[CheckpointTuple]:
    sql = _SQLITE.format(
        marks=", ".join("?" * len(thread_ids)), latest=_SQLITE_LATEST if latest else ""
    )
    loads = store.saver.serde.loads_typed
    cursor = store.conn.execute(sql, tuple(thread_ids))  # iterated: one row at a time
    try:
        for thread, ns, checkpoint_id, parent, type_, blob, metadata in cursor:
            metadata = json.loads(metadata) if metadata is not None else {}
            yield _tuple(thread, ns, checkpoint_id, parent, loads((type_, blob)), metadata)
    finally:
        cursor.close()


def _decode(serde: Any, type_: bytes, blob: bytes) -> tuple[Any, bool]:
    """A blob's value, and whether it may be shared: the serde counted no refusal in it."""
    before = getattr(serde, "refusals", 0)
    value = serde.loads_typed((type_.decode(), blob))
    return value, getattr(serde, "refusals", 0) == before


def _postgres(store: Store, thread_ids: Sequence[str], latest: bool) -> Iterator[CheckpointTuple]:
    from psycopg.rows import tuple_row

    sql = _POSTGRES.format(distinct="DISTINCT ON (thread_id)" if latest else "")
    serde = store.saver.serde
    # Postgres keeps each channel version once: a blob the previous (newer) checkpoint of
    # the thread also held is not decoded again; its value is shared, to be read only
    previous: dict[tuple[str, bytes, bytes], Any] = {}
    # a server-side cursor needs a transaction (read-only, as every one on this connection)
    with (
        store.conn.transaction(),
        store.conn.cursor(name=next(_cursor_names), row_factory=tuple_row) as cur,
    ):
        cur.itersize = _ROWS_PER_FETCH
        cur.execute(sql, (list(thread_ids),))
        for thread, ns, checkpoint_id, parent, checkpoint, metadata, blobs in cur:
            # as PostgresSaver._load_blobs: inline values, then each channel's blob decoded;
            # its migration of pending sends (checkpoints before v4) only fills LangGraph's
            # own `__pregel_tasks` channel, which is not part of the state
            decoded: dict[tuple[str, bytes, bytes], tuple[Any, bool]] = {}
            for channel, version, type_, blob in blobs or ():
                if type_ != b"empty":
                    key = (thread, channel, version)
                    decoded[key] = (
                        (previous[key], True) if key in previous else _decode(serde, type_, blob)
                    )
            # a value with a refusal is decoded again each time, so each state counts it
            previous = {key: value for key, (value, shared) in decoded.items() if shared}
            values = {channel.decode(): value for (_, channel, _), (value, _) in decoded.items()}
            checkpoint = {
                **checkpoint,
                "channel_values": {**(checkpoint.get("channel_values") or {}), **values},
            }
            yield _tuple(thread, ns, checkpoint_id, parent, checkpoint, metadata)
