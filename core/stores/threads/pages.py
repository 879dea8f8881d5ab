"""The root checkpoints of a page of threads in one streamed query on the saver's own tables
(`core.stores.backends.page_rows`), decoded as the saver would."""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple

from core.stores.backends.open import Store
from core.stores.backends.page_rows import checkpoint_rows, write_rows
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
    limit, found = store.max_value_bytes, _Writes()
    for thread, checkpoint_id, task_id, channel, type_, blob, size in write_rows(store, thread_ids):
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
    limit, serde = store.max_value_bytes, store.saver.serde
    shared = SharedValues() if share else None  # used when the serde is a strict one
    with closing(checkpoint_rows(store, thread_ids, latest)) as rows:
        for thread, ns, checkpoint_id, parent, type_, blob, size, meta, meta_size in rows:
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
    serde, limit = store.saver.serde, store.max_value_bytes
    shared = SharedValues() if share else None  # used when the serde is a strict one
    rows = checkpoint_rows(store, thread_ids, latest)
    yield from _postgres_rows(rows, serde, limit, writes, shared)


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
