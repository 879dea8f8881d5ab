"""The old path `core.stores.store`: the names of `core.stores.backends.store`."""

from __future__ import annotations

from core.stores.backends.store import (
    MAX_VALUE_BYTES,
    TABLES,
    Store,
    require_tables,
)

__all__ = [
    "MAX_VALUE_BYTES",
    "Store",
    "TABLES",
    "require_tables",
]
