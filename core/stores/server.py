"""The old path `core.stores.server`: the names of `core.stores.backends.server`."""

from __future__ import annotations

from core.stores.backends.server import (
    API_KEY_ENVS,
    PAGE_LIMIT,
    RemoteStore,
    ServerRefusal,
    open_server,
)

__all__ = [
    "API_KEY_ENVS",
    "PAGE_LIMIT",
    "RemoteStore",
    "ServerRefusal",
    "open_server",
]
