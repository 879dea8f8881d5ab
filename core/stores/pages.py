"""The old path `core.stores.pages`: the names of `core.stores.threads.pages`."""

from __future__ import annotations

from core.stores.threads.pages import (
    read_checkpoints,
    read_thread,
)

__all__ = [
    "read_checkpoints",
    "read_thread",
]
