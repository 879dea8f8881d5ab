"""Playground state <-> one compact URL parameter (`v1.` + base64url(zlib(JSON)))."""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from typing import Any

from core.errors import CodedError, ErrorCode
from core.jsontext.write import dumps
from core.words import count

__all__ = [
    "MAX_SHARE_JSON_BYTES",
    "MAX_TOKEN_CHARS",
    "PARAM",
    "ShareError",
    "decode_share",
    "encode_share",
]

PREFIX = "v1."
PARAM = "s"  # the URL query parameter a token travels in: ?s=<token>
MAX_TOKEN_CHARS = 64_000  # browsers and proxies start refusing URLs well before 100 kB
MAX_SHARE_JSON_BYTES = 2_500_000  # a full payload at its size cap, plus options


class ShareError(CodedError, ValueError):
    """A share link that cannot be opened; `code` is stable, the message says what to do."""


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")  # NaN / Infinity never come from encode_share


def encode_share(state: dict[str, Any]) -> str:
    """Encode playground state as a URL-safe token.

    Example:
        >>> decode_share(encode_share({"page": "validate", "payload": "{}"}))
        {'page': 'validate', 'payload': '{}'}
    """
    raw = dumps(state, compact=True, allow_nan=False)
    try:
        packed = zlib.compress(raw.encode("utf-8"), 9)
    except UnicodeEncodeError:
        raise ShareError(
            ErrorCode.SHARE_ENCODING,
            "The state holds a lone surrogate character; remove it to share.",
        ) from None
    token = PREFIX + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")
    if len(token) > MAX_TOKEN_CHARS:
        raise ShareError(
            ErrorCode.SHARE_TOO_LARGE,
            f"What is on this page makes a link {count(len(token), 'character')} long (the "
            f"limit is {MAX_TOKEN_CHARS:,}): shorten the payload, the script or the forked "
            "state, or share the text instead.",
        )
    return token


# What to do about a link that cannot be opened: each refusal ends with one of these.
_AGAIN = "Copy the whole link again, or ask for a new one (Share link on the page it shows)."
_NOT_OURS = "Ask for a link made with this app's Share link button."


def decode_share(token: str) -> dict[str, Any]:
    """Decode a token from `encode_share`; anything else raises `ShareError`.

    Decompression is bounded: a zlib bomb stops at `MAX_SHARE_JSON_BYTES` without
    being expanded further.
    """
    if not isinstance(token, str) or not token.startswith(PREFIX):
        raise ShareError(
            ErrorCode.SHARE_VERSION,
            "This link is not a playground share link (no v1. prefix). " + _NOT_OURS,
        )
    if len(token) > MAX_TOKEN_CHARS:
        raise ShareError(
            ErrorCode.SHARE_TOO_LARGE, "This share link is too long to be one of ours. " + _NOT_OURS
        )
    body = token[len(PREFIX) :]
    try:
        packed = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise ShareError(
            ErrorCode.SHARE_ENCODING,
            "This share link is damaged: it holds characters no share link has. " + _AGAIN,
        ) from None
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(packed, MAX_SHARE_JSON_BYTES + 1)
    except zlib.error:
        raise ShareError(
            ErrorCode.SHARE_CORRUPT, "This share link is damaged or truncated. " + _AGAIN
        ) from None
    if len(raw) > MAX_SHARE_JSON_BYTES or inflater.unconsumed_tail:
        raise ShareError(
            ErrorCode.SHARE_TOO_LARGE, "This share link expands beyond the size limit. " + _NOT_OURS
        )
    if not inflater.eof:
        raise ShareError(ErrorCode.SHARE_CORRUPT, "This share link is truncated. " + _AGAIN)
    if inflater.unused_data:  # bytes after the compressed state: not as we made it
        raise ShareError(
            ErrorCode.SHARE_CORRUPT, "This share link has extra data after its state. " + _AGAIN
        )
    try:
        state = json.loads(raw.decode("utf-8"), parse_constant=_no_constant)
    except (UnicodeDecodeError, ValueError, RecursionError):  # ValueError: digit limit too
        raise ShareError(
            ErrorCode.SHARE_CORRUPT, "This share link does not hold valid state. " + _AGAIN
        ) from None
    if not isinstance(state, dict):
        raise ShareError(
            ErrorCode.SHARE_CORRUPT, "This share link does not hold valid state. " + _AGAIN
        )
    try:  # a \ud800 escape decodes to a lone surrogate, which no browser can be sent
        dumps(state).encode("utf-8")
    except UnicodeEncodeError:
        raise ShareError(
            ErrorCode.SHARE_ENCODING,
            "This share link holds a lone surrogate character, which no link made here holds. "
            + _NOT_OURS,
        ) from None
    return state
