"""A LangGraph server's threads listed as the Threads page lists a store's: each with a status
from its values, read in JSON mode."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.jsontext.paths import format_path
from core.stores.backends.server import RemoteStore, ServerRefusal, one_line
from core.stores.decode.rows import RowProblem
from core.stores.decode.state import json_state_errors
from core.stores.threads.listing import SCAN_LIMIT, ThreadPage, ThreadRow, ThreadStatus
from core.stores.threads.server_history import when
from core.words import article

__all__ = ["list_server_threads"]

_NO_STATE = "no checkpoint yet: created, nothing has run on it"


def _refused(store: RemoteStore, thread_id: str) -> str | None:
    """Why the server refuses the thread's latest state, asked now; None when it does not.
    A thread with tasks pending is the one whose listed values may be older than its state:
    an update the server stored but cannot prepare the next task from leaves them so."""
    try:
        store.state(thread_id)
    except ServerRefusal as refusal:
        if refusal.status == 400:
            return f"[{ErrorCode.SERVER_HISTORY_REFUSED}] the server refuses its latest state (400)"
    return None


def _row(
    store: RemoteStore, thread: Any, model: type[BaseModel], current: type[BaseModel] | None
) -> ThreadRow:
    if not isinstance(thread, dict):  # what the search answered in a thread's place
        detail = (f"[{ErrorCode.ROW_NOT_A_CHECKPOINT}] The server's thread list holds "
                  f"{article(type(thread).__name__)} where a thread belongs.")  # fmt: skip
        return ThreadRow("", None, None, "", ThreadStatus.UNREADABLE, None, detail)
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
        first = errors[0]
        where = format_path(first["loc"]) if first["loc"] else "(state)"
        detail = f"{first['type']} at {where}"  # the run's failure: on the thread
        return ThreadRow(thread_id, None, None, time, ThreadStatus.BROKEN, None, detail)
    if current is not None and (later := json_state_errors(thread.get("values"), current)):
        detail = f"{later[0]['type']} at {format_path(later[0]['loc'])}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.WOULD_NOT_RESUME, None, detail)
    if thread.get("status") in ("interrupted", "error") or thread.get("interrupts"):
        if (refused := _refused(store, thread_id)) is not None:
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
    error its last run left; a thread with tasks pending is asked its state (get_state, one
    request each), as its listed values may predate a write the server cannot prepare.
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
            row = _row(store, thread, model, current)
            if status is None or row.status is status:
                rows.append(row)
            if len(rows) >= limit or scanned >= SCAN_LIMIT:
                later = thread is not batch[-1] or more
                return ThreadPage(rows, str(offset) if later else None, scanned)
        if not more:
            return ThreadPage(rows, None, scanned)
