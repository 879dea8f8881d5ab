"""What the plan does to each thread's latest state: the fork Apply would write, and whether
the plan fixes it. Read without Streamlit, from any store.

Apply (`core.migrate.write.write_migration`) writes a thread when the plan changes its latest
state and the candidate then accepts it, the fields it changed only; `outcomes` picks the
same threads and the same fields (write_migration's own choice of them), so its dry run
shows the rows before they are written.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from pydantic import BaseModel

from core.migrate.migrated import migrated
from core.migrate.plan import Plan
from core.migrate.states import StoredState, stored_states

# Apply's own choice of the fields to write (a private name: core.migrate.write keeps it
# with write_migration, and the dry run must choose exactly as the write does)
from core.migrate.write import _changes as _fields_written
from core.stores.reader import AnyStore
from core.stores.rows import RowProblem

__all__ = ["Outcome", "outcomes"]


@dataclass(frozen=True)
class Outcome:
    """One thread's latest state under the plan: where it is, whether the candidate rejected
    it before and after, and the fields Apply writes (empty: Apply leaves it alone)."""

    thread_id: str
    checkpoint_id: str
    broken_before: bool
    broken_after: bool
    fields: dict[str, Any] = field(default_factory=dict)

    @property
    def fixed(self) -> bool:
        return self.broken_before and not self.broken_after


def _outcome(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> Outcome | None:
    try:
        result = migrated(plan, read.state, candidate, json_mode=read.json_mode,
                          may_hold_refusals=read.may_hold_refusals,
                          stored_with=read.stored_with)  # fmt: skip
    except RowProblem:  # too deep to be checked: the preview names it unreadable
        return None
    written = not result.errors and any(result.changed) and isinstance(result.state, dict)
    return Outcome(
        read.thread_id,
        read.checkpoint_id,
        result.broken_before,
        bool(result.errors),
        _fields_written(read.state, result.state) if written else {},
    )


def outcomes(
    store: AnyStore,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Plan,
    *,
    limit: int | None = None,
) -> list[Outcome]:
    """Each thread's latest state through `plan`, in thread order (the first `limit`
    threads; None: all); a state that cannot be read or checked is left out.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import Step
        >>> from core.stores.demo import open_demo_store
        >>> from core.stores.demo import CandidateState
        >>> step = Step(path="amount", action="map", **{"from": 750, "to": 500})
        >>> with open_demo_store() as store:
        ...     found = outcomes(store, AgentState, CandidateState, Plan(steps=[step]))
        >>> [(o.thread_id, o.fixed, o.fields) for o in found if o.fields]
        [('model-change', True, {'amount': 500})]
    """
    reads: Iterator[Any] = stored_states(store, model)
    found = (_outcome(plan, read, candidate) for read in reads if isinstance(read, StoredState))
    return [o for o in islice((o for o in found if o is not None), limit)]
