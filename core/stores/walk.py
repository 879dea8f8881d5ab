"""The old path `core.stores.walk`: the names of `core.stores.threads.walk`."""

from __future__ import annotations

from core.stores.threads.walk import (
    THREADS_PER_QUERY,
    ThreadsPage,
    Walked,
    iter_thread_ids,
    walk_store,
)

__all__ = [
    "THREADS_PER_QUERY",
    "ThreadsPage",
    "Walked",
    "iter_thread_ids",
    "walk_store",
]
