"""The old path `core.stores.spec`: the names of `core.stores.backends.spec`."""

from __future__ import annotations

from core.stores.backends.spec import (
    StoreSpec,
    mask_secrets,
    parse_store_spec,
    store_label,
)

__all__ = [
    "StoreSpec",
    "mask_secrets",
    "parse_store_spec",
    "store_label",
]
