"""One stored checkpoint as its store gives it, before anything is decoded: what
`Backend.thread_rows` and `Backend.checkpoint_row` return, on a database and a server alike.

Where a checkpoint sits (thread, namespace, id, parent) is the same on every store; what it
holds is not: a database gives bytes our serde decodes above `backends/`
(`core.stores.threads.pages`), a server gives JSON it already validated. So `metadata`,
`payload` and each write's `value` are kept as given, and `values_are_json` says which.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.stores.backends.thread_ids import ThreadId

__all__ = ["RawCheckpoint", "RawWrite"]


class RawWrite(NamedTuple):
    """One pending write stored on a checkpoint (a task's write, applied to make its child).

    `value`: a database's `(type, bytes or None when over the store's limit, size)`; a
    server's JSON value. `node`: the task's node where the store says it (a server's task
    name), else None (a database keeps the task's path, read by `Store.task_writes`)."""

    task_id: str
    channel: str
    value: Any
    node: str | None = None


class RawCheckpoint(NamedTuple):
    """One root checkpoint as stored.

    `metadata`: a database's `(JSON text or bytes, or None over the limit, size)`; a
    server's dict. `payload`: SQLite's `(type, bytes or None, size)` (the whole checkpoint,
    every channel in it); Postgres' `(checkpoint JSON text or None, size, blobs)`, a blob
    `[channel, version, type, bytes or None, size]` per channel; a server's whole thread
    state dict (values, next, tasks, created_at, ...). `writes`: its pending writes in
    LangGraph's order, or None when they were not read."""

    thread_id: ThreadId  # as stored (a crafted SQLite file's may be a BLOB or a number)
    checkpoint_ns: str
    checkpoint_id: str
    parent_id: str | None
    metadata: Any
    payload: Any
    writes: tuple[RawWrite, ...] | None
