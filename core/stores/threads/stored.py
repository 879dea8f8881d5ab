"""Each stored state of a store as a check of it reads them: its latest (or every)
checkpoint's, from a database's rows (`walk_store`) or a LangGraph server's thread list and
history; `core.stores.reader.stored_states` reads either."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.backends.open import Store
from core.stores.backends.server import RemoteStore, ServerRefusal
from core.stores.backends.shards import Shard
from core.stores.decode.rows import RowProblem, Unreadable, step_of
from core.stores.decode.state import stored_state
from core.stores.threads.server_entry import not_a_thread
from core.stores.threads.server_history import history, source_of, state_errors_of, step_at
from core.stores.threads.walk import Walked, walk_store

__all__ = ["TOO_DEEP", "StoredState", "server_states", "store_states"]

TOO_DEEP = "the stored state is nested deeper than can be checked."  # row_too_deep


@dataclass(slots=True)  # one per stored state read: slots, no frozen setattr
class StoredState:
    """One stored state: where it is, what it holds, whether it is its thread's latest."""

    thread_id: str
    checkpoint_id: str
    step: int | None
    source: str
    state: Any  # as the audit checks it: an input checkpoint's input written through
    latest: bool
    json_mode: bool  # a server's values: validate them as the JSON they arrived as
    may_hold_refusals: bool = True  # False: the strict serializer refused nothing in it
    stored_with: type[BaseModel] | None = None  # the model it was read with (not a server's)


def store_states(
    store: Store, model: type[BaseModel], *, history_too: bool = False, shard: Shard = (0, 1)
) -> Iterator[StoredState | Unreadable]:
    """Each thread's latest stored state (every checkpoint's with `history_too`), in
    thread order, walked as the audit walks them (`walk_store`); a row that cannot be read
    is an `Unreadable`, and the walk goes on. `shard=(i, N)`: only the threads of that shard
    (`shard_of`, as the audit's shards)."""
    for page in walk_store(store, history=history_too, shard=shard):
        for read in page:
            yield read if isinstance(read, Unreadable) else _from_tuple(read, model)


def _from_tuple(read: Walked, model: type[BaseModel]) -> StoredState | Unreadable:
    saved = read.saved
    configurable = saved.config["configurable"]
    thread_id, checkpoint_id = configurable["thread_id"], configurable["checkpoint_id"]
    try:  # the state alone: the candidate judges it, not the model it was written with
        state = stored_state(saved, model)
    except RecursionError:
        return Unreadable(thread_id, checkpoint_id, step_of(saved.metadata),
                          ErrorCode.ROW_TOO_DEEP, TOO_DEEP)  # fmt: skip
    source = str(saved.metadata.get("source", ""))
    return StoredState(thread_id, checkpoint_id, step_of(saved.metadata), source, state,
                       read.latest, json_mode=False, may_hold_refusals=read.may_hold_refusals,
                       stored_with=model)  # fmt: skip


def server_states(
    store: RemoteStore, model: type[BaseModel], *, history_too: bool = False, shard: Shard = (0, 1)
) -> Iterator[StoredState | Unreadable]:
    """`store_states` on a server: each thread's latest values as its thread list gives
    them (no request per thread), or with `history_too` every checkpoint of its history
    (its latest values when the server refuses it), validated as JSON."""
    for thread_id, thread in store.shard_threads(shard):
        if not isinstance(thread, dict):  # what the search answered in a thread's place
            yield not_a_thread(thread_id, thread)
            continue
        yield from _server_thread(store, thread_id, thread, model, history_too)


def _server_thread(
    store: RemoteStore, thread_id: str, thread: dict[str, Any], model: type[BaseModel],
    every: bool,
) -> Iterator[StoredState | Unreadable]:  # fmt: skip
    latest = StoredState(thread_id, "", None, "", thread.get("values"), True, json_mode=True)
    if not every:  # the latest values, as the thread list gave them: no request per thread
        yield latest
        return
    try:
        states = history(store, thread_id)
    except ServerRefusal:  # refused: its latest values, as the thread list gave them
        yield latest
        return
    for index, state in enumerate(states):
        try:
            values = state_errors_of(state, model)[0]
        except RowProblem as problem:
            yield Unreadable(thread_id, state["checkpoint"]["checkpoint_id"], step_at(state),
                             problem.code, problem.message)  # fmt: skip
            continue
        yield StoredState(thread_id, state["checkpoint"]["checkpoint_id"], step_at(state),
                          source_of(state), values, index == 0, json_mode=True)  # fmt: skip
