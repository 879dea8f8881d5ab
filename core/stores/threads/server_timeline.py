"""One thread on a LangGraph server: its history as a timeline, or its values when refused."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.backends.server import RemoteStore, ServerRefusal, one_line
from core.stores.decode.rows import RowProblem, Unreadable
from core.stores.decode.state import json_state_errors
from core.stores.threads.server_history import (
    readable_history,
    server_written_by,
    source_of,
    state_errors_of,
    step_at,
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
    state: dict[str, Any], parent: dict[str, Any] | None, model: type[BaseModel]
) -> Checkpoint:
    checkpoint_id = str(state["checkpoint"]["checkpoint_id"])
    values = state.get("values") if isinstance(state.get("values"), dict) else {}
    unreadable, errors, shown = None, list[dict[str, Any]](), values
    try:
        shown, errors = state_errors_of(state, model)
    except RowProblem as problem:
        unreadable = Unreadable(str(state["checkpoint"].get("thread_id", "")), checkpoint_id,
                                step_at(state), problem.code, problem.message)  # fmt: skip
    writes = [StoredWrite(node or None, channel, value, task_id)
              for task_id, node, channel, value in writes_of(parent)]  # fmt: skip
    parent_id = (state.get("parent_checkpoint") or {}).get("checkpoint_id")
    return Checkpoint(
        checkpoint_id=checkpoint_id,
        parent_id=str(parent_id) if parent_id else None,
        step=step_at(state),
        source=source_of(state),
        time=when(state.get("created_at")),
        values=dict(values or {}),
        state=shown,
        errors=errors,
        writes=writes,
        pending=sorted(str(name) for name in state.get("next") or []),
        node=server_written_by(state, parent, errors),
        unreadable=unreadable,
    )


def server_timeline(store: RemoteStore, thread_id: str, model: type[BaseModel]) -> Timeline | None:
    """The thread's checkpoints from get_history, oldest first, each validated in JSON mode;
    the writes that made each are its parent's tasks' results, named by the task's node.

    When the server refuses the history (a 400 once a stored state fails the graph's
    model), the checkpoints before the newest failed run are shown if the server returns
    them (`readable_history`), else the thread's latest values from threads.get as its one
    checkpoint; the timeline's `note` says which and why. None when there is no such thread.
    """
    try:
        newest_first, note = readable_history(store, thread_id)
    except ServerRefusal as refusal:
        if refusal.status == 404:
            return None
        return _values_only(store, thread_id, model, refusal)
    states = newest_first[::-1]
    if not states:
        return None
    by_id = {s["checkpoint"]["checkpoint_id"]: s for s in states}
    checkpoints = [
        _checkpoint(s, by_id.get((s.get("parent_checkpoint") or {}).get("checkpoint_id")), model)
        for s in states
    ]
    by_checkpoint = {c.checkpoint_id: c for c in checkpoints}
    for checkpoint in checkpoints:
        parent = by_checkpoint.get(checkpoint.parent_id) if checkpoint.parent_id else None
        checkpoint.changed = changed_fields(parent.state if parent else {}, checkpoint.state)
    interrupts = list(states[-1].get("interrupts") or [])
    return Timeline(thread_id, checkpoints, blamed_of(checkpoints), interrupts, note=note)


def _values_only(
    store: RemoteStore, thread_id: str, model: type[BaseModel], refusal: ServerRefusal
) -> Timeline | None:
    try:
        thread = store.thread(thread_id)
    except ServerRefusal:
        return None
    values = thread.get("values") if isinstance(thread.get("values"), dict) else {}
    note = (
        f"[{ErrorCode.SERVER_HISTORY_REFUSED}] The server answered {refusal.status} for this "
        f"thread's history ({refusal.message}); shown: its latest values, from threads.get."
    )
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
    return Timeline(thread_id, [latest], latest if errors else None, note=note)


def server_get_state(store: RemoteStore, thread_id: str) -> str:
    """What the server's own get_state answers for the thread, asked now: one sentence."""
    try:
        store.state(thread_id)
    except ServerRefusal as refusal:
        return f"The server's get_state answered {refusal.status}: {one_line(refusal.message)}"
    return "The server's get_state answered 200 with the state."
