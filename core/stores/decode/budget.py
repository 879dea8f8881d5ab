"""What a stored value would take once decoded, estimated from its bytes before it is decoded.

A stored value is bounded in bytes (`MAX_VALUE_BYTES`), but not what a decoder builds from
them: a msgpack array of millions of empty maps is one byte per map on disk and a Python
dict each in memory. So every msgpack or JSON value is decoded within a budget of
`BUDGET_PER_LIMIT` times the per-value limit (`LEAST_BUDGET` at least), checked first on
what its bytes declare:
every container and scalar counts `OBJECT_BYTES`, every string or bytes value its length
on top. Every object takes at least one byte, so a value of at most budget / 64 bytes can
never exceed it and is not looked at (the common case costs a length test).

msgpack is walked in pure Python (with an early exit, and runs of one-byte objects skipped
by a regex in C). bench/decode.py measured it against decoding first in a child process
with a memory cap: the walk refuses each flat bomb at its first header (the child takes
0.1 s to start and fill its cap) and reads at most budget / 64 objects of any other value,
and the child's interpreter and cap come on top of the server's memory. A container's
declared members are counted at its header, before they are read, and LangGraph's extension
values (messages, models: msgpack inside msgpack) are walked inside. JSON is estimated in
C: strings cut out with a regex, then brackets, commas and colons counted.
"""

from __future__ import annotations

import re

from core.jsontext.scan import STRING_BODY
from core.stores.backends.store import MAX_VALUE_BYTES
from core.words import count

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

OBJECT_BYTES = 64  # about a small Python object and the slot that holds it
BUDGET_PER_LIMIT = 4  # a value at the limit may take this many times its bytes, decoded
# A value of up to 16 KB cannot declare more (every object takes a byte), so under a tiny
# --max-value-mb the values small enough to read are still read whole
LEAST_BUDGET = 1024 * 1024


def decode_budget(limit: int) -> int:
    """The decoded-size budget of a store whose stored values may be `limit` bytes:
    `BUDGET_PER_LIMIT` times that, and `LEAST_BUDGET` at least.

    Example:
        >>> decode_budget(16 * 1024 * 1024) // (1024 * 1024), decode_budget(64)
        (64, 1048576)
    """
    return max(BUDGET_PER_LIMIT * limit, LEAST_BUDGET)


DEFAULT_BUDGET = decode_budget(MAX_VALUE_BYTES)


class OverBudget(Exception):
    """A stored value declares more than `budget` bytes once decoded; it was not decoded."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"the value would take more than {count(budget, 'byte')} once decoded")
        self.budget = budget


def check_decoded_size(type_: str, payload: object, budget: int) -> None:
    """Raise `OverBudget` when a value of serde type `type_` ("msgpack", "json") would take
    more than `budget` bytes once decoded; other types (bytes, null) are their own size.

    Example:
        >>> bomb = b"\\xdd\\x00\\x10\\x00\\x00" + b"\\x80" * 0x100000  # 1M empty maps
        >>> check_decoded_size("msgpack", bomb, 64 * 1024 * 1024)  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        core.stores.decode.budget.OverBudget: the value would take more than 67,108,864 bytes ...
        >>> check_decoded_size("msgpack", bomb, 128 * 1024 * 1024) is None
        True
    """
    if not isinstance(payload, bytes | str) or len(payload) <= budget // OBJECT_BYTES:
        return
    if type_ == "msgpack" and isinstance(payload, bytes):
        estimate = msgpack_decoded_size(payload, stop_over=budget)
    elif type_ == "json":
        estimate = json_decoded_size(payload, stop_over=budget)
    else:
        return
    if estimate > budget:
        raise OverBudget(budget)


# --- msgpack -------------------------------------------------------------------------------
_SCALAR, _STRING, _ARRAY, _MAP, _EXT, _BAD = range(6)
# one-byte objects: fixints, nil, booleans, the empty map, array and string
_ONE_BYTE_RUN = re.compile(rb"[\x00-\x80\x90\xa0\xc0\xc2\xc3\xe0-\xff]+")
_ONE_BYTE = bytes(_ONE_BYTE_RUN.fullmatch(bytes([lead])) is not None for lead in range(256))


def _leads() -> list[tuple[int, int, int]]:
    """Per lead byte: (kind, bytes of its length field, size): for scalars the whole size;
    for the fix- formats (no length field) the length, members or payload size it holds."""
    table = [(_BAD, 0, 0)] * 256
    for lead in range(0x81, 0x90):
        table[lead] = (_MAP, 0, 2 * (lead & 0x0F))  # a key and a value each
    for lead in range(0x91, 0xA0):
        table[lead] = (_ARRAY, 0, lead & 0x0F)
    for lead in range(0xA1, 0xC0):
        table[lead] = (_STRING, 0, lead & 0x1F)
    for lead in range(256):
        if _ONE_BYTE[lead]:
            table[lead] = (_SCALAR, 0, 1)
    for lead, size in zip(range(0xCA, 0xD4), (5, 9, 2, 3, 5, 9, 2, 3, 5, 9), strict=True):
        table[lead] = (_SCALAR, 0, size)  # float32/64, uint8..64, int8..64
    for lead, field in ((0xC4, 1), (0xC5, 2), (0xC6, 4), (0xD9, 1), (0xDA, 2), (0xDB, 4)):
        table[lead] = (_STRING, field, 0)  # bin8..32, str8..32
    for lead, field in ((0xC7, 1), (0xC8, 2), (0xC9, 4)):
        table[lead] = (_EXT, field, 0)
    for lead, size in zip(range(0xD4, 0xD9), (1, 2, 4, 8, 16), strict=True):
        table[lead] = (_EXT, 0, size)  # fixext1..16
    table[0xDC], table[0xDD] = (_ARRAY, 2, 0), (_ARRAY, 4, 0)
    table[0xDE], table[0xDF] = (_MAP, 2, 0), (_MAP, 4, 0)
    return table


_LEADS = _leads()


def msgpack_decoded_size(payload: bytes, stop_over: int | None = None) -> int:
    """The estimate of what `payload` (one msgpack value) takes once decoded, counted as it
    is walked; with `stop_over`, the count so far as soon as it passes that.

    An extension value's payload (a message, a model) is walked as msgpack. Malformed bytes
    end the count where the decoder stops: at the top level it raises there, having built
    what came before (a container cut short is counted for the members its bytes can hold);
    in an extension value LangGraph's hook gives that payload up, and the walk goes on
    after it.

    Example:
        >>> import ormsgpack
        >>> line = ormsgpack.packb({"sku": "ABC-1", "qty": [1, 2]})
        >>> msgpack_decoded_size(line)  # 7 values, 11 characters
        459
    """
    cap = float("inf") if stop_over is None else stop_over
    data, pos, end, left, region = payload, 0, len(payload), 1, 0
    total = OBJECT_BYTES  # the value itself; each member is counted at its container
    stack: list[int] = []  # per open container or payload: its parent's (left, region), end
    leads, one_byte, run = _LEADS, _ONE_BYTE, _ONE_BYTE_RUN.match  # the loop's hot names
    while True:
        if left == 0:
            if not stack:
                return total
            if region:
                pos = end  # past the payload, however much of it was read
            end, saved = stack.pop(), stack.pop()
            left, region = saved >> 1, saved & 1
            continue
        kind, field, size = leads[data[pos]] if pos < end else (_BAD, 0, 0)
        if kind == _SCALAR:  # counted at its container; past the end: caught at the next
            if size == 1 and left > 1 and pos + 1 < end and one_byte[data[pos + 1]]:
                size = run(data, pos, min(end, pos + left)).end() - pos  # type: ignore[union-attr]
                left -= size
            else:
                left -= 1
            pos += size
            continue
        start = pos + 1 + field
        if field:
            size = int.from_bytes(data[pos + 1 : start], "big") * (2 if kind == _MAP else 1)
        if kind == _STRING and start + size <= end:
            pos, left, total = start + size, left - 1, total + size
        elif (kind == _ARRAY or kind == _MAP) and start <= end:
            stack.append((left - 1) << 1 | region)
            stack.append(end)
            # counted before they are read; of more than the bytes hold, the decoder builds
            # those they hold (a byte each at least) before it fails
            total += OBJECT_BYTES * min(size, end - start)
            pos, left, region = start, size, 0
        elif kind == _EXT and start + 1 + size <= end:
            # LangGraph's hook unpacks each of its codes' payload (0-7) as msgpack; any code
            # is walked so, as no other one is read (a payload that is not msgpack is given up)
            stack.append((left - 1) << 1 | region)
            stack.append(end)
            total += OBJECT_BYTES  # the payload's own value
            pos, left, end, region = start + 1, 1, start + 1 + size, 1
        else:  # malformed (or cut short): the decoder stops here
            while not region:
                if not stack:
                    return total
                end, saved = stack.pop(), stack.pop()
                left, region = saved >> 1, saved & 1
            left = 0  # the payload is given up: the walk goes on after it
        if total > cap:
            return total


# --- JSON ----------------------------------------------------------------------------------
_JSON_STRING = re.compile(f'"{STRING_BODY}"'.encode(), re.S)
_JSON_SPACE = b" \t\n\r"


def json_decoded_size(text: str | bytes, stop_over: int | None = None) -> int:
    """The estimate of what JSON `text` takes once decoded, counted in C: each string's
    characters (as written), and `OBJECT_BYTES` for each value and member name, told by
    the brackets, commas and colons outside the strings. With `stop_over`, a lower bound
    once that passes it: each unescaped pair of quotes is a string at least.

    Example:
        >>> json_decoded_size('{"sku": "ABC-1", "qty": [1, 2]}')  # 7 values, 11 characters
        459
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    # cutting the strings out costs a regex match each: many strings are refused first
    strings = (data.count(b'"') - data.count(b'\\"')) // 2
    if stop_over is not None and OBJECT_BYTES * strings > stop_over:
        return OBJECT_BYTES * strings
    bare = _JSON_STRING.sub(b'""', data) if strings else data
    inside = len(data) - len(bare)
    bare = bare.translate(None, _JSON_SPACE)
    containers = bare.count(b"[") + bare.count(b"{")
    empty = bare.count(b"[]") + bare.count(b"{}")
    # every array item and member value follows "[", "{" or ","; each member name a ":"
    values = 1 + containers - empty + bare.count(b",") + bare.count(b":")
    return OBJECT_BYTES * values + inside
