"""The old path `core.stores.budget`: the names of `core.stores.decode.budget`."""

from __future__ import annotations

from core.stores.decode.budget import (
    BUDGET_PER_LIMIT,
    DEFAULT_BUDGET,
    LEAST_BUDGET,
    OBJECT_BYTES,
    OverBudget,
    check_decoded_size,
    decode_budget,
    json_decoded_size,
    msgpack_decoded_size,
)

__all__ = [
    "BUDGET_PER_LIMIT",
    "DEFAULT_BUDGET",
    "LEAST_BUDGET",
    "OBJECT_BYTES",
    "OverBudget",
    "check_decoded_size",
    "decode_budget",
    "json_decoded_size",
    "msgpack_decoded_size",
]
