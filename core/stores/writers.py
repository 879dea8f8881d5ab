"""The old path `core.stores.writers`: the names of `core.stores.threads.writers`."""

from __future__ import annotations

from core.stores.threads.writers import (
    Write,
    blame,
    node_of_path,
    parent_writes,
    pending_sends,
    send_index,
    violated_fields,
    written_by,
)

__all__ = [
    "Write",
    "blame",
    "node_of_path",
    "parent_writes",
    "pending_sends",
    "send_index",
    "violated_fields",
    "written_by",
]
