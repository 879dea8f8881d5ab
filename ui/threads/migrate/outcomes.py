"""What the plan does to each thread's latest state: whether it changes and fixes it (the
before/after picker's order), and the forks Apply would write (its dry run). Read without
Streamlit, from any store.

The forks are chosen by Apply's own rule (`core.migrate.write.fork_fields`: the plan leaves the
state different and the candidate accepts it; the fields it changed), so the dry run shows
exactly the rows `write_migration` then writes, as long as the store does not change.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import Any

from pydantic import BaseModel

from core.migrate.chain import Chain
from core.migrate.plan import Plan
from core.migrate.standing import migration_records, start_of
from core.migrate.states import StoredState, stored_states

# Apply's own rule (a private name: core.migrate.write keeps it beside write_migration, and
# the dry run must choose exactly as the write does)
from core.migrate.write import fork_fields as _apply_would_write
from core.migrate.write import migrated_read
from core.stores.reader import AnyStore

__all__ = ["Fork", "Outcome", "forks", "outcomes", "thread_plan"]


@dataclass(frozen=True)
class Outcome:
    """One thread's latest state under the plan: where it is, whether the candidate rejected
    it before and after, and whether the plan changes it."""

    thread_id: str
    checkpoint_id: str
    broken_before: bool
    broken_after: bool
    changed: bool

    @property
    def fixed(self) -> bool:
        return self.broken_before and not self.broken_after


@dataclass(frozen=True)
class Fork:
    """A checkpoint Apply would write: the thread, the checkpoint it forks from, the fields
    it writes (none when the plan only drops fields the candidate lacks)."""

    thread_id: str
    checkpoint_id: str
    fields: dict[str, Any]


def _latest(store: AnyStore, model: type[BaseModel]) -> Iterator[StoredState]:
    return (read for read in stored_states(store, model) if isinstance(read, StoredState))


def thread_plan(
    store: AnyStore,
    plan: Plan | Chain,
    thread_id: str,
    checkpoint_id: str,
    state: dict[str, Any],
    *,
    json_mode: bool = False,
) -> Plan:
    """The steps a thread's state at `checkpoint_id` still needs: a plan as it is; of a
    chain, those of the plans after where the thread stands (`start_of`, as Apply reads it)."""
    if not isinstance(plan, Chain):
        return plan
    read = StoredState(thread_id, checkpoint_id, step=None, source="", state=state,
                       latest=False, json_mode=json_mode)  # fmt: skip
    return plan.plan(start_of(plan, migration_records(store, plan), read))


def _outcome(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> Outcome | None:
    result = migrated_read(plan, read, candidate)
    if result is None:
        return None
    return Outcome(read.thread_id, read.checkpoint_id, result.broken_before,
                   bool(result.errors), any(result.changed))  # fmt: skip


def outcomes(
    store: AnyStore,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Plan | Chain,
    *,
    limit: int | None = None,
) -> list[Outcome]:
    """Each thread's latest state through `plan`, in thread order (the first `limit`
    threads; None: all); a state that cannot be read or checked is left out. A `Chain`
    migrates each thread from where it stands.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import Step
        >>> from core.stores.demo import CandidateState, open_demo_store
        >>> step = Step(path="amount", action="map", **{"from": 750, "to": 500})
        >>> with open_demo_store() as store:
        ...     found = outcomes(store, AgentState, CandidateState, Plan(steps=[step]))
        >>> [(o.thread_id, o.fixed) for o in found if o.changed]
        [('model-change', True)]
    """
    chain = plan if isinstance(plan, Chain) else Chain.of(plan)
    records = migration_records(store, chain)
    found = (_outcome(chain.plan(start_of(chain, records, read)), read, candidate)
             for read in _latest(store, model))  # fmt: skip
    return list(islice((o for o in found if o is not None), limit))


def forks(
    store: AnyStore, model: type[BaseModel], candidate: type[BaseModel], plan: Plan | Chain
) -> list[Fork]:
    """The checkpoints Apply would write now, one per thread, in thread order; a `Chain`
    migrates each thread from where it stands, as `write_migration` does.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import Step
        >>> from core.stores.demo import CandidateState, open_demo_store
        >>> step = Step(path="amount", action="map", **{"from": 750, "to": 500})
        >>> with open_demo_store() as store:
        ...     planned = forks(store, AgentState, CandidateState, Plan(steps=[step]))
        >>> [(fork.thread_id, fork.fields) for fork in planned]
        [('model-change', {'amount': 500})]
    """
    chain = plan if isinstance(plan, Chain) else Chain.of(plan)
    records = migration_records(store, chain)
    planned = (
        (read, _apply_would_write(chain.plan(start_of(chain, records, read)), read, candidate))
        for read in _latest(store, model)
    )
    return [Fork(read.thread_id, read.checkpoint_id, fields)
            for read, fields in planned if fields is not None]  # fmt: skip
