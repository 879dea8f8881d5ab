"""A plan applied to one stored state: a new state, copied only where a step changed it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from core.migrate.plan import Plan, Step
from core.migrate.rewrite import rewrite

__all__ = ["Applied", "apply_plan", "apply_step"]


@dataclass(frozen=True)
class Applied:
    """A migrated state and, per step of the plan, the concrete paths that step changed."""

    state: dict[str, Any]
    changed: list[list[str]]


def apply_step(step: Step, state: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The state after one step, and the paths it changed ("items.0.sku"; a rename names
    the old one). The input is never changed; what is not changed is shared, not copied.

    A path whose parent is missing, or is not an object or a list, is skipped. A Pydantic
    model instance on the way (LangGraph's savers decode nested models and LangChain
    messages as instances) is read as its data, its fields and extras, and becomes that
    data as a dict only where the step changes something inside it.

    Example:
        >>> state = {"items": [{"sku": "A-1", "qty": "2"}, {"sku": "B-2", "qty": 3}]}
        >>> apply_step(Step(path="items[*].qty", action="coerce", to="int"), state)
        ({'items': [{'sku': 'A-1', 'qty': 2}, {'sku': 'B-2', 'qty': 3}]}, ['items.0.qty'])
        >>> state["items"][0]["qty"]
        '2'
    """
    if not step.answered:  # its `to` or `value` is still the user's to write: no change
        return state, []
    after, changed = rewrite(
        state,
        step.path,
        step.action,
        value=step.value,
        from_=step.from_,
        to=step.to,
        fields=_fields_of,
    )
    return after, changed


def apply_plan(plan: Plan, state: dict[str, Any]) -> Applied:
    """The state after every step of the plan in order; the input is never changed.

    Example:
        >>> from core.migrate.plan import parse_plan
        >>> plan = parse_plan('''
        ... [[step]]
        ... path = "status"
        ... action = "map"
        ... from = "shipped"
        ... to = "done"
        ...
        ... [[step]]
        ... path = "currency"
        ... action = "default"
        ... value = "EUR"
        ... ''')
        >>> applied = apply_plan(plan, {"status": "shipped", "currency": "USD"})
        >>> applied.state, applied.changed
        ({'status': 'done', 'currency': 'USD'}, [['status'], []])
    """
    changed = []
    for step in plan.steps:
        state, paths = apply_step(step, state)
        changed.append(paths)
    return Applied(state=state, changed=changed)


def _fields_of(node: Any) -> dict[str, Any] | None:
    """An object's fields: a dict itself, a model instance's data; None for anything else."""
    if isinstance(node, dict):
        return node
    if isinstance(node, BaseModel):
        return {**node.__dict__, **(node.__pydantic_extra__ or {})}
    return None
