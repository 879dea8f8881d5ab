"""The old path `core.stores.shards`: the names of `core.stores.backends.shards`."""

from __future__ import annotations

from core.stores.backends.shards import (
    SHARD_WEIGHTS,
    Shard,
    shard_condition,
    shard_hash,
    shard_of,
)

__all__ = [
    "SHARD_WEIGHTS",
    "Shard",
    "shard_condition",
    "shard_hash",
    "shard_of",
]
