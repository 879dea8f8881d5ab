"""A heavy job's turn: one of the server's slots around a page's call, queued with its place
shown and a Cancel button while every slot is taken."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st

from core.heavy import HeavyGate, heavy_jobs
from ui import keys

__all__ = ["heavy_gate", "heavy_slot"]

_POLL_SECONDS = 0.5  # how often a queued job redraws its place (and notices a Cancel)
_JOBS = "reading an uploaded store, an audit, a migration preview"
_LOG = logging.getLogger(__name__)


@st.cache_resource(show_spinner=False)
def heavy_gate() -> HeavyGate:
    """The server's one gate, made on first use. Shared by every session on purpose: its slots
    are the server's CPUs (PLAYGROUND_HEAVY_JOBS, else their count), and it holds ticket
    numbers only, nothing of a visitor. A bad setting is said in the server's log."""
    jobs = heavy_jobs(os.environ, os.cpu_count())
    if jobs.refused is not None:
        _LOG.warning("%s", jobs.refused)
    return HeavyGate(jobs.slots)


@contextmanager
def heavy_slot(job: str, what: str, on_cancel: Callable[[], None]) -> Iterator[None]:
    """Hold one of the server's heavy-job slots while the block runs.

    While every slot is taken, the page shows "Waiting for a free slot: k ahead" (redrawn as
    the queue moves) and a Cancel button (`keys.wait_cancel(job)`, calling `on_cancel` in the
    run it starts). The ticket is given back in `finally`: when the block ends, raises, or
    Streamlit stops the run (a Cancel, any other widget, a closed tab), waiting or running.

    Example:
        with heavy_slot(keys.THREADS_AUDIT, "The audit", _cancel), open_any(spec, serde) as store:
            parts.append(audit_any(store, model, shard=shard))
    """
    gate = heavy_gate()
    ticket = gate.enter()
    try:
        if not gate.acquire(ticket, timeout=0):
            _wait(gate, ticket, job, what, on_cancel)
        yield
    finally:
        gate.leave(ticket)


def _wait(gate: HeavyGate, ticket: int, job: str, what: str, on_cancel: Callable[[], None]) -> None:
    slots = gate.state().slots
    box = st.empty()
    with box.container():
        note = st.empty()
        st.button("Cancel", key=keys.wait_cancel(job), on_click=on_cancel)
    while True:
        # Drawn at every poll, not only when the place changes: each element sent is where
        # Streamlit ends this run for a rerun (Cancel, another widget) or a closed session,
        # so a queued job never outlives the run that asked for it.
        note.info(
            f"Waiting for a free slot: {gate.ahead(ticket)} ahead. {what} starts when one "
            f"frees: this server runs {slots} heavy job{'' if slots == 1 else 's'} at a time "
            f"for all its visitors ({_JOBS})."
        )
        if gate.acquire(ticket, timeout=_POLL_SECONDS):
            break
    box.empty()
