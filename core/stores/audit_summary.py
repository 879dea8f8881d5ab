"""The old path `core.stores.audit_summary`: the names of `core.stores.audit.audit_summary`."""

from __future__ import annotations

from core.stores.audit.audit_summary import (
    audit_slice,
    error_counts,
    invalid_rows,
    merge_audits,
    to_csv,
    unreadable_rows,
)

__all__ = [
    "audit_slice",
    "error_counts",
    "invalid_rows",
    "merge_audits",
    "to_csv",
    "unreadable_rows",
]
