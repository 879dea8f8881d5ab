"""Public path `core.payload`: the payload error and limits (they live in core.jsontext)."""

from __future__ import annotations

from core.jsontext.payload import MAX_DEPTH, MAX_PAYLOAD_BYTES, PayloadError

__all__ = ["MAX_DEPTH", "MAX_PAYLOAD_BYTES", "PayloadError"]
