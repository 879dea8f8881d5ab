"""The old path `core.stores.server_unbrick`: the names of `core.stores.write.server_unbrick`."""

from __future__ import annotations

from core.stores.write.server_unbrick import (
    OVERWRITE,
    write_unbrick_server,
)

__all__ = [
    "OVERWRITE",
    "write_unbrick_server",
]
