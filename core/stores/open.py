"""The old path `core.stores.open`: the names of `core.stores.backends.open`."""

from __future__ import annotations

from core.stores.backends.open import (
    MAX_VALUE_BYTES,
    QUERY_SECONDS,
    QUICK_CHECK_BYTES,
    STORE_ENV,
    Store,
    open_store,
    store_label,
)

__all__ = [
    "MAX_VALUE_BYTES",
    "QUERY_SECONDS",
    "QUICK_CHECK_BYTES",
    "STORE_ENV",
    "Store",
    "open_store",
    "store_label",
]
