"""The audit of any store: `audit_store` on a file or a database, `audit_server` on a server."""

from __future__ import annotations

from pydantic import BaseModel

from core.stores.audit.audit import AuditResult, audit_store
from core.stores.audit.server_audit import audit_server
from core.stores.backends.any_store import AnyStore
from core.stores.backends.shards import Shard
from core.stores.backends.thread_ids import ThreadId

__all__ = ["audit_any"]


def audit_any(
    store: AnyStore,
    model: type[BaseModel],
    *,
    history: bool = False,
    shard: Shard = (0, 1),
    thread: ThreadId | None = None,
) -> AuditResult:
    """The audit (`audit_store` / `audit_server`) of every thread, or of shard `(i, N)`, or
    of `thread` alone (as stored; a server's ids are text: any other is no thread)."""
    if thread is not None and not isinstance(thread, str):  # a server's ids are text
        return store.pick(
            database=lambda db: audit_store(db, model, history=history, shard=shard, thread=thread),
            server=lambda _: AuditResult(),
        )
    return store.pick(
        database=lambda db: audit_store(db, model, history=history, shard=shard, thread=thread),
        server=lambda server: audit_server(
            server,
            model,
            history_too=history,
            shard=shard,
            only=thread,
        ),
    )
