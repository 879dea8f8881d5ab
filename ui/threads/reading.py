"""Reading the page's store as a heavy job: an upload waits for a server slot, and may be
cancelled while it waits."""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from functools import partial

import streamlit as st

from ui import keys
from ui.heavy import heavy_slot
from ui.threads.source import StoreChoice

__all__ = ["read_slot", "reading_cancelled"]


def _cancel(spec: str) -> None:
    st.session_state[keys.THREADS_READ_CANCELLED] = spec


def _again() -> None:
    st.session_state.pop(keys.THREADS_READ_CANCELLED, None)


def read_slot(choice: StoreChoice) -> AbstractContextManager[None]:
    """One of the server's heavy-job slots for reading an uploaded store (its decoding is the
    visitor's work); none for the demo or the server's own store."""
    if choice.source != "upload":
        return nullcontext()
    return heavy_slot(keys.THREADS_READ, "Reading your upload", partial(_cancel, choice.spec))


def reading_cancelled(choice: StoreChoice) -> bool:
    """Whether this upload's wait for a slot was cancelled; if so the page says it, with the
    button that reads it again (a new upload is read at once)."""
    if st.session_state.get(keys.THREADS_READ_CANCELLED) != choice.spec:
        return False
    st.warning(
        "Reading your upload was cancelled while it waited for a free slot: nothing was read. "
        "Press Read it again to start again."
    )
    st.button("Read it again", key=keys.THREADS_READ_AGAIN, on_click=_again)
    return True
