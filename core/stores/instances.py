"""The old path `core.stores.instances`: the names of `core.stores.decode.instances`."""

from __future__ import annotations

from core.stores.decode.instances import (
    plain_data,
    plain_fields,
)

__all__ = [
    "plain_data",
    "plain_fields",
]
