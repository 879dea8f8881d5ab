"""The server's heavy-job slots: at most N jobs at once, the others queued in arrival order."""

from __future__ import annotations

import itertools
import threading
from collections import deque
from collections.abc import Mapping
from typing import NamedTuple

from core.errors import CodedError, ErrorCode

__all__ = ["HEAVY_JOBS_ENV", "GateState", "HeavyGate", "HeavyJobs", "heavy_jobs"]

HEAVY_JOBS_ENV = "PLAYGROUND_HEAVY_JOBS"
_SHOWN_CHARS = 40  # of a bad setting, in its message: enough to recognise it


class HeavyJobs(NamedTuple):
    """How many heavy jobs the server runs at once, and what was wrong with the setting."""

    slots: int
    refused: CodedError | None = None  # the setting could not be used: `slots` is the default


class GateState(NamedTuple):
    """A gate at one moment: its slots, the tickets holding one, the queue in order."""

    slots: int
    running: tuple[int, ...]
    waiting: tuple[int, ...]


def heavy_jobs(environ: Mapping[str, str], cpus: int | None) -> HeavyJobs:
    """The slot count: PLAYGROUND_HEAVY_JOBS (a positive integer), else the CPU count.

    A value that is not a positive integer is refused with a coded message (for the server's
    log) and the default is used instead.

    Example:
        >>> heavy_jobs({}, cpus=2), heavy_jobs({"PLAYGROUND_HEAVY_JOBS": " 3 "}, cpus=2)
        (HeavyJobs(slots=2, refused=None), HeavyJobs(slots=3, refused=None))
        >>> slots, refused = heavy_jobs({"PLAYGROUND_HEAVY_JOBS": "0"}, cpus=None)
        >>> slots, refused.code
        (1, <ErrorCode.HEAVY_JOBS: 'heavy_jobs'>)
    """
    default = max(cpus or 1, 1)  # os.cpu_count() may not know
    text = environ.get(HEAVY_JOBS_ENV, "").strip()
    if not text:
        return HeavyJobs(default)
    if text.isascii() and text.isdigit() and int(text) >= 1:
        return HeavyJobs(int(text))
    shown = text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"
    refused = CodedError(
        ErrorCode.HEAVY_JOBS,
        f"{HEAVY_JOBS_ENV}={shown!r} is not a positive integer; {default} (the CPU count) is "
        "used. Set it to a whole number of 1 or more, or unset it.",
    )
    return HeavyJobs(default, refused)


class HeavyGate:
    """At most `slots` jobs hold a slot at once; the others wait in the order they came.

    A job takes a ticket (`enter`), waits for its slot (`acquire`, with a timeout so a page can
    redraw its place in the queue), and leaves (`leave`) when done or cancelled: a freed slot
    goes to the first ticket in the queue at once, under the gate's lock, so `state()` is exact
    the moment `leave` returns. Thread-safe; holds ticket numbers only, nothing of a visitor.

    Example:
        >>> gate = HeavyGate(1)
        >>> first, second = gate.enter(), gate.enter()
        >>> gate.acquire(first, timeout=0), gate.acquire(second, timeout=0), gate.ahead(second)
        (True, False, 1)
        >>> gate.leave(first)
        >>> gate.state()
        GateState(slots=1, running=(2,), waiting=())
    """

    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a gate needs at least one slot, not {slots}")
        self._slots = slots
        self._tickets = itertools.count(1)
        self._running: set[int] = set()
        self._waiting: deque[int] = deque()
        self._changed = threading.Condition()

    def enter(self) -> int:
        """A new ticket: it holds a slot at once if one is free and nobody waits, else queues."""
        with self._changed:
            ticket = next(self._tickets)
            if len(self._running) < self._slots and not self._waiting:
                self._running.add(ticket)
            else:
                self._waiting.append(ticket)
            return ticket

    def ahead(self, ticket: int) -> int:
        """How many slots must free before `ticket` gets one: 0 while it holds one.

        Raises:
            ValueError: the ticket has left (or never entered).
        """
        with self._changed:
            return self._ahead(ticket)

    def acquire(self, ticket: int, timeout: float | None = None) -> bool:
        """Wait up to `timeout` seconds (None: for as long as it takes) for `ticket`'s slot.

        Returns whether it holds one; False leaves it queued, in its place.

        Raises:
            ValueError: the ticket has left (or never entered).
        """
        with self._changed:
            self._changed.wait_for(lambda: self._ahead(ticket) == 0, timeout)
            return ticket in self._running

    def leave(self, ticket: int) -> None:
        """Free `ticket`'s slot for the first in the queue, or take it out of the queue (a
        cancel: those behind it move up). Leaving twice is harmless."""
        with self._changed:
            if ticket in self._running:
                self._running.discard(ticket)
                while self._waiting and len(self._running) < self._slots:
                    self._running.add(self._waiting.popleft())
            elif ticket in self._waiting:
                self._waiting.remove(ticket)
            else:
                return
            self._changed.notify_all()  # every waiter's place may have changed

    def state(self) -> GateState:
        """The slots, the tickets holding one (in order) and the queue (first first)."""
        with self._changed:
            return GateState(self._slots, tuple(sorted(self._running)), tuple(self._waiting))

    def _ahead(self, ticket: int) -> int:
        if ticket in self._running:
            return 0
        try:
            return self._waiting.index(ticket) + 1
        except ValueError:
            raise ValueError(f"ticket {ticket} is not in the gate") from None
