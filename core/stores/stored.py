"""The old path `core.stores.stored`: the names of `core.stores.threads.stored`."""

from __future__ import annotations

from core.stores.threads.stored import (
    TOO_DEEP,
    StoredState,
    server_states,
    store_states,
)

__all__ = [
    "StoredState",
    "TOO_DEEP",
    "server_states",
    "store_states",
]
