"""A thread id as SQLite may hold it (text, BLOB, integer, real), printed safely and read
back: one printable notation that selects the same thread again."""

from __future__ import annotations

import ast
import re
from collections.abc import Sequence
from typing import Any, cast

__all__ = [
    "ThreadId",
    "id_type",
    "is_utf8",
    "kept_as_stored",
    "printable_checkpoint",
    "printable_id",
    "printable_text",
    "sqlite_bound",
    "stored_id",
    "text_id",
]

ThreadId = str | bytes | int | float  # what sqlite3 returns for a value of each storage class

# The notation's markers: a text id starting with one is printed quoted, so none is read
# back as another type's
_QUOTED = ("'", '"', "b'", 'b"')
_NUMBERS = {"int(": int, "float(": float}
# One quoted literal as repr writes it, nothing around it: the only text given to the parser
_ONE_LITERAL = re.compile(r"""b?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""", re.DOTALL)


def id_type(thread_id: ThreadId) -> str:
    """SQLite's name for the storage class of `thread_id`.

    Example:
        >>> id_type("t"), id_type(b"t"), id_type(7), id_type(0.5)
        ('TEXT', 'BLOB', 'INTEGER', 'REAL')
    """
    if isinstance(thread_id, str):
        return "TEXT"
    if isinstance(thread_id, bytes):
        return "BLOB"
    return "REAL" if isinstance(thread_id, float) else "INTEGER"


def printable_id(thread_id: ThreadId) -> str:
    """`thread_id` as one printable line, distinct for each id and read back by `stored_id`.

    A text id that prints as itself (not empty, no blank at either end, every character
    printable, not starting like the notation) is itself; any other text id is quoted with
    its unprintable characters escaped (`'a\\nb'`); a BLOB is `b'...'`, its bytes that are
    not printable ASCII escaped; an INTEGER is `int(42)`, a REAL `float(4.5)`.

    Example:
        >>> [printable_id(i) for i in ["t-1", "", "a\\x1b[2J", "'x'", b"t\\xff", 42, 4.5]]
        ['t-1', "''", "'a\\\\x1b[2J'", '"\\'x\\'"', "b't\\\\xff'", 'int(42)', 'float(4.5)']
    """
    if isinstance(thread_id, str):
        plain = (
            thread_id
            and thread_id.strip() == thread_id
            and thread_id.isprintable()
            and not thread_id.startswith((*_QUOTED, *_NUMBERS))
        )
        return thread_id if plain else repr(thread_id)
    if isinstance(thread_id, bytes | bytearray | memoryview):
        return repr(bytes(thread_id))
    if isinstance(thread_id, float):
        return f"float({thread_id!r})"
    return f"int({int(thread_id)})"


def stored_id(printed: str) -> ThreadId:
    """The thread id `printable_id` printed as `printed`; any other text is a text id.

    Example:
        >>> [stored_id(p) for p in ["t-1", "''", "b't\\\\xff'", "int(42)", "float(nan)"]]
        ['t-1', '', b't\\xff', 42, nan]
        >>> stored_id("int(x)"), stored_id("'open"), stored_id("'a', 'b'")
        ('int(x)', "'open", "'a', 'b'")
    """
    if printed.startswith(_QUOTED):
        if not _ONE_LITERAL.fullmatch(printed):  # never parsed: "'a'," + "-" * 10**5 + "1"
            return printed  # would exhaust the parser's memory
        try:
            value = ast.literal_eval(printed)
        except (ValueError, SyntaxError):
            return printed
        return value if isinstance(value, str | bytes) else printed
    for marker, kind in _NUMBERS.items():
        if printed.startswith(marker) and printed.endswith(")"):
            try:
                number = kind(printed[len(marker) : -1])
            except ValueError:
                return printed
            if kind is float or str(number) == printed[len(marker) : -1]:
                return number  # type: ignore[no-any-return]
    return printed


def text_id(thread_id: ThreadId) -> str:
    """`thread_id` where only text goes (JSON, a table's text column, CSV): a text id as it
    is (those escape what they must), any other (a TEXT that is not UTF-8 too) as
    `printable_id` prints it (a row of such a thread carries the code `thread_id_not_text`,
    which says the id is not text).

    Example:
        >>> text_id("a\\nb"), text_id(b"t"), text_id(7)
        ('a\\nb', "b't'", 'int(7)')
    """
    if isinstance(thread_id, str) and is_utf8(thread_id):
        return thread_id
    return printable_id(thread_id)


def kept_as_stored(thread_id: ThreadId) -> str:
    """`thread_id` unchanged, typed `str`: the objects other packages read (a timeline, a
    list row, an unreadable row) keep the id as stored, to select the thread again, under
    the type nearly every id has. Only a crafted SQLite file holds another; print any id
    with `printable_id`, write it where only text goes with `text_id`."""
    return cast(str, thread_id)


def is_utf8(value: str) -> bool:
    """Whether `value` is text SQLite holds as UTF-8: not a crafted TEXT whose bad bytes
    the reader decoded as lone surrogates (`text_factory` in `core.stores.backends.open`).

    Example:
        >>> is_utf8("t-1"), is_utf8("\\udcffA")
        (True, False)
    """
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def sqlite_bound(sql: str, params: Sequence[Any]) -> tuple[str, tuple[Any, ...]]:
    """`sql` and `params` for SQLite, a text param that is not UTF-8 (a crafted TEXT id as
    read, or one given back to select it) bound as its own bytes cast to TEXT, so it
    equals the stored value; Python's sqlite3 cannot bind it as text. Every `?` in `sql`
    is a placeholder.

    Example:
        >>> sqlite_bound("SELECT ? WHERE x = ?", [1, "\\udcffA"])
        ('SELECT ? WHERE x = CAST(? AS TEXT)', (1, b'\\xffA'))
    """
    if all(not isinstance(p, str) or is_utf8(p) for p in params):
        return sql, tuple(params)
    parts = sql.split("?")
    text, bound = [parts[0]], list[Any]()
    for param, after in zip(params, parts[1:], strict=True):
        raw = isinstance(param, str) and not is_utf8(param)
        text += ["CAST(? AS TEXT)" if raw else "?", after]
        bound.append(param.encode("utf-8", "surrogateescape") if raw else param)
    return "".join(text), tuple(bound)


def printable_text(text: object) -> str:
    """`text` (a store-supplied key name, type or message) on one line for a terminal: each
    character that is not printable (an escape, a newline, a lone surrogate) escaped as
    Python writes it, the rest as it is.

    Example:
        >>> printable_text("a\\x1b]0;x\\x07 b\\ny")
        'a\\\\x1b]0;x\\\\x07 b\\\\ny'
    """
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def printable_checkpoint(checkpoint_id: str | None) -> str:
    """A checkpoint id as `printable_id` prints an id; none (None or "", a row whose id is
    not known) as nothing.

    Example:
        >>> [printable_checkpoint(c) for c in ["1ef-2", "\\x1b[2J", "", None]]
        ['1ef-2', "'\\\\x1b[2J'", '', '']
    """
    return printable_id(checkpoint_id) if checkpoint_id else ""
