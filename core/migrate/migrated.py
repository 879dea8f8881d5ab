"""One stored state through a plan: the candidate's verdict before, between and after steps."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from core.errors import ErrorCode
from core.migrate.apply import apply_step
from core.migrate.plan import Plan, Step, split_path
from core.migrate.states import TOO_DEEP
from core.stores.instances import plain_fields
from core.stores.rows import RowProblem
from core.stores.serde import find_refused
from core.stores.state import json_state_errors, plain_data, state_errors

__all__ = ["Migrated", "migrated"]

_Locations = list[tuple[Any, ...]]


@dataclass(slots=True)  # one per state: slots, no frozen setattr
class Migrated:
    """A state after the plan: what each step changed, which steps fixed it, and the
    candidate's verdict before the plan (broken or not) and after it (its errors)."""

    state: Any  # plain data: an instance of the user's models as the data it holds
    changed: list[list[str]]  # per step, the concrete paths it changed
    fixed: list[int]  # the steps that fixed the state, by index
    broken_before: bool
    errors: list[dict[str, Any]]  # as `state_errors` gives them: [] when the candidate accepts


def migrated(
    plan: Plan,
    state: Any,
    candidate: type[BaseModel],
    *,
    json_mode: bool = False,
    may_hold_refusals: bool = True,
    stored_with: type[BaseModel] | None = None,
) -> Migrated:
    """One state through the plan, validated with `candidate` before and after the steps.

    A step fixes the state when the candidate had an error at the step's path just before
    it and none there just after it (steps in plan order). A state is validated again
    only when a step changed it where it had an error; between steps only where the errors
    are is kept, and the error rows (each input cut) are made once, for a state the plan
    leaves broken. `may_hold_refusals=False`: the strict serializer refused nothing while
    the state was read (no step adds a `Refused` marker, so none is searched for). Raises
    `RowProblem` for a state nested too deep to be checked. `stored_with`: the model the
    state was read with; only its fields that can hold the user's model instances are
    turned into the data they hold, as the audit does (None: every field is walked).

    Example:
        >>> from core.order import SEED_PAYLOAD
        >>> from core.stores.demo import CandidateState  # amount at most 500
        >>> from core.migrate.plan import Step
        >>> plan = Plan(steps=[Step(path="amount", action="map", **{"from": 750, "to": 500})])
        >>> result = migrated(plan, {**SEED_PAYLOAD, "amount": 750}, CandidateState)
        >>> result.changed, result.fixed, result.broken_before, result.errors
        ([['amount']], [0], True, [])
    """
    try:
        check = _Check(candidate, json_mode, may_hold_refusals and bool(find_refused(state)))
        if not json_mode:  # the user's model instances as the data they hold, once for all
            state = plain_data(state) if stored_with is None else plain_fields(state, stored_with)
    except RecursionError:
        raise RowProblem(ErrorCode.ROW_TOO_DEEP, TOO_DEEP) from None
    first = check.locations(state)
    errors: _Locations | None = first
    changed_by: list[list[str]] = []
    fixed_by: list[int] = []
    for index, step in enumerate(plan.steps):
        after_step, changed = apply_step(step, state)
        changed_by.append(changed)
        if changed:
            if errors is None:  # stale after an earlier change: the state before this step
                errors = check.locations(state)
            if _at(errors, step):
                errors = check.locations(after_step)
                if not _at(errors, step):
                    fixed_by.append(index)
            else:
                errors = None
        state = after_step
    final = errors if errors is not None else check.locations(state)
    rows = check.errors(state) if final else []
    return Migrated(state, changed_by, fixed_by, bool(first), rows)


@dataclass(slots=True)
class _Check:
    """The candidate's verdict on a state, as `state_errors` (or `json_state_errors`) gives
    it; `refused`: the state holds a `Refused` marker (each is an error of its own)."""

    candidate: type[BaseModel]
    json_mode: bool
    refused: bool

    def errors(self, value: Any) -> list[dict[str, Any]]:
        if self.json_mode:
            return json_state_errors(value, self.candidate)
        return state_errors(value, self.candidate, may_hold_refusals=self.refused)

    def locations(self, value: Any) -> _Locations:
        """Where the candidate rejects the state: Pydantic's own errors without their inputs
        where it can (an error row dumps its input: for a missing field, the whole state),
        the rows' locations otherwise."""
        if not (self.json_mode or self.refused):
            try:
                self.candidate.model_validate(value)
            except ValidationError as exc:
                found = exc.errors(include_url=False, include_context=False, include_input=False)
                return [tuple(error["loc"]) for error in found]
            except Exception:  # noqa: BLE001 - a validator raised: state_errors pins it
                pass
            else:
                return []
        return [tuple(error.get("loc", ())) for error in self.errors(value)]


def _at(errors: _Locations, step: Step) -> bool:
    """Whether any error sits at (or under) a path the step works on."""
    paths = _paths(step.path, str(step.to) if step.action == "rename" else None)
    return any(_under(loc, path) for loc in errors for path in paths)


@lru_cache(maxsize=256)  # asked for each step of each state: the plan's few paths, split once
def _paths(path: str, renamed_to: str | None) -> tuple[list[str], ...]:
    """The step's path as segments; a rename's new name too (the old name is then extra,
    the new one missing)."""
    parts = split_path(path)
    return (parts, [*parts[:-1], renamed_to]) if renamed_to is not None else (parts,)


def _under(loc: tuple[Any, ...], path: list[str]) -> bool:
    if not loc:
        return False
    first = loc[0]  # most errors sit under another field: told apart by the first part
    if first != path[0] and path[0] != "[*]" and not (isinstance(first, str) and first[-1:] == "]"):
        return False
    located = [part for part in loc if not (isinstance(part, str) and part.endswith("]"))]
    if len(located) < len(path):
        return False
    return all(
        isinstance(part, int) if want == "[*]" else part == want
        for want, part in zip(path, located, strict=False)
    )
