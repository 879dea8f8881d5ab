"""Where each thread stands in a chain: its newest `migration` record, else its state's model."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from core.migrate.chain import Chain
from core.migrate.states import StoredState, stored_states
from core.stores.reader import AnyStore
from core.stores.server import RemoteStore, ServerRefusal
from core.stores.state import json_state_errors, state_errors
from core.stores.store import Store

__all__ = ["RECORD_KEY", "Record", "Standing", "chain_standing", "migration_records", "start_of"]

RECORD_KEY = "migration"  # the metadata key of a fork `--apply` wrote: the last plan applied


@dataclass(frozen=True)
class Record:
    """A thread's newest `migration` record: the fork that holds it, and the plan's id."""

    checkpoint_id: str
    plan: str


@dataclass(frozen=True)
class Standing:
    """One thread in a chain: its latest checkpoint, its newest record (None: none), the
    plan it stands after ("" : before the first) and the plans still to apply to it."""

    thread_id: str
    checkpoint_id: str
    record: str | None
    after: str
    pending: tuple[str, ...]


def migration_records(store: AnyStore, chain: Chain) -> dict[str, Record]:
    """Thread id -> its newest `migration` record naming a plan of `chain`.

    One query per plan id through the saver's own `list` (its metadata filter), whatever
    the number of threads; the newest is the record with the greatest checkpoint id (LangGraph
    checkpoint ids grow with time). A LangGraph server's API filters a thread's history by
    metadata but searches no checkpoints across threads: there one get_history per thread
    and plan id, its newest match only.
    """
    if not any(chain.ids):
        return {}
    return store.pick(
        database=lambda database: _records(database, chain),
        server=lambda server: _server_records(server, chain),
    )


def _server_records(server: RemoteStore, chain: Chain) -> dict[str, Record]:
    newest: dict[str, Record] = {}
    plan_ids = list(dict.fromkeys(plan for plan in chain.ids if plan))
    for thread in server.iter_thread_ids():
        for plan_id in plan_ids:
            try:
                found = _newest_record(server, thread, plan_id)
            except ServerRefusal:  # a thread the server cannot read: its state is unread too
                break
            for state in found:
                checkpoint = str(state["checkpoint"]["checkpoint_id"])
                if thread not in newest or newest[thread].checkpoint_id < checkpoint:
                    newest[thread] = Record(checkpoint, plan_id)
    return newest


def _records(store: Store, chain: Chain) -> dict[str, Record]:
    newest: dict[str, Record] = {}
    for plan_id in dict.fromkeys(plan for plan in chain.ids if plan):
        for saved in store.saver.list(None, filter={RECORD_KEY: plan_id}):
            configurable = saved.config["configurable"]
            if configurable.get("checkpoint_ns", ""):  # a subgraph's: not the thread's state
                continue
            thread, checkpoint = str(configurable["thread_id"]), configurable["checkpoint_id"]
            if thread not in newest or newest[thread].checkpoint_id < checkpoint:
                newest[thread] = Record(checkpoint, plan_id)
    return newest


def _newest_record(server: RemoteStore, thread: str, plan_id: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = server.call(
        lambda: server.client.threads.get_history(thread, limit=1, metadata={RECORD_KEY: plan_id})
    )
    return found


def start_of(chain: Chain, records: dict[str, Record], read: StoredState) -> int:
    """The index of the first plan of `chain` the stored state `read` still needs: after its
    thread's newest record when `read` is that fork or later, else by what its state fits."""
    record = records.get(read.thread_id)
    # a server's thread list gives the latest state without its id: no record is newer
    at_or_after = read.checkpoint_id >= record.checkpoint_id if record is not None else False
    named = record.plan if record is not None and (at_or_after or _listed(read)) else None
    return chain.start_of(named, lambda model: _accepts(model, read))


def _listed(read: StoredState) -> bool:
    return read.latest and not read.checkpoint_id


def _accepts(model: type[BaseModel], read: StoredState) -> bool:
    if read.json_mode:
        return not json_state_errors(read.state, model)
    return not state_errors(read.state, model, may_hold_refusals=read.may_hold_refusals)


def chain_standing(
    store: AnyStore, chain: Chain, model: type[BaseModel]
) -> Iterator[Standing | Any]:
    """Each thread's latest state's place in `chain` (what the Migrate view shows per
    thread); a row that cannot be read is yielded as the store's `Unreadable`.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import parse_plan
        >>> from core.stores.demo import open_demo_store
        >>> chain = Chain.of(parse_plan('id = "v2"'))
        >>> with open_demo_store() as store:
        ...     first = next(iter(chain_standing(store, chain, AgentState)))
        >>> first.after, first.pending
        ('', ('v2',))
    """
    records = migration_records(store, chain)
    for read in stored_states(store, model):
        if not isinstance(read, StoredState):
            yield read
            continue
        start = start_of(chain, records, read)
        record = records.get(read.thread_id)
        yield Standing(
            read.thread_id,
            read.checkpoint_id,
            record.plan if record is not None else None,
            chain.ids[start - 1] if start else "",
            tuple(chain.ids[start : chain.stop]),
        )
