"""A LangGraph server's threads audited as `audit_store` audits a store's rows."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.audit.audit import AuditResult, InvalidState
from core.stores.backends.server import RemoteStore, ServerRefusal
from core.stores.backends.shards import Shard
from core.stores.decode.rows import RowProblem, Unreadable
from core.stores.decode.state import json_state_errors
from core.stores.threads.server_entry import checkpoint_id_of, not_a_thread
from core.stores.threads.server_history import history, server_written_by, state_errors_of, step_at

__all__ = ["STATES_AT_ONCE", "audit_server"]

STATES_AT_ONCE = 8  # get_state requests in flight for invalid threads (16: not measurably faster)
_STATES_HELD = 64  # answers waiting to be taken, at most


def audit_server(
    store: RemoteStore,
    model: type[BaseModel],
    *,
    history_too: bool = False,
    shard: Shard = (0, 1),
    only: str | None = None,
) -> AuditResult:
    """`audit_store` on a server: each thread's values from search pages (the next page
    asked for while this one is checked), validated in JSON mode; an invalid thread's state
    is then asked for once (get_state, a few at once while the audit reads on), so its row
    carries the checkpoint id and step of the state checked (no request for a valid thread).
    With `history_too`, every checkpoint of its history, each invalid state blamed on the
    node whose task wrote it (its parent checkpoint's tasks). A thread whose history the
    server refuses is audited from its values, with an `unreadable` row saying why; one
    whose state it refuses (400: it cannot prepare the thread's next step) keeps its row
    without a checkpoint id or step. `only`: only that thread (threads.get; none, when the
    server has no such thread)."""
    result = AuditResult()
    with (
        ThreadPoolExecutor(STATES_AT_ONCE, thread_name_prefix="audit-state") as pool,
        ThreadPoolExecutor(1, thread_name_prefix="audit-page") as pages,
    ):
        asked: deque[tuple[str, Any, list[dict[str, Any]], Future[dict[str, Any]]]] = deque()
        for thread_id, thread in _threads(store, shard, only, pages):
            result.threads += 1
            if not isinstance(thread, dict):  # what the search answered in a thread's place
                result.checkpoints += 1
                result.unreadable.append(not_a_thread(thread_id, thread))
                continue
            try:
                errors = json_state_errors(thread.get("values"), model)
            except RowProblem as problem:
                result.checkpoints += 1
                result.unreadable.append(
                    Unreadable(thread_id, "", None, problem.code, problem.message)
                )
                continue
            if history_too:
                _audit_history(store, thread_id, model, errors, result)
                continue
            result.checkpoints += 1
            if errors:  # its checkpoint: one request, answered while the audit reads on
                state = pool.submit(store.state, thread_id)
                asked.append((thread_id, thread.get("values"), errors, state))
                if len(asked) > _STATES_HELD:  # the oldest answer is taken: memory stays flat
                    _checked(*asked.popleft(), model, result)
        while asked:
            _checked(*asked.popleft(), model, result)
    return result


def _threads(
    store: RemoteStore, shard: Shard, only: str | None, pages: ThreadPoolExecutor
) -> Iterator[tuple[str, Any]]:
    if only is None:  # the next page read while this one is checked
        yield from store.shard_threads(shard, ahead=pages)
        return
    try:
        yield only, store.thread(only)
    except ServerRefusal as refusal:
        if refusal.status != 404:
            raise


def _checked(
    thread_id: str,
    values: Any,
    errors: list[dict[str, Any]],
    asked: Future[dict[str, Any]],
    model: type[BaseModel],
    result: AuditResult,
) -> None:
    """The invalid thread's row at the checkpoint get_state names (its values checked again
    only if they changed since the search: that state is the one named)."""
    try:
        state: Any = asked.result()  # a server may answer anything
    except ServerRefusal as refusal:
        if refusal.status != 400:  # as a thread read: any other refusal stops the audit
            raise
        # 400: the server cannot prepare the thread; its values were checked
        result.invalid.append(InvalidState(thread_id, "", None, None, errors))
        return
    if not isinstance(state, dict):  # an answer naming no state: the search's row stands
        result.invalid.append(InvalidState(thread_id, "", None, None, errors))
        return
    if state.get("values") != values:  # written since the search: check what is named
        try:
            errors = json_state_errors(state.get("values"), model)
        except RowProblem as problem:
            errors = []
            result.unreadable.append(
                Unreadable(
                    thread_id,
                    checkpoint_id_of(state),
                    step_at(state),
                    problem.code,
                    problem.message,
                )  # fmt: skip
            )
    if errors:
        result.invalid.append(
            InvalidState(thread_id, checkpoint_id_of(state), step_at(state), None, errors)
        )


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
    by_id = {checkpoint_id_of(s): s for s in states}
    for state in states:
        result.checkpoints += 1
        try:
            errors = state_errors_of(state, model)[1]
        except RowProblem as problem:
            result.unreadable.append(
                Unreadable(
                    thread_id,
                    checkpoint_id_of(state),
                    step_at(state),
                    problem.code,
                    problem.message,
                )
            )
            continue
        if errors:
            parent = by_id.get(checkpoint_id_of({"checkpoint": state.get("parent_checkpoint")}))
            node = server_written_by(state, parent, errors)
            result.invalid.append(
                InvalidState(thread_id, checkpoint_id_of(state), step_at(state), node, errors)
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
