"""The audit: every checkpoint's state checked (`audit`, `server_audit`), its shards
(`shard_flags`), parts summed (`audit_parts`), slices and exports (`audit_summary`),
and the `audit` / `audit-merge` commands (`cli`, `merge_cli`). Its own names are
the old module `core.stores.audit`'s (`audit`)."""

from __future__ import annotations

from core.stores.audit.audit import (
    AuditResult,
    InvalidState,
    Unreadable,
    audit_store,
    iter_thread_ids,
    shard_of,
    state_errors,
    stored_state,
)

__all__ = [
    "AuditResult",
    "InvalidState",
    "Unreadable",
    "audit_store",
    "iter_thread_ids",
    "shard_of",
    "state_errors",
    "stored_state",
]
