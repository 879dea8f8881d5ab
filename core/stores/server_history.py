"""The old path `core.stores.server_history`: the names of `core.stores.threads.server_history`."""

from __future__ import annotations

from core.stores.threads.server_history import (
    blamed_node,
    checkpoint_id_at,
    history,
    readable_history,
    server_written_by,
    source_of,
    state_errors_of,
    step_at,
    when,
    writes_of,
)

__all__ = [
    "blamed_node",
    "checkpoint_id_at",
    "history",
    "readable_history",
    "server_written_by",
    "source_of",
    "state_errors_of",
    "step_at",
    "when",
    "writes_of",
]
