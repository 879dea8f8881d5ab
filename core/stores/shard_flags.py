"""The old path `core.stores.shard_flags`: the names of `core.stores.audit.shard_flags`."""

from __future__ import annotations

from core.stores.audit.shard_flags import (
    JOB_INDEX_ENV,
    ShardFlagError,
    parse_shard,
    parse_shards,
    resolve_shard,
)

__all__ = [
    "JOB_INDEX_ENV",
    "ShardFlagError",
    "parse_shard",
    "parse_shards",
    "resolve_shard",
]
