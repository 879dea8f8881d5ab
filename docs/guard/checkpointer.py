"""The checkpointer langgraph.json names: LangGraph's own AsyncSqliteSaver behind the exported
GuardedSaver (state_guard.py, written by `python -m core guard --export state_guard.py` and
kept beside this file). The server runs with its own packages: this imports nothing else."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from graph import Tagged  # your graph's state model
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from state_guard import GuardedSaver  # type: ignore[import-not-found]  # exported beside

__all__ = ["guarded_checkpointer"]

SQLITE_ENV = "GUARD_SQLITE"  # where the threads are saved (default: checkpoints.sqlite here)


@asynccontextmanager
async def guarded_checkpointer() -> AsyncIterator[GuardedSaver]:
    """The saver the server opens at start and closes at stop: a state `Tagged` rejects is
    never stored; the run that made it fails with the guard's InvalidStateError."""
    path = os.environ.get(SQLITE_ENV, "checkpoints.sqlite")
    async with AsyncSqliteSaver.from_conn_string(path) as saver:
        yield GuardedSaver(saver, Tagged)
