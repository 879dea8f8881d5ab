"""The old path `core.stores.postgres`: the names of `core.stores.backends.postgres`."""

from __future__ import annotations

from core.stores.backends.postgres import (
    STORE_ENV,
    open_postgres,
)

__all__ = [
    "STORE_ENV",
    "open_postgres",
]
