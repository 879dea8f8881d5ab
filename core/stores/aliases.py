"""The old path `core.stores.aliases`: the names of `core.stores.decode.aliases`."""

from __future__ import annotations

from core.stores.decode.aliases import (
    module_aliases,
    needles,
    rewrite_modules,
    server_module_names,
)

__all__ = [
    "module_aliases",
    "needles",
    "rewrite_modules",
    "server_module_names",
]
