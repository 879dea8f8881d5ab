"""One write to a checkpoint store from a page (an unbrick fork, a migration's forks), said
plainly when the store refuses it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from core.errors import ErrorCode
from core.stores.unbrick import UnbrickError

__all__ = ["store_write"]

T = TypeVar("T")


def store_write(write: Callable[[], T], *, after: str) -> T | None:
    """What `write()` wrote, or None after saying why nothing was: our coded error whole, a
    driver's by its type only (its text may quote the DSN), then `after` (what to check)."""
    try:
        return write()
    except UnbrickError as error:
        st.error("Not written:")
        st.code(str(error), language=None, wrap_lines=True)
    except Exception as error:  # noqa: BLE001 - the driver's text may quote the DSN
        st.error(
            f"[{ErrorCode.STORE_WRITE_FAILED}] "
            f"The store refused the write ({type(error).__name__}); " + after
        )
    return None
