"""core.migrate.migrated: one state through a plan, judged by the candidate after every step
as `state_errors` judges it, the error rows made once (the preview's and the apply's core)."""

from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.migrate.apply import apply_step
from core.migrate.migrated import migrated
from core.migrate.plan import Plan, Step
from core.order import SEED_PAYLOAD, AgentState
from core.stores.rows import RowProblem
from core.stores.serde import Refused
from core.stores.state import json_state_errors, state_errors

from .oracle import at_step
from .strategies import plans_and_states


class Item(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sku: str = Field(min_length=2)
    qty: int = Field(ge=1)


class Small(BaseModel):
    """A candidate whose fields the strategies' paths name (a, b, items, sku, qty)."""

    model_config = ConfigDict(extra="forbid")

    a: int
    b: Literal["x", "y"] = "x"
    items: list[Item] = Field(default_factory=list, max_length=3)


def _brute(plan: Plan, state: Any, candidate: type[BaseModel]) -> tuple[list[int], bool, list]:
    """The steps that fix the state and its errors after the plan, `state_errors` asked
    before and after every step."""
    errors = first = state_errors(state, candidate)
    fixed = []
    for index, step in enumerate(plan.steps):
        state, _ = apply_step(step, state)
        after = state_errors(state, candidate)
        if at_step(errors, step) and not at_step(after, step):
            fixed.append(index)
        errors = after
    return fixed, bool(first), errors


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(plans_and_states())
def test_the_steps_that_fix_a_state_and_its_errors_are_what_validating_after_each_step_finds(
    plan_and_state,
):
    plan, state = plan_and_state
    result = migrated(plan, state, Small)
    assert (result.fixed, result.broken_before, result.errors) == _brute(plan, state, Small)


def test_a_refused_value_is_an_error_of_its_own_until_a_step_removes_it():
    state = {**SEED_PAYLOAD, "logs": Refused("os.system"), "note": "x"}
    plan = Plan(steps=[Step(path="note", action="drop"), Step(path="logs", action="drop")])
    result = migrated(plan, state, AgentState)
    kept = migrated(Plan(steps=plan.steps[:1]), state, AgentState)
    assert (result.fixed, result.broken_before, result.errors) == ([1], True, [])
    assert (kept.fixed, kept.errors) == ([], state_errors({**SEED_PAYLOAD, "logs": state["logs"]},
                                                         AgentState))  # fmt: skip
    assert [row["type"] for row in kept.errors] == ["refused_value"]


class Picky(BaseModel):
    status: str

    @field_validator("status")
    @classmethod
    def _not_legacy(cls, value: str) -> str:
        if value == "legacy":
            raise RuntimeError("legacy statuses crash this validator")  # not a ValueError
        return value


def test_a_validator_that_crashes_is_pinned_as_state_errors_pins_it_and_a_map_fixes_it():
    plan = Plan(steps=[Step(path="status", action="map", from_="legacy", to="current")])
    crashed = migrated(Plan(), {"status": "legacy"}, Picky)
    result = migrated(plan, {"status": "legacy"}, Picky)
    assert (crashed.errors, crashed.broken_before) == (
        state_errors({"status": "legacy"}, Picky),
        True,
    )
    assert [row["type"] for row in crashed.errors] == ["validator_exception"]
    assert (result.fixed, result.errors, result.state) == ([0], [], {"status": "current"})


def test_a_servers_values_are_judged_as_the_json_they_arrived_as():
    strict = {"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": "99"}

    class Strict(BaseModel):
        model_config = ConfigDict(strict=True)

        user_id: Any
        amount: float

    plan = Plan(steps=[Step(path="amount", action="coerce", to="float")])
    as_json = migrated(Plan(), strict, Strict, json_mode=True)
    coerced = migrated(plan, strict, Strict, json_mode=True)
    assert (as_json.errors, coerced.fixed, coerced.errors) == (
        json_state_errors(strict, Strict),
        [0],
        [],
    )


def test_a_state_nested_too_deep_to_be_checked_is_a_row_problem():
    deep: Any = "x"
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(RowProblem) as problem:
        migrated(Plan(), {"items": deep}, AgentState)
    assert (problem.value.code, problem.value.message) == (
        "row_too_deep",
        "the stored state is nested deeper than can be checked.",
    )


def test_the_migrated_state_holds_the_users_model_instances_as_their_data():
    class Line(BaseModel):
        sku: str
        qty: int

    class Order(BaseModel):
        lines: list[Line]

    class NextLine(BaseModel):
        model_config = ConfigDict(extra="forbid")

        sku: str
        quantity: int

    class NextOrder(BaseModel):
        lines: list[NextLine]

    plan = Plan(steps=[Step(path="lines[*].qty", action="rename", to="quantity")])
    stored = Order(lines=[Line(sku="A", qty=1), Line(sku="B", qty=2)]).__dict__
    result = migrated(plan, stored, NextOrder)
    assert (result.state, result.fixed, result.errors) == (
        {"lines": [{"sku": "A", "quantity": 1}, {"sku": "B", "quantity": 2}]},
        [0],
        [],
    )
