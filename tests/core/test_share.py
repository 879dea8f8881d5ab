"""core.share: round trip, and every malformed, oversized or tampered token is a ShareError."""

import base64
import random
import zlib

import pytest

from core.share import MAX_SHARE_JSON_BYTES, PREFIX, ShareError, decode_share, encode_share

STATE = {
    "page": "validate",
    "payload": '{"amount": -1, "s": "下单 <b>"}',
    "options": {"strict": True},
}


def _token(raw: bytes, *, after: bytes = b"") -> str:
    packed = zlib.compress(raw) + after
    return PREFIX + base64.urlsafe_b64encode(packed).rstrip(b"=").decode()


def test_state_round_trips_through_a_compact_url_safe_token():
    token = encode_share(STATE)
    assert decode_share(token) == STATE
    assert token.startswith("v1.") and set(token[3:]) <= set(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    )


# What to do about a link that cannot be opened, as each refusal ends.
AGAIN = "Copy the whole link again, or ask for a new one (Share link on the page it shows)."
NOT_OURS = "Ask for a link made with this app's Share link button."
NOT_A_LINK = f"This link is not a playground share link (no v1. prefix). {NOT_OURS}"
NOT_STATE = f"This share link does not hold valid state. {AGAIN}"


@pytest.mark.parametrize(
    ("token", "code", "message"),
    [
        ("", "share_version", NOT_A_LINK),
        ("v2.abc", "share_version", NOT_A_LINK),
        (
            "v1.!!!",
            "share_encoding",
            f"This share link is damaged: it holds characters no share link has. {AGAIN}",
        ),
        ("v1.AAAA", "share_corrupt", f"This share link is damaged or truncated. {AGAIN}"),
        (
            _token(b'{"page": "validate"}')[:-6],
            "share_corrupt",
            f"This share link is truncated. {AGAIN}",
        ),
        (_token(b"[1, 2]"), "share_corrupt", NOT_STATE),
        (_token(b"\xff\xfe"), "share_corrupt", NOT_STATE),
        (
            _token(b'{"page": "validate"}', after=b"TRAILING"),
            "share_corrupt",
            f"This share link has extra data after its state. {AGAIN}",
        ),
        (
            "v1." + "A" * 70_000,
            "share_too_large",
            f"This share link is too long to be one of ours. {NOT_OURS}",
        ),
    ],
    ids=[
        "empty",
        "other-version",
        "bad-chars",
        "not-zlib",
        "truncated",
        "not-an-object",
        "not-utf8",
        "bytes-after-the-state",
        "too-long",
    ],
)
def test_malformed_tokens_are_rejected_with_a_code_and_what_to_do(token, code, message):
    with pytest.raises(ShareError) as caught:
        decode_share(token)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_a_tampered_token_fails_the_checksum():
    token = encode_share(STATE)
    middle = len(token) // 2
    flipped = token[:middle] + ("A" if token[middle] != "A" else "B") + token[middle + 1 :]
    with pytest.raises(ShareError) as caught:
        decode_share(flipped)
    assert caught.value.code in {"share_corrupt", "share_encoding"}


def test_a_zlib_bomb_is_refused_without_expanding_it():
    bomb = _token(b'{"p": "' + b"0" * (4 * MAX_SHARE_JSON_BYTES) + b'"}')
    assert len(bomb) < 64_000
    with pytest.raises(ShareError) as caught:
        decode_share(bomb)
    assert caught.value.code == "share_too_large"


def test_state_too_big_for_a_url_is_refused_when_encoding():
    with pytest.raises(ShareError) as caught:
        encode_share({"payload": random.Random(0).randbytes(60_000).hex()})
    assert caught.value.code == "share_too_large"


@pytest.mark.parametrize(
    "raw",
    [
        b'{"x": 1' + b"1" * 5000 + b"}",
        b'{"x": NaN}',
        b'{"x": -Infinity}',
        b"[" * 5000 + b"]" * 5000,
    ],
    ids=["5000-digit-int", "nan", "infinity", "deep"],
)
def test_tokens_that_json_loads_chokes_on_are_share_errors(raw):
    with pytest.raises(ShareError) as caught:
        decode_share(_token(raw))
    assert caught.value.code == "share_corrupt"


def test_a_lone_surrogate_in_the_state_is_a_share_error_when_encoding():
    with pytest.raises(ShareError) as caught:
        encode_share({"payload": "\ud800"})
    assert caught.value.code == "share_encoding"


@pytest.mark.parametrize(
    "raw",
    [
        rb'{"page": "validate", "payload": "{\"a\": \"\ud800\"}"}',
        rb'{"page": "trace", "fork": {"row": 1, "state": "\udfff"}}',
        rb'{"page": "tools", "deep": [[{"\ud800": 1}]]}',
    ],
)
def test_a_token_holding_a_lone_surrogate_anywhere_is_refused_when_decoding(raw):
    # json.loads turns the \ud800 escape into a lone surrogate, which no page can show.
    with pytest.raises(ShareError) as caught:
        decode_share(_token(raw))
    assert (caught.value.code, caught.value.message) == (
        "share_encoding",
        "This share link holds a lone surrogate character, which no link made here holds. "
        "Ask for a link made with this app's Share link button.",
    )


def test_a_state_too_big_for_a_link_says_what_to_do_instead():
    with pytest.raises(ShareError) as caught:
        encode_share({"page": "validate", "payload": random.Random(0).randbytes(60_000).hex()})
    assert (caught.value.code, caught.value.message) == (
        "share_too_large",
        "What is on this page makes a link 91,919 characters long (the limit is 64,000): "
        "shorten the payload, the script or the forked state, or share the text instead.",
    )
