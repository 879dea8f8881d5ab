"""Which shard a thread is in: one hash of its id, computed alike in Python and in SQL."""

from __future__ import annotations

from typing import Literal

__all__ = ["SHARD_WEIGHTS", "Shard", "shard_condition", "shard_hash", "shard_of"]

# Shard i of N as (i, N): (0, 1) is the whole store.
Shard = tuple[int, int]

# The hash: the id's length plus the code points of its last eight characters, each times
# its own prime (the last character times 31, the one before it times 37, ...); a missing
# character (an id shorter than eight) counts 0. Then modulo the number of shards.
#
# It is plain arithmetic so that SQLite, which has no hash function, computes it in the
# WHERE clause: each worker reads only its own ids. Primes, not powers of one base: a
# base like 31 is -1 modulo 2, 4, 8, 16..., which left sequential ids ("thread-00001"...)
# 10% uneven over 16 shards; with distinct primes they stay within 1% over 2 to 16.
# The largest sum (8 code points of at most 0x10FFFF times at most 61, plus a length) stays
# below 2**31, so Postgres computes it in plain integers.
SHARD_WEIGHTS = (31, 37, 41, 43, 47, 53, 59, 61)

# The code point of one character: SQLite's unicode() and Postgres's ascii() (the code
# point on a UTF-8 database, Postgres's default encoding) agree for every character.
_CODE_POINT = {"sqlite": "unicode", "postgres": "ascii"}
# The modulo operator: on Postgres written `%%`, as the driver reads a lone `%` as a
# placeholder's start.
_MODULO = {"sqlite": "%", "postgres": "%%"}


def shard_hash(thread_id: str) -> int:
    """The hash behind `shard_of`, before the modulo: what `shard_condition` computes in SQL.

    SQLite's `length()` and `substr()` see a text value only up to its first NUL character
    (a Postgres text cannot hold one): so does this.

    Example:
        >>> shard_hash(""), shard_hash("ab") == 2 + 31 * ord("b") + 37 * ord("a")
        (0, True)
    """
    text = thread_id.partition("\0")[0]
    return len(text) + sum(
        weight * ord(char) for weight, char in zip(SHARD_WEIGHTS, reversed(text), strict=False)
    )


def shard_of(thread_id: str, shards: int) -> int:
    """The shard (0 to shards - 1) a thread is in: the same in every process, on every
    machine, and the one `shard_condition` selects it in on SQLite and Postgres.

    Example:
        >>> shard_of("thread-1", 4), shard_of("", 4), shard_of("thread-1", 1)
        (0, 0, 0)
    """
    return shard_hash(thread_id) % shards


def shard_condition(kind: Literal["sqlite", "postgres"], column: str = "thread_id") -> str:
    """A WHERE condition true for the rows of one shard, in `kind`'s SQL; its two `?` are N,
    then i.

    Example:
        >>> import sqlite3
        >>> sql = f"SELECT x FROM (SELECT ? AS x) WHERE {shard_condition('sqlite', 'x')}"
        >>> db = sqlite3.connect(":memory:")
        >>> [db.execute(sql, ("thread-1", 4, i)).fetchall() for i in range(4)]
        [[('thread-1',)], [], [], []]
    """
    code_point = _CODE_POINT[kind]
    # the j-th character from the end, where there is one (SQLite's substr counts a
    # negative start from the end, Postgres's does not: the guard keeps the two alike); 0
    # where SQLite has no code point for it (a BLOB's zero byte): every id is in one shard
    terms = " + ".join(
        f"{weight} * CASE WHEN length({column}) >= {j} "
        f"THEN coalesce({code_point}(substr({column}, length({column}) - {j - 1}, 1)), 0) "
        "ELSE 0 END"
        for j, weight in enumerate(SHARD_WEIGHTS, start=1)
    )
    return f"(length({column}) + {terms}) {_MODULO[kind]} ? = ?"
