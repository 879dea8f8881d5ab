"""A store's threads: the list (`listing`), one thread's timeline and its writers,
the walk and the streamed pages it reads, the stored states, and a server's history,
list and timeline. Its own names are the old module `core.stores.threads`'s (`listing`)."""

from __future__ import annotations

from core.stores.threads.listing import (
    SCAN_LIMIT,
    ThreadPage,
    ThreadRow,
    ThreadStatus,
    list_threads,
    pending_nodes,
    short_time,
    thread_root,
    written_by,
)

__all__ = [
    "SCAN_LIMIT",
    "ThreadPage",
    "ThreadRow",
    "ThreadStatus",
    "list_threads",
    "pending_nodes",
    "short_time",
    "thread_root",
    "written_by",
]
