"""A LangGraph server's threads audited as `audit_store` audits a store's rows."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.audit.audit import AuditResult, InvalidState
from core.stores.backends.server import RemoteStore, ServerRefusal
from core.stores.backends.shards import Shard
from core.stores.decode.rows import RowProblem, Unreadable
from core.stores.decode.state import json_state_errors
from core.stores.threads.server_history import history, server_written_by, state_errors_of, step_at

__all__ = ["audit_server"]


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
    for thread_id, thread in store.shard_threads(shard):
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
