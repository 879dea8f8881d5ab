"""The old path `core.stores.rows`: the names of `core.stores.decode.rows`."""

from __future__ import annotations

from core.stores.decode.rows import (
    RowProblem,
    Unreadable,
    UnreadValue,
    check_checkpoint,
    decode_json_checkpoint,
    decode_metadata,
    decode_value,
    encrypted_store,
    megabytes,
    step_of,
)

__all__ = [
    "RowProblem",
    "UnreadValue",
    "Unreadable",
    "check_checkpoint",
    "decode_json_checkpoint",
    "decode_metadata",
    "decode_value",
    "encrypted_store",
    "megabytes",
    "step_of",
]
