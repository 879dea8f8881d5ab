"""The old path `core.stores.timeline`: the names of `core.stores.threads.timeline`."""

from __future__ import annotations

from core.stores.threads.timeline import (
    Checkpoint,
    StoredWrite,
    Timeline,
    blamed_of,
    changed_fields,
    langgraph_get_state,
    lineage,
    thread_timeline,
)

__all__ = [
    "Checkpoint",
    "StoredWrite",
    "Timeline",
    "blamed_of",
    "changed_fields",
    "langgraph_get_state",
    "lineage",
    "thread_timeline",
]
