"""Public path `core.payload`: the payload error and limits (they live in core.jsontext)."""

from __future__ import annotations

from core.jsontext.payload import (
    MAX_DEPTH,
    MAX_NUMBER_DIGITS,
    MAX_PAYLOAD_BYTES,
    PayloadError,
    check_depth,
    check_limits,
    check_shape,
    json_writable,
    line_col,
    parse,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER_DIGITS",
    "MAX_PAYLOAD_BYTES",
    "PayloadError",
    "check_depth",
    "check_limits",
    "check_shape",
    "json_writable",
    "line_col",
    "parse",
]
