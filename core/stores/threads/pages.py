"""The root checkpoints of a page of threads in one streamed query on the saver's own tables
(`core.stores.backends.page_rows`), or one thread's (`Backend.thread_rows`), decoded as the
saver would."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import closing, nullcontext
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple

from core.errors import ErrorCode
from core.stores.backends.open import Store
from core.stores.backends.page_rows import raw_checkpoints
from core.stores.backends.raw import RawCheckpoint, RawWrite
from core.stores.backends.thread_ids import (
    ThreadId,
    id_type,
    is_utf8,
    kept_as_stored,
    printable_id,
)
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

__all__ = ["decode_rows", "read_checkpoints", "read_thread"]


def read_checkpoints(
    store: Store,
    thread_ids: Sequence[ThreadId],
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
    rows = raw_checkpoints(store, thread_ids, latest=latest, writes=writes)
    yield from decode_rows(store, rows, share=share)


def read_thread(store: Store, thread_id: ThreadId) -> list[CheckpointTuple | Unreadable]:
    """One thread's root checkpoints with their pending writes, newest first
    (`Backend.thread_rows`, decoded)."""
    return list(decode_rows(store, store.thread_rows(thread_id)))


def decode_rows(
    store: Store, rows: Iterator[RawCheckpoint], *, share: bool = False
) -> Iterator[CheckpointTuple | Unreadable]:
    """`rows` (a database's, one thread's newest first, or many threads') decoded as the
    saver would; `rows` is closed when this ends or is closed."""
    shared = SharedValues() if share else None  # used when the serde is a strict one
    if store.whole_checkpoints:
        yield from _sqlite(rows, store.saver.serde, store.max_value_bytes, shared)
    else:
        yield from _postgres_rows(rows, store.saver.serde, store.max_value_bytes, shared)


def _tuple(row: RawCheckpoint, checkpoint: Any, metadata: Any, writes: Any) -> CheckpointTuple:
    def config(checkpoint_id: str) -> RunnableConfig:
        ids = {"thread_id": row.thread_id, "checkpoint_ns": row.checkpoint_ns,
               "checkpoint_id": checkpoint_id}  # fmt: skip
        return {"configurable": ids}

    parent = config(row.parent_id) if row.parent_id else None
    return CheckpointTuple(config(row.checkpoint_id), checkpoint, metadata, parent, writes)


def _writes(
    serde: Any, writes: tuple[RawWrite, ...] | None, limit: int
) -> list[tuple[str, str, Any]] | None:
    """A checkpoint's pending writes decoded, in LangGraph's order (None: not read)."""
    if writes is None:
        return None
    found = []
    for task_id, channel, (type_, blob, size), _ in writes:
        try:
            what = f"the write of {channel}"
            value = decode_value(serde, type_, blob, size, limit, what)
        except RowProblem as problem:
            value = UnreadValue(problem.code, problem.message)
        found.append((task_id, channel, value))
    return found


def _sqlite(
    rows: Iterator[RawCheckpoint], serde: Any, limit: int, shared: SharedValues | None
) -> Iterator[CheckpointTuple | Unreadable]:
    with closing(rows) if isinstance(rows, Generator) else nullcontext():
        for row in rows:
            if shared is not None:
                shared.next_row()
            metadata: Any = None
            type_, blob, size = row.payload
            meta, meta_size = row.metadata
            try:
                metadata = decode_metadata(meta, meta_size, limit)
                if not isinstance(row.thread_id, str) or not is_utf8(row.thread_id):
                    # a crafted file's BLOB, number or TEXT that is not UTF-8
                    raise _not_text(row.thread_id)
                value = decode_value(serde, type_, blob, size, limit, "the checkpoint", shared)
                checkpoint = check_checkpoint(value)
            except RowProblem as problem:
                yield Unreadable(kept_as_stored(row.thread_id), row.checkpoint_id,
                                 step_of(metadata), problem.code, problem.message)  # fmt: skip
                continue
            yield _tuple(row, checkpoint, metadata, _writes(serde, row.writes, limit))


def _decode(
    serde: Any, blob: tuple[bytes, ...], limit: int, shared: SharedValues | None
) -> tuple[Any, bool]:
    """A blob's value, and whether it may be shared: the serde counted no refusal in it."""
    channel, _, type_, value, size = blob
    before = getattr(serde, "refusals", 0)
    what = f"channel {channel.decode(errors='replace')}"
    decoded = decode_value(serde, type_, value, int(size or 0), limit, what, shared)
    return decoded, getattr(serde, "refusals", 0) == before


def _postgres_rows(
    rows: Iterator[RawCheckpoint], serde: Any, limit: int, shared: SharedValues | None
) -> Iterator[CheckpointTuple | Unreadable]:
    """The tuples of Postgres' rows; `rows` is closed (its fetcher stopped) when this ends
    or is closed."""
    # Postgres keeps each channel version once: a blob the previous (newer) checkpoint of
    # the thread also held is not decoded again; its value is shared, to be read only
    previous: dict[tuple[ThreadId, bytes, bytes], Any] = {}
    with closing(rows) if isinstance(rows, Generator) else nullcontext():
        for row in rows:
            thread = row.thread_id
            text, size, blobs = row.payload
            meta, meta_size = row.metadata
            if shared is not None:
                shared.next_row()
            metadata: Any = None
            try:
                metadata = decode_metadata(meta, meta_size, limit)
                checkpoint = decode_json_checkpoint(text, size, limit)
                # as PostgresSaver._load_blobs: inline values, then each channel's blob
                # decoded; its migration of pending sends (checkpoints before v4) only fills
                # LangGraph's own `TASKS` channel (core.lg_compat), which is not in the state
                decoded: dict[tuple[ThreadId, bytes, bytes], tuple[Any, bool]] = {}
                for blob in blobs or ():
                    if blob[2] != b"empty":
                        key = (thread, blob[0], blob[1])
                        decoded[key] = (
                            (previous[key], True)
                            if key in previous
                            else _decode(serde, blob, limit, shared)
                        )
            except RowProblem as problem:
                yield Unreadable(kept_as_stored(thread), row.checkpoint_id, step_of(metadata),
                                 problem.code, problem.message)  # fmt: skip
                continue
            # a value with a refusal is decoded again each time, so each state counts it
            previous = {key: value for key, (value, whole) in decoded.items() if whole}
            values = {channel.decode(): value for (_, channel, _), (value, _) in decoded.items()}
            checkpoint = {
                **checkpoint,
                "channel_values": {**(checkpoint.get("channel_values") or {}), **values},
            }
            yield _tuple(row, checkpoint, metadata, _writes(serde, row.writes, limit))


def _not_text(thread_id: ThreadId) -> RowProblem:
    """Why a checkpoint of a thread whose id is not text is not read: LangGraph's saver
    looks a thread up by its id as text, which never equals a BLOB or a number in SQLite.

    Example:
        >>> print(_not_text(b"t").message.split(":")[0])
        the thread id is stored as a BLOB, not text (printed here as b't')
    """
    stored = (
        "as TEXT that is not valid UTF-8"
        if isinstance(thread_id, str)
        else f"as {'an' if isinstance(thread_id, int) else 'a'} {id_type(thread_id)}, not text"
    )
    return RowProblem(
        ErrorCode.THREAD_ID_NOT_TEXT,
        f"the thread id is stored {stored} (printed here as {printable_id(thread_id)}): "
        "LangGraph's saver looks a thread up by its id as text and never finds this one, so "
        "no application reads or resumes it, and its states are not checked here. Give it a "
        "text id in the checkpoints and writes tables if it should be read.",
    )
