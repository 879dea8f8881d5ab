"""The old path `core.stores.state`: the names of `core.stores.decode.state`."""

from __future__ import annotations

from core.stores.decode.state import (
    INPUT_PREVIEW,
    checkpoint_errors,
    cut_input,
    json_state_errors,
    plain_data,
    state_errors,
    stored_state,
)

__all__ = [
    "INPUT_PREVIEW",
    "checkpoint_errors",
    "cut_input",
    "json_state_errors",
    "plain_data",
    "state_errors",
    "stored_state",
]
