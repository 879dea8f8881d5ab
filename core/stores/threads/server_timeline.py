"""One thread on a LangGraph server: its history as a timeline, or its values when refused."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.backends.server import RemoteStore, ServerRefusal, one_line
from core.stores.decode.rows import RowProblem, Unreadable
from core.stores.decode.state import json_state_errors
from core.stores.threads.server_entry import ServerEntry, read_entry
from core.stores.threads.server_history import (
    HistoryRead,
    read_history,
    server_written_by,
    state_errors_of,
    when,
    writes_of,
)
from core.stores.threads.timeline import (
    Checkpoint,
    StoredWrite,
    Timeline,
    blamed_of,
    changed_fields,
)

__all__ = ["server_get_state", "server_timeline"]


def _checkpoint(
    entry: ServerEntry, parent: dict[str, Any] | None, model: type[BaseModel], thread_id: str
) -> Checkpoint:
    state, unreadable = entry.state, entry.problem
    errors, shown = list[dict[str, Any]](), entry.values
    if unreadable is None:
        try:
            shown, errors = state_errors_of(state, model)
        except RowProblem as problem:
            unreadable = Unreadable(thread_id, entry.checkpoint_id, entry.step, problem.code,
                                    problem.message)  # fmt: skip
    writes = [StoredWrite(node or None, channel, value, task_id)
              for task_id, node, channel, value in writes_of(parent)]  # fmt: skip
    return Checkpoint(
        checkpoint_id=entry.checkpoint_id,
        parent_id=entry.parent_id,
        step=entry.step,
        source=entry.source,
        time=when(entry.created_at),
        values=dict(entry.values),
        state=shown,
        errors=errors,
        writes=writes,
        pending=sorted(str(name) for name in state.get("next") or []),
        node=None if unreadable is not None else server_written_by(state, parent, errors),
        unreadable=unreadable,
    )


def _refused_latest(
    thread_id: str, read: HistoryRead, time: str, parent: Checkpoint | None
) -> Checkpoint:
    """The thread's newest checkpoint, which the server refuses to return (it fails the
    model: the thread's blamed one): nothing of it to show or validate, its refusal said
    once (in the timeline's note). Its `state` is its `parent`'s, the last the server
    prepared, for Unbrick to start from; the fork is from that parent."""
    status = read.refusal.status if read.refusal is not None else 400
    said = (
        f"The server answers {status} for every window of this thread's history that holds "
        "it and does not return its state: what it said is in the note above."
    )
    return Checkpoint(
        checkpoint_id="",
        parent_id=parent.checkpoint_id or None if parent is not None else None,
        step=None,
        source="refused by the server",
        time=time,
        values={},
        state=parent.state if parent is not None else {},
        errors=[],
        writes=[],
        pending=[],
        unreadable=Unreadable(thread_id, "", None, ErrorCode.SERVER_HISTORY_REFUSED, said),
    )


def _errors_said(refusal: ServerRefusal | None, blamed: Checkpoint | None) -> bool:
    """Whether the checkpoint shown as broken holds the very errors the server refused the
    history with (each error's message is in the server's): then the note need not repeat
    Pydantic's message, the checkpoint's table says it."""
    if refusal is None or blamed is None or not blamed.errors:
        return False
    return all(str(error.get("msg", "")) in refusal.message for error in blamed.errors)


def server_timeline(store: RemoteStore, thread_id: str, model: type[BaseModel]) -> Timeline | None:
    """The thread's checkpoints from get_history, oldest first, each validated in JSON mode;
    the writes that made each are its parent's tasks' results, named by the task's node.
    A state the server gives oddly shaped is a checkpoint with a coded `unreadable`.

    When the server refuses the history (a 400 once a stored state fails the graph's
    model), the checkpoints it returns are shown (`read_history`), else the thread's latest
    values from threads.get; when none of them fails the model, the newest checkpoint the
    server refuses follows as unreadable (its values are not the ones threads.get lists).
    The timeline's `note` says what is shown and why, the server's message only when no
    checkpoint shown says it. A thread with no checkpoint yet is one empty, valid state with
    a note saying so. None when there is no such thread.
    """
    try:
        read = read_history(store, thread_id)
    except ServerRefusal as refusal:
        if refusal.status == 404:
            return None
        return _values_only(store, thread_id, model, refusal)
    if not read.states:
        return _no_checkpoint_yet(store, thread_id)
    entries = [read_entry(state, thread_id) for state in read.states[::-1]]
    by_id = {entry.checkpoint_id: entry.state for entry in entries if entry.checkpoint_id}
    checkpoints = [
        _checkpoint(entry, by_id.get(entry.parent_id or ""), model, thread_id) for entry in entries
    ]
    by_checkpoint = {c.checkpoint_id: c for c in checkpoints if c.checkpoint_id}
    for checkpoint in checkpoints:
        parent = by_checkpoint.get(checkpoint.parent_id) if checkpoint.parent_id else None
        checkpoint.changed = changed_fields(parent.state if parent else {}, checkpoint.state)
    blamed = blamed_of(checkpoints)
    if not read.newest_shown and blamed is None:  # the server refuses it: it fails the model
        blamed = _refused_latest(thread_id, read, "", checkpoints[-1])
        checkpoints.append(blamed)
    interrupts = list(entries[-1].state.get("interrupts") or [])
    note = read.note(message=not _errors_said(read.refusal, blamed))
    return Timeline(thread_id, checkpoints, blamed, interrupts, note=note)


def _no_checkpoint_yet(store: RemoteStore, thread_id: str) -> Timeline | None:
    """A thread the server holds with no checkpoint (created, nothing run or written on it):
    its state is empty, which the graph starts from."""
    try:
        thread = store.thread(thread_id)
    except ServerRefusal:
        return None
    empty = Checkpoint(
        checkpoint_id="",
        parent_id=None,
        step=None,
        source="no checkpoint yet",
        time=when(thread.get("created_at") if isinstance(thread, dict) else None),
        values={},
        state={},
        errors=[],
        writes=[],
        pending=[],
    )
    note = (
        "The server holds no checkpoint of this thread yet: it was created and nothing has "
        "run on it."
    )
    return Timeline(thread_id, [empty], None, note=note)


def _values_only(
    store: RemoteStore, thread_id: str, model: type[BaseModel], refusal: ServerRefusal
) -> Timeline | None:
    try:
        thread = store.thread(thread_id)
    except ServerRefusal:
        return None
    thread = thread if isinstance(thread, dict) else {}
    values = thread.get("values") if isinstance(thread.get("values"), dict) else {}
    read = HistoryRead([], refusal, ("its latest values, from threads.get",))
    unreadable, errors = None, list[dict[str, Any]]()
    try:
        errors = json_state_errors(values, model)
    except RowProblem as problem:
        unreadable = Unreadable(thread_id, "", None, problem.code, problem.message)
    latest = Checkpoint(
        checkpoint_id="",
        parent_id=None,
        step=None,
        source=f"latest values ({thread.get('status', '')})",
        time=when(thread.get("updated_at")),
        values=dict(values or {}),
        state=values,
        errors=errors,
        writes=[],
        pending=[],
        unreadable=unreadable,
    )
    checkpoints = [latest]
    blamed = latest if errors else None
    if blamed is None and unreadable is None:  # the values the server could last prepare
        blamed = _refused_latest(thread_id, read, when(thread.get("updated_at")), None)
        checkpoints.append(blamed)
    note = read.note(message=not _errors_said(refusal, blamed))
    return Timeline(thread_id, checkpoints, blamed, note=note)


def server_get_state(store: RemoteStore, thread_id: str) -> str:
    """What the server's own get_state answers for the thread, asked now: one sentence. A
    refusal its history gives too, word for word, is not repeated: the thread's note has it.

    Example:
        >>> class Refusing:
        ...     def state(self, thread_id): raise ServerRefusal(400, "1 validation error")
        ...     def history_page(self, thread_id, limit): raise ServerRefusal(400, "1 validation error")
        >>> server_get_state(Refusing(), "t")
        "The server's get_state answered 400, the refusal its history gave (the note above)."
    """  # noqa: E501
    try:
        store.state(thread_id)
    except ServerRefusal as refusal:
        try:
            store.history_page(thread_id, 1)
        except ServerRefusal as again:
            if (again.status, again.message) == (refusal.status, refusal.message):
                return (
                    f"The server's get_state answered {refusal.status}, the refusal its "
                    "history gave (the note above)."
                )
        return f"The server's get_state answered {refusal.status}: {one_line(refusal.message)}"
    return "The server's get_state answered 200 with the state."
