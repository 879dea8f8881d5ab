"""The old path `core.stores.merge_cli`: the names of `core.stores.audit.merge_cli`."""

from __future__ import annotations

from core.stores.audit.merge_cli import (
    add_merge_parser,
    run_merge,
)

__all__ = [
    "add_merge_parser",
    "run_merge",
]
