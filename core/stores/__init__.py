"""Checkpoint stores (SQLite, Postgres, a LangGraph server), each behind one protocol
(`Backend`): opened read-only, deserialized strictly, listed, audited, unbricked. Layered:
`backends` <- `decode` <- `threads` <- `audit` and `write` (docs/architecture.md)."""

from core.stores.audit.audit import AuditResult, InvalidState, audit_store, shard_of
from core.stores.backends.open import STORE_ENV, Store, open_store, store_label
from core.stores.backends.protocol import Backend
from core.stores.decode.serde import Refused, StrictSerializer, strict_serde
from core.stores.errors import StoreCode, StoreError

__all__ = [
    "STORE_ENV",
    "AuditResult",
    "Backend",
    "InvalidState",
    "Refused",
    "Store",
    "StoreCode",
    "StoreError",
    "StrictSerializer",
    "audit_store",
    "open_store",
    "shard_of",
    "store_label",
    "strict_serde",
]
