"""Warnings recorded around a call, one thread at a time.

`warnings.catch_warnings` swaps process-wide state (the filters and `showwarning`), and
Streamlit runs each session's script in its own thread: two captures at once would record
each other's warnings, or lose their own to stderr. Every capture in core goes through here.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["recorded_warnings"]

_LOCK = threading.RLock()  # re-entrant: a capture may run code that captures too


@contextmanager
def recorded_warnings() -> Iterator[list[warnings.WarningMessage]]:
    """Every warning raised inside the block, in order, none shown.

    Example:
        >>> with recorded_warnings() as caught:
        ...     warnings.warn("twice")
        ...     warnings.warn("twice")
        >>> [str(w.message) for w in caught]
        ['twice', 'twice']
    """
    with _LOCK, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield caught
