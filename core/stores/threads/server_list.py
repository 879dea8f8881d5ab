"""A LangGraph server's threads listed as the Threads page lists a store's: each with a status
from its values, read in JSON mode."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.backends.server import RemoteStore, ServerRefusal, one_line
from core.stores.decode.rows import RowProblem
from core.stores.decode.state import json_state_errors
from core.stores.errors import StoreError
from core.stores.threads.listing import (
    SCAN_LIMIT,
    ThreadPage,
    ThreadRow,
    ThreadStatus,
    state_path,
)
from core.stores.threads.server_entry import json_kind
from core.stores.threads.server_history import when

__all__ = ["NotAThread", "list_server_threads"]

_NO_STATE = "no checkpoint yet: created, nothing has run on it"
# the statuses a get_state answer can decide (interrupted, or unreadable when refused)
_ASKED_FOR = (None, ThreadStatus.INTERRUPTED, ThreadStatus.UNREADABLE)


class NotAThread(str):
    """The id a row is listed under when the server's list held something that is not a
    thread there (`(not a thread: #3)`, its place in the list): shown, never opened."""

    __slots__ = ()


def _refused(store: RemoteStore, thread_id: str) -> str | None:
    """Why the server gives no latest state for the thread, asked now (coded); None when it
    gives one. A thread whose status the server says is interrupted or failed may hold a
    newer state than the values it listed: an update it stored but cannot prepare the next
    task from leaves them so (get_state answers 400)."""
    try:
        store.state(thread_id)
    except ServerRefusal as refusal:
        if refusal.status == 400:
            return f"[{ErrorCode.SERVER_HISTORY_REFUSED}] the server refuses its latest state (400)"
    except StoreError as error:  # a timeout or a failure on this thread: the list stands
        return f"[{error.code}] its latest state was asked for and not given: {error.message}"
    return None


def _row(
    store: RemoteStore,
    thread: Any,
    place: int,
    model: type[BaseModel],
    current: type[BaseModel] | None,
    ask: bool,
) -> ThreadRow:
    """The row of `thread`, the server's answer at `place` (from 1) in its list; with `ask`,
    an interrupted or failed thread's state is asked for (`_refused`)."""
    if not isinstance(thread, dict):  # what the search answered in a thread's place
        detail = (f"[{ErrorCode.ROW_NOT_A_CHECKPOINT}] The server's thread list holds "
                  f"{json_kind(thread)} where a thread belongs.")  # fmt: skip
        named = NotAThread(f"(not a thread: #{place})")
        return ThreadRow(named, None, None, "", ThreadStatus.UNREADABLE, None, detail)
    thread_id = str(thread.get("thread_id", ""))
    time = when(thread.get("updated_at"))
    if thread.get("values") is None:  # created, nothing run or written on it: no state yet
        return ThreadRow(thread_id, None, None, time, ThreadStatus.VALID, None, _NO_STATE)
    try:
        errors = json_state_errors(thread.get("values"), model)
    except RowProblem as problem:
        return ThreadRow(thread_id, None, None, time, ThreadStatus.UNREADABLE, None,
                         f"[{problem.code}] {problem.message}")  # fmt: skip
    failed = thread.get("error") or None  # what the last run raised, as the server keeps it
    said = f"the last run failed: {one_line(_error_text(failed), 160)}" if failed else ""
    if errors:
        first = errors[0]  # the run's failure is the thread's to say
        detail = f"{first['type']} at {state_path(first['loc'])}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.BROKEN, None, detail)
    if current is not None and (later := json_state_errors(thread.get("values"), current)):
        detail = f"{later[0]['type']} at {state_path(later[0]['loc'])}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.WOULD_NOT_RESUME, None, detail)
    if thread.get("status") in ("interrupted", "error") or thread.get("interrupts"):
        if ask and (refused := _refused(store, thread_id)) is not None:
            return ThreadRow(thread_id, None, None, time, ThreadStatus.UNREADABLE, None, refused)
        detail = said or f"the server's status: {thread.get('status')}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.INTERRUPTED, None, detail)
    return ThreadRow(thread_id, None, None, time, ThreadStatus.VALID, None, "")


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        return f"{error.get('error', '')}: {error.get('message', '')}".strip(": ")
    return str(error)


def list_server_threads(
    store: RemoteStore,
    model: type[BaseModel],
    *,
    after: str | None = None,
    limit: int = 50,
    contains: str = "",
    status: ThreadStatus | None = None,
    current: type[BaseModel] | None = None,
) -> ThreadPage:
    """`core.stores.threads.list_threads` on a server, with the same keywords: threads in
    id order, each with a status from its values (JSON mode), the server's status and the
    error its last run left. A thread the server says is interrupted or failed is asked its
    state (get_state, one request each) when the status filter is none, interrupted or
    unreadable (the two that answer decides), as its listed values may predate a write the
    server cannot prepare; a thread whose state it refuses or fails to give is unreadable.
    `after` is the offset to continue from, as text (None: the first page), not a thread
    id: the server's search pages by offset."""
    offset = int(after) if after and after.isdigit() else 0
    rows: list[ThreadRow] = []
    scanned, size = 0, max(1, limit)
    while True:
        batch = store.search(offset, size + 1)  # one more: whether a page follows is known
        more, batch = len(batch) > size, batch[:size]
        for thread in batch:
            offset, scanned = offset + 1, scanned + 1
            named = thread.get("thread_id", "") if isinstance(thread, dict) else ""
            if contains and contains not in str(named):
                continue
            row = _row(store, thread, offset, model, current, status in _ASKED_FOR)
            if status is None or row.status is status:
                rows.append(row)
            if len(rows) >= limit or scanned >= SCAN_LIMIT:
                later = thread is not batch[-1] or more
                return ThreadPage(rows, str(offset) if later else None, scanned)
        if not more:
            return ThreadPage(rows, None, scanned)
