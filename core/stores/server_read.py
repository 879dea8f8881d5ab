"""A LangGraph server's threads read as the Threads page and the audit read a store's rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.audit import AuditResult, InvalidState, shard_of
from core.stores.rows import RowProblem, Unreadable
from core.stores.server import PAGE_LIMIT, RemoteStore, ServerRefusal, one_line

# Re-exported (X as X): this module is where they were first.
from core.stores.server_history import blamed_node as blamed_node
from core.stores.server_history import checkpoint_id_at as checkpoint_id_at
from core.stores.server_history import history as history
from core.stores.server_history import readable_history as readable_history
from core.stores.server_history import server_written_by
from core.stores.server_history import source_of as source_of
from core.stores.server_history import state_errors_of as state_errors_of
from core.stores.server_history import step_at as step_at
from core.stores.server_history import when as when
from core.stores.server_history import writes_of as writes_of
from core.stores.shards import Shard
from core.stores.state import json_state_errors
from core.stores.threads import SCAN_LIMIT, ThreadPage, ThreadRow, ThreadStatus

__all__ = [
    "audit_server",
    "blamed_node",
    "checkpoint_id_at",
    "history",
    "list_server_threads",
    "readable_history",
    "shard_threads",
    "source_of",
    "state_errors_of",
    "step_at",
    "when",
    "writes_of",
]


def _row(
    thread: dict[str, Any], model: type[BaseModel], current: type[BaseModel] | None
) -> ThreadRow:
    thread_id = str(thread.get("thread_id", ""))
    time = when(thread.get("updated_at"))
    try:
        errors = json_state_errors(thread.get("values"), model)
    except RowProblem as problem:
        return ThreadRow(thread_id, None, None, time, ThreadStatus.UNREADABLE, None,
                         f"[{problem.code}] {problem.message}")  # fmt: skip
    failed = thread.get("error") or None  # what the last run raised, as the server keeps it
    said = f"the last run failed: {one_line(_error_text(failed), 160)}" if failed else ""
    if errors:
        first = errors[0]
        where = ".".join(map(str, first["loc"])) or "(state)"
        detail = said or f"{first['type']} at {where}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.BROKEN, None, detail)
    if current is not None and (later := json_state_errors(thread.get("values"), current)):
        detail = f"{later[0]['type']} at {'.'.join(map(str, later[0]['loc']))}"
        return ThreadRow(thread_id, None, None, time, ThreadStatus.WOULD_NOT_RESUME, None, detail)
    if thread.get("status") in ("interrupted", "error") or thread.get("interrupts"):
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
    error its last run left. `after` is the offset to continue from, as text (None: the
    first page), not a thread id: the server's search pages by offset."""
    offset = int(after) if after and after.isdigit() else 0
    rows: list[ThreadRow] = []
    scanned, size = 0, max(1, limit)
    while True:
        batch = store.search(offset, size + 1)  # one more: whether a page follows is known
        more, batch = len(batch) > size, batch[:size]
        for thread in batch:
            offset, scanned = offset + 1, scanned + 1
            if contains and contains not in str(thread.get("thread_id", "")):
                continue
            row = _row(thread, model, current)
            if status is None or row.status is status:
                rows.append(row)
            if len(rows) >= limit or scanned >= SCAN_LIMIT:
                later = thread is not batch[-1] or more
                return ThreadPage(rows, str(offset) if later else None, scanned)
        if not more:
            return ThreadPage(rows, None, scanned)


def audit_server(
    store: RemoteStore, model: type[BaseModel], *, history_too: bool = False, shard: Shard = (0, 1)
) -> AuditResult:
    """`audit_store` on a server: each thread's values from search pages, validated in JSON
    mode (an invalid one is listed without its checkpoint, step or writer: those would cost
    a request per thread); with `history_too` every checkpoint of its history, each
    invalid state blamed on the node whose task wrote it (its parent checkpoint's tasks). A
    thread whose history the server refuses is audited from its values, with an
    `unreadable` row saying why."""
    result = AuditResult()
    for thread_id, thread in shard_threads(store, shard):
        result.threads += 1
        try:
            errors = json_state_errors(thread.get("values"), model)
        except RowProblem as problem:
            result.checkpoints += 1
            result.unreadable.append(Unreadable(thread_id, "", None, problem.code, problem.message))
            continue
        if history_too:
            _audit_history(store, thread_id, model, errors, result)
            continue
        # the latest values alone, as the thread list gave them: asking each invalid
        # thread's history for its writer would cost a request each (blame: --history)
        result.checkpoints += 1
        if errors:
            result.invalid.append(InvalidState(thread_id, "", None, None, errors))
    return result


def shard_threads(
    store: RemoteStore, shard: Shard = (0, 1)
) -> Iterator[tuple[str, dict[str, Any]]]:
    """A server's threads as its search returns them, a page at a time, each with its id;
    with `shard=(i, N)` only those of shard i (the audit's and the migration's shards)."""
    index, shards = shard
    offset = 0
    while True:
        batch = store.search(offset, PAGE_LIMIT)
        offset += len(batch)
        for thread in batch:
            thread_id = str(thread.get("thread_id", ""))
            if shards <= 1 or shard_of(thread_id, shards) == index:
                yield thread_id, thread
        if len(batch) < PAGE_LIMIT:
            return


def _audit_history(
    store: RemoteStore,
    thread_id: str,
    model: type[BaseModel],
    latest_errors: list[dict[str, Any]],
    result: AuditResult,
) -> None:
    try:
        states = history(store, thread_id)
    except ServerRefusal as refusal:  # audited from the values search gave, and said why
        result.checkpoints += 1
        if latest_errors:
            result.invalid.append(InvalidState(thread_id, "", None, None, latest_errors))
        result.unreadable.append(_refused(thread_id, refusal))
        return
    by_id = {s["checkpoint"]["checkpoint_id"]: s for s in states}
    for state in states:
        result.checkpoints += 1
        try:
            errors = state_errors_of(state, model)[1]
        except RowProblem as problem:
            checkpoint_id = state["checkpoint"]["checkpoint_id"]
            result.unreadable.append(
                Unreadable(thread_id, checkpoint_id, step_at(state), problem.code, problem.message)
            )
            continue
        if errors:
            parent = by_id.get((state.get("parent_checkpoint") or {}).get("checkpoint_id", ""))
            node = server_written_by(state, parent, errors)
            checkpoint_id = state["checkpoint"]["checkpoint_id"]
            result.invalid.append(
                InvalidState(thread_id, checkpoint_id, step_at(state), node, errors)
            )


def _refused(thread_id: str, refusal: ServerRefusal) -> Unreadable:
    return Unreadable(
        thread_id,
        "",
        None,
        ErrorCode.SERVER_HISTORY_REFUSED,
        f"the server answered {refusal.status} for this thread's history ({refusal.message}); "
        "its latest values, from the thread list, are audited instead.",
    )
