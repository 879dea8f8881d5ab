"""The old path `core.stores.server_timeline`: names of `core.stores.threads.server_timeline`."""

from __future__ import annotations

from core.stores.threads.server_timeline import (
    server_get_state,
    server_timeline,
)

__all__ = [
    "server_get_state",
    "server_timeline",
]
