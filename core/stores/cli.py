"""The old path `core.stores.cli`: the names of `core.stores.audit.cli`."""

from __future__ import annotations

from core.stores.audit.cli import (
    EXIT_INVALID,
    EXIT_OK,
    EXIT_UNREADABLE,
    add_audit_parser,
    parse_shard,
    print_audit,
    run_audit,
)

__all__ = [
    "EXIT_INVALID",
    "EXIT_OK",
    "EXIT_UNREADABLE",
    "add_audit_parser",
    "parse_shard",
    "print_audit",
    "run_audit",
]
