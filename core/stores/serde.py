"""The old path `core.stores.serde`: the names of `core.stores.decode.serde`."""

from __future__ import annotations

from core.stores.decode.serde import (
    AES_KEY_ENV,
    EncryptionRefused,
    Refused,
    SharedValues,
    StrictSerializer,
    find_refused,
    strict_serde,
)

__all__ = [
    "AES_KEY_ENV",
    "EncryptionRefused",
    "Refused",
    "SharedValues",
    "StrictSerializer",
    "find_refused",
    "strict_serde",
]
