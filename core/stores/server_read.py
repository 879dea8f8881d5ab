"""A LangGraph server's threads read as the Threads page and the audit read a store's rows:
re-exported from where each lives now (the audit in `core.stores.audit.server_audit`, the
list in `core.stores.threads.server_list`, the history in `core.stores.threads.server_history`,
the search pages in `core.stores.backends.server`), so the old import path keeps working."""

from __future__ import annotations

from core.stores.audit.server_audit import audit_server
from core.stores.backends.server import shard_threads
from core.stores.threads.server_history import (
    blamed_node,
    checkpoint_id_at,
    history,
    readable_history,
    source_of,
    state_errors_of,
    step_at,
    when,
    writes_of,
)
from core.stores.threads.server_list import list_server_threads

__all__ = [
    "audit_server",
    "blamed_node",
    "checkpoint_id_at",
    "history",
    "list_server_threads",
    "readable_history",
    "shard_threads",
    "source_of",
    "state_errors_of",
    "step_at",
    "when",
    "writes_of",
]
