"""A plan's dry run over a store: what each step changes and fixes, what stays broken."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from pydantic import BaseModel

from core.migrate.chain import Chain
from core.migrate.migrated import migrated
from core.migrate.plan import Plan
from core.migrate.standing import Record, migration_records, start_of
from core.migrate.states import StoredState, stored_states
from core.stores.reader import AnyStore
from core.stores.rows import RowProblem, Unreadable

__all__ = ["Broken", "Preview", "StepCount", "merge_previews", "preview_migration"]


@dataclass
class StepCount:
    """What one step did over the store: states it changed, states it fixed; `plan`: the
    id of the chain's plan it belongs to (None: a lone plan without one); `to_answer`: True
    while the step is marked for the user to answer (it then changes nothing)."""

    plan: str | None
    path: str
    action: str
    changed: int = 0
    fixed: int = 0
    to_answer: bool = False


@dataclass(frozen=True)
class Broken:
    """A state the candidate still rejects after the plan, with the candidate's errors."""

    thread_id: str
    checkpoint_id: str
    errors: list[dict[str, Any]]


@dataclass
class Preview:
    """The dry run's counts (the `--json` contract of `python -m core migrate`)."""

    plan: Plan  # every step of the chain, in chain order
    threads: int = 0
    checkpoints: int = 0
    broken_before: int = 0
    fixed: int = 0
    steps: list[StepCount] = field(default_factory=list)
    still_broken: list[Broken] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    written: list[dict[str, str]] = field(default_factory=list)
    cancelled: bool = False
    chain: Chain | None = None  # the chain previewed (None: `plan` alone)

    def to_json(self) -> dict[str, Any]:
        """`{"plan", "threads", "checkpoints", "broken_before", "fixed", "steps",
        "still_broken", "written"}` (and `unreadable`, the rows the preview could not read)."""
        return {
            "plan": [step.as_toml() for step in self.plan.steps],
            "threads": self.threads,
            "checkpoints": self.checkpoints,
            "broken_before": self.broken_before,
            "fixed": self.fixed,
            "steps": [asdict(count) for count in self.steps],
            "still_broken": [asdict(state) for state in self.still_broken],
            "written": list(self.written),
            "unreadable": [row.to_json() for row in self.unreadable],
        }


def preview_migration(
    store: AnyStore,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Plan | Chain,
    *,
    history: bool = False,
    keep_going: Callable[[int], bool] | None = None,
    shard: tuple[int, int] = (0, 1),
) -> Preview:
    """Apply `plan` to each thread's latest stored state (every checkpoint's with
    `history`) and validate with `candidate`; nothing is written. A `Chain` applies to each
    state from where its thread stands (`core.migrate.standing.start_of`) to its stop.
    `shard=(i, N)`: only that shard's threads (`merge_previews` sums the N parts).

    `keep_going(checkpoints_read)` is asked after each state (progress, Cancel): False
    stops the preview there, `cancelled` set. Memory does not grow with the store: states
    are read a page at a time and only the still-broken ones are kept.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import Step
        >>> from core.stores.demo import CandidateState, open_demo_store
        >>> plan = Plan(steps=[Step(path="amount", action="map", **{"from": 750, "to": 500})])
        >>> with open_demo_store() as store:
        ...     preview = preview_migration(store, AgentState, CandidateState, plan)
        >>> preview.broken_before, preview.fixed, [(s.changed, s.fixed) for s in preview.steps]
        (3, 1, [(1, 1)])
    """
    preview = _empty(plan)
    chain = preview.chain
    assert chain is not None
    records = migration_records(store, chain)
    threads: set[str] = set()
    read_so_far = 0
    for read in stored_states(store, model, history_too=history, shard=shard):
        threads.add(read.thread_id)  # one whose row cannot be read too, as the audit counts
        read_so_far += 1
        problem = (
            read if isinstance(read, Unreadable) else _count(preview, read, candidate, records)
        )
        if problem is not None:
            preview.unreadable.append(problem)
        if keep_going is not None and not keep_going(read_so_far):
            preview.cancelled = True
            break
    preview.threads = len(threads)
    return preview


def _empty(plan: Plan | Chain) -> Preview:
    """A preview of `plan` (a chain of its own when alone) with every count at zero."""
    chain = plan if isinstance(plan, Chain) else Chain.of(plan)
    steps = [StepCount(plan_id or None, step.path, step.action, to_answer=not step.answered)
             for plan_id, step in chain.steps()]  # fmt: skip
    return Preview(chain.plan(), steps=steps, chain=chain)


def merge_previews(plan: Plan | Chain, parts: list[Preview]) -> Preview:
    """One preview of `plan` from the previews of disjoint thread shards: counts summed,
    rows in thread order (each thread is in one part); cancelled if any part was.

    Example:
        >>> from core.order import AgentState
        >>> from core.migrate.plan import parse_plan
        >>> from core.stores.demo import CandidateState, open_demo_store
        >>> plan = parse_plan('step = [{path = "amount", action = "map", from = 750, to = 500}]')
        >>> with open_demo_store() as store:
        ...     whole = preview_migration(store, AgentState, CandidateState, plan)
        ...     parts = [preview_migration(store, AgentState, CandidateState, plan,
        ...                                shard=(i, 3)) for i in range(3)]
        >>> merged = merge_previews(plan, parts)
        >>> merged.threads, merged.fixed, merged.to_json() == whole.to_json()
        (10, 1, True)
    """
    merged = _empty(plan)
    for part in parts:
        merged.threads += part.threads
        merged.checkpoints += part.checkpoints
        merged.broken_before += part.broken_before
        merged.fixed += part.fixed
        for count, more in zip(merged.steps, part.steps, strict=True):
            count.changed += more.changed
            count.fixed += more.fixed
        merged.still_broken += part.still_broken
        merged.unreadable += part.unreadable
        merged.cancelled |= part.cancelled
    merged.still_broken.sort(key=lambda state: state.thread_id)  # stable: checkpoints stay
    merged.unreadable.sort(key=lambda row: row.thread_id)
    return merged


def _count(
    preview: Preview, read: StoredState, candidate: type[BaseModel], records: dict[str, Record]
) -> Unreadable | None:
    """Count one state in, through the plans of the chain it still needs; a state too deep
    to be checked is returned as unreadable."""
    chain = preview.chain
    assert chain is not None
    start = start_of(chain, records, read) if len(chain.links) > 1 or chain.ids[0] else 0
    offset = chain.offset(start)
    try:
        result = migrated(chain.plan(start), read.state, candidate, json_mode=read.json_mode,
                          may_hold_refusals=read.may_hold_refusals,
                          stored_with=read.stored_with)  # fmt: skip
    except RowProblem as problem:
        return Unreadable(read.thread_id, read.checkpoint_id, read.step, problem.code,
                          problem.message)  # fmt: skip
    preview.checkpoints += 1
    for count, changed in zip(preview.steps[offset:], result.changed, strict=False):
        count.changed += bool(changed)
    for index in result.fixed:
        preview.steps[offset + index].fixed += 1
    if result.broken_before:
        preview.broken_before += 1
        if not result.errors:
            preview.fixed += 1
    if result.errors:
        preview.still_broken.append(Broken(read.thread_id, read.checkpoint_id, result.errors))
    return None
