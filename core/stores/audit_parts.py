"""The old path `core.stores.audit_parts`: the names of `core.stores.audit.audit_parts`."""

from __future__ import annotations

from core.stores.audit.audit_parts import (
    AuditPart,
    AuditPartError,
    merge_parts,
    read_part,
)

__all__ = [
    "AuditPart",
    "AuditPartError",
    "merge_parts",
    "read_part",
]
