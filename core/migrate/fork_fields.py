"""What a fork writes for one stored state: the fields a plan changed, when the candidate
then accepts the state (Apply's rule, and Migrate's outcomes')."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from core.jsontext.write import jsonable
from core.migrate.migrated import Migrated, migrated
from core.migrate.plan import Plan
from core.migrate.states import StoredState
from core.stores.rows import RowProblem
from core.stores.state import plain_data

__all__ = ["Written", "fork_fields", "migrated_read"]


@dataclass(frozen=True)
class Written:
    """One thread the plan fixed: the checkpoint forked from and the one written."""

    thread_id: str
    from_checkpoint_id: str
    new_checkpoint_id: str


def _changes(before: Any, after: Any) -> dict[str, Any]:
    """The fields whose value the plan changed or added (a dropped or renamed-away field is
    not written: the candidate graph has no channel for it, so it is no longer read). An
    Enum member mapped to its own text is a change: a Literal refuses the member."""
    old = plain_data(before) if isinstance(before, dict) else {}
    return {k: v for k, v in after.items()
            if k not in old or jsonable(_marked(old[k])) != jsonable(_marked(v))}  # fmt: skip


def _marked(value: Any) -> Any:
    """`value` with each Enum member told apart from its value (JSON writes them alike)."""
    if isinstance(value, enum.Enum):
        return {"enum member": type(value).__qualname__, "value": _marked(value.value)}
    if isinstance(value, dict):
        return {key: _marked(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_marked(inner) for inner in value]
    return value


def migrated_read(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> Migrated | None:
    """`read`'s state through `plan`, checked under `candidate`, read as it was stored (JSON
    or decoded); None: too deep to be checked (the preview names it unreadable)."""
    try:
        return migrated(plan, read.state, candidate, json_mode=read.json_mode,
                        may_hold_refusals=read.may_hold_refusals,
                        stored_with=read.stored_with)  # fmt: skip
    except RowProblem:
        return None


def fork_fields(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> dict[str, Any] | None:
    """The fields to write for this state (None: nothing to write): only when the plan
    leaves it different from the stored one and the candidate accepts the result; {} when
    only fields the candidate lacks went away."""
    result = migrated_read(plan, read, candidate)
    if result is None:
        return None
    if result.errors or not any(result.changed) or not isinstance(result.state, dict):
        return None
    fields = _changes(read.state, result.state)
    gone = set(read.state) - set(result.state) if isinstance(read.state, dict) else set()
    return fields if fields or gone else None
