"""propose: the plan, notes, asked steps and warnings for each way a team changes its model."""

import copy
import enum
import importlib
import sys
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

import pytest
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from core.migrate.plan import Plan, Step, parse_plan, plan_toml, split_path
from core.migrate.propose import Proposal, propose
from core.order import SEED_PAYLOAD, AgentState

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "fixtures"))
migrations = importlib.import_module("candidates.migrations")
OrderV2 = importlib.import_module("candidates.order_v2").OrderV2

OLD_ORDER = AgentState.model_validate(SEED_PAYLOAD).model_dump(mode="json")


def _default(path: str, value: Any, *, to_answer: bool = False) -> Step:
    return Step(path=path, action="default", value=value, answer="value" if to_answer else None)


def _open_default(path: str) -> Step:
    return Step(path=path, action="default", answer="value")


def _map(path: str, old: Any, new: Any) -> Step:
    return Step.model_validate({"path": path, "action": "map", "from": old, "to": new})


def _open_map(path: str, old: Any) -> Step:
    return Step.model_validate({"path": path, "action": "map", "from": old, "answer": "to"})


def _apply(plan: Plan, state: dict[str, Any]) -> dict[str, Any]:
    """The plan's five actions done by hand on a plain state (core.migrate.apply does it for
    real): the reference the proposals are checked against."""
    state = copy.deepcopy(state)
    convert = {"int": int, "float": float, "str": str, "bool": bool}
    for step in plan.steps:
        if step.answer is not None:  # left for the user to answer: it changes nothing
            continue
        for holder, key in _slots(state, split_path(step.path)):
            present = key in holder if isinstance(holder, dict) else True
            if step.action == "default" and not present:
                holder[key] = step.value
            elif step.action == "drop" and present:
                del holder[key]
            elif step.action == "map" and present and holder[key] == step.from_:
                holder[key] = step.to
            elif step.action == "rename" and present:
                holder[step.to] = holder.pop(key)
            elif step.action == "coerce" and present:
                holder[key] = convert[step.to](holder[key])
    return state


def _slots(node: Any, parts: list[str]) -> list[tuple[Any, Any]]:
    """(container, key) for every place the path's parts name in `node`."""
    head, rest = parts[0], parts[1:]
    if head == "[*]":
        keys: list[Any] = list(range(len(node))) if isinstance(node, list) else []
    else:
        keys = [head] if isinstance(node, dict) else []
    if not rest:
        return [(node, key) for key in keys]
    return [
        slot for key in keys if head == "[*]" or key in node for slot in _slots(node[key], rest)
    ]


def _answered(proposal: Proposal, answers: dict[int, Any]) -> Plan:
    """The plan once the user has answered: `answers` gives a step's `to` or `value`; a
    step left to answer with a proposed value keeps it (the `answer` mark removed)."""
    steps = []
    for index, step in enumerate(proposal.plan.steps):
        if step.answer is not None:
            chosen = answers.get(index, getattr(step, step.answer))
            step = step.model_copy(update={step.answer: chosen, "answer": None})
        steps.append(step)
    return Plan(step=steps)


def _field(model: type[BaseModel], path: str) -> TypeAdapter[Any]:
    """The candidate's field at `path`, found by hand: its annotation and its Field()."""
    *outer, name = [part for part in split_path(path) if part != "[*]"]
    for part in outer:
        model = get_args(model.model_fields[part].annotation)[0]  # list[Item] -> Item
    field = model.model_fields[name]
    return TypeAdapter(Annotated[field.annotation, field])


def _check(proposal: Proposal, candidate: type[BaseModel], states, answers=None) -> None:
    """Every proposed default validates as the candidate's field; the plan (with the asked
    values answered) carries each old state to one the candidate accepts; TOML round-trips."""
    for step in proposal.plan.steps:
        if step.action == "default" and step.answer is None:
            _field(candidate, step.path).validate_python(step.value)
    plan = _answered(proposal, answers or {})
    for state in states:
        candidate.model_validate(_apply(plan, state))
    assert parse_plan(plan_toml(proposal.plan, proposal.notes)) == proposal.plan


def test_an_unchanged_model_needs_no_step():
    assert propose(AgentState, AgentState) == Proposal(plan=Plan())


def test_a_tighter_bound_and_a_field_with_a_default_are_a_warning_and_nothing():
    assert propose(AgentState, OrderV2) == Proposal(
        plan=Plan(),
        warnings=["`amount` is narrower in the candidate (le: 1000000 -> 200): some stored values may fail, and the preview counts them."],
    )  # fmt: skip


def test_new_required_fields_get_a_value_their_type_accepts_or_are_asked_for():
    candidate = migrations.OrderWithNewFields
    proposal = propose(AgentState, candidate)

    assert proposal == Proposal(
        plan=Plan(step=[
            _default("items[*].note", "", to_answer=True),
            _default("priority", "normal", to_answer=True),
            _default("currency", "EUR", to_answer=True),
            _default("attempts", 1, to_answer=True),
            _default("discount", 0.5, to_answer=True),
            _default("coupon", None, to_answer=True),
            _open_default("approved_by"),
        ]),
        notes={
            0: '`items[*].note` is new and required in the candidate: "" (an empty string) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.',
            1: '`priority` is new and required in the candidate: "normal" (the first of its allowed values) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.',
            2: '`currency` is new and required in the candidate: "EUR" (its first example) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.',
            3: "`attempts` is new and required in the candidate: 1 (the value nearest 0 its bounds allow) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.",
            4: "`discount` is new and required in the candidate: 0.5 (the middle of its bounds) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.",
            5: "`coupon` is new and required in the candidate: null (it accepts None) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.",
            6: "`approved_by` is new and required in the candidate: none could be made up; write its `value` and remove `answer`.",
        },
        asked=[0, 1, 2, 3, 4, 5, 6],
    )  # fmt: skip
    _check(proposal, candidate, [OLD_ORDER], answers={6: "ops@example.com"})


def test_a_removed_field_is_dropped_where_extra_keys_are_forbidden_and_left_where_ignored():
    candidate = migrations.OrderWithoutLogs
    proposal = propose(AgentState, candidate)

    assert proposal == Proposal(
        plan=Plan(step=[Step(path="logs", action="drop")]),
        notes={0: "`logs` is gone from the candidate, which forbids extra keys: it is dropped."},
        warnings=["`items[*].unit_price` is gone from the candidate, which does not forbid extra keys: stored values of it still validate; add a drop step to remove them."],
    )  # fmt: skip
    _check(proposal, candidate, [{**OLD_ORDER, "logs": ["placed", "paid"]}])


def test_a_narrowed_literal_maps_each_removed_member_asking_unless_only_the_case_changed():
    candidate = migrations.OrderWithFewerStatuses
    proposal = propose(AgentState, candidate)

    assert proposal == Proposal(
        plan=Plan(step=[
            _open_map("status", "validated"),
            _map("status", "confirmed", "CONFIRMED"),
        ]),
        notes={
            0: '"validated" is no longer allowed at `status`: write what it becomes in `to` and remove `answer` (nothing is guessed: until then it changes nothing and its threads stay broken).',
            1: '"confirmed" is no longer allowed at `status`: it becomes "CONFIRMED", the same text in another case.',
        },
        asked=[0],
    )  # fmt: skip
    states = [{**OLD_ORDER, "status": status} for status in ("pending", "validated", "confirmed")]
    _check(proposal, candidate, states, answers={0: "pending"})
    assert [_apply(proposal.plan, state)["status"] for state in states] == [
        "pending", "validated", "CONFIRMED"
    ]  # fmt: skip


def test_a_removed_and_an_added_field_of_the_same_type_are_a_rename_to_confirm():
    candidate = migrations.OrderWithHistory
    proposal = propose(AgentState, candidate)

    assert proposal == Proposal(
        plan=Plan(step=[Step(path="logs", action="rename", to="history")]),
        notes={0: "`logs` is gone and `history` is new, of the same type: keep this step if it is a rename, else write a drop and a default instead."},
        asked=[0],
    )  # fmt: skip
    _check(proposal, candidate, [{**OLD_ORDER, "logs": ["placed"]}])
    assert _apply(proposal.plan, {**OLD_ORDER, "logs": ["placed"]})["history"] == ["placed"]


def test_a_list_items_field_retyped_is_coerced_and_a_new_pattern_is_a_warning():
    candidate = migrations.OrderWithCatalogItems
    proposal = propose(AgentState, candidate)

    assert proposal == Proposal(
        plan=Plan(step=[Step(path="items[*].qty", action="coerce", to="str")]),
        notes={0: "`items[*].qty` was int and is str in the candidate: stored values are converted where nothing is lost."},
        warnings=[
            "`items[*].sku` is narrower in the candidate (pattern: '^[A-Z0-9-]+$' -> '^SKU-[0-9]+$'): some stored values may fail, and the preview counts them.",
            "`items[*].qty` is narrower in the candidate (pattern: none -> '^[0-9]{1,2}$'): some stored values may fail, and the preview counts them.",
        ],
    )  # fmt: skip
    _check(proposal, candidate, [OLD_ORDER])
    assert _apply(proposal.plan, OLD_ORDER)["items"] == [
        {"sku": "SKU-01", "qty": "2", "unit_price": 49.5}
    ]


def test_a_message_state_is_fields_like_any_other():
    chat = {"messages": [{"type": "human", "content": "hi", "id": "1"}], "turn": 3}
    proposal = propose(migrations.ChatState, migrations.ChatStateWithSummary)

    assert proposal == Proposal(
        plan=Plan(step=[
            Step(path="turn", action="rename", to="turns"),
            _default("summary", "", to_answer=True),
        ]),
        notes={
            0: "`turn` is gone and `turns` is new, of the same type: keep this step if it is a rename, else write a drop and a default instead.",
            1: '`summary` is new and required in the candidate: "" (an empty string) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.',
        },
        asked=[0, 1],
        warnings=["`messages` is narrower in the candidate (max_length: none -> 50): some stored values may fail, and the preview counts them."],
    )  # fmt: skip
    _check(proposal, migrations.ChatStateWithSummary, [chat])
    assert _apply(proposal.plan, chat)["turns"] == 3
    # add_messages is how LangGraph merges updates, not what validates: no change to migrate
    assert propose(migrations.ChatState, migrations.ChatStateWithoutReducer) == Proposal(
        plan=Plan()
    )


class Wrap(enum.Enum):
    GIFT = "gift"
    FRAGILE = "fragile"
    BULK = "bulk"


class SlimWrap(enum.Enum):
    GIFT = "Gift"
    BULK = "bulk"


class Parcel(BaseModel):
    wraps: list[Wrap]
    grid: list[list[Literal["a", "b"]]] = []
    weight: float | None = None
    size: int = 1


class SlimParcel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    wraps: list[SlimWrap]
    grid: list[list[Literal["a"]]] = []
    weight: float
    size: int = Field(ge=1)  # required now


class Shipment(BaseModel):
    parcels: list[Parcel]
    label: str


class SlimShipment(BaseModel):
    parcels: list[SlimParcel]
    label: str


def test_enums_inside_nested_lists_map_per_element_and_a_list_of_lists_only_warns():
    """Enum members compared by value; fields that had a default and are required now."""
    proposal = propose(Shipment, SlimShipment)

    assert proposal == Proposal(
        plan=Plan(step=[
            _map("parcels[*].wraps[*]", "gift", "Gift"),
            _open_map("parcels[*].wraps[*]", "fragile"),
            # a stored Wrap.BULK is refused by SlimWrap (another class): written as its text
            _map("parcels[*].wraps[*]", "bulk", "bulk"),
            _default("parcels[*].weight", 0.0, to_answer=True),
            _default("parcels[*].size", 1),
        ]),
        notes={
            0: '"gift" is no longer allowed at `parcels[*].wraps[*]`: it becomes "Gift", the same text in another case.',
            1: '"fragile" is no longer allowed at `parcels[*].wraps[*]`: write what it becomes in `to` and remove `answer` (nothing is guessed: until then it changes nothing and its threads stay broken).',
            2: '"bulk" at `parcels[*].wraps[*]` is stored as a member of an Enum class, which the candidate refuses though it accepts the value: the map writes its text.',
            3: "`parcels[*].weight` had a default and is now required in the candidate: 0.0 (the value nearest 0 its bounds allow) is only a value it accepts, not one that means anything: write the right `value` (or keep this one) and remove `answer`.",
            4: "`parcels[*].size` had a default and is now required in the candidate: threads stored without it get 1 (its old default).",
        },
        asked=[1, 3],
        warnings=[
            "`parcels[*].weight` is narrower in the candidate (None no longer accepted): some stored values may fail, and the preview counts them.",
            "`parcels[*].size` is narrower in the candidate (ge: none -> 1): some stored values may fail, and the preview counts them.",
            "`parcels[*].grid[*][*]` changed, but no plan path can name it (a list inside a list): no step is proposed, and the preview counts the threads that fail.",
        ],
    )  # fmt: skip
    old = {"parcels": [{"wraps": ["gift", "bulk", "fragile"], "weight": 2.5}], "label": "x"}
    _check(proposal, SlimShipment, [old], answers={1: "bulk"})


def test_a_step_path_is_matched_whole_so_a_list_inside_a_list_has_none():
    # Pydantic searches a Field pattern: plan.py anchors it, or "a[*][*]" would pass
    assert [Step(path="parcels[*].wraps[*]", action="drop").path] == ["parcels[*].wraps[*]"]
    with pytest.raises(ValueError, match="String should match pattern"):
        Step(path="parcels[*].grid[*][*]", action="drop")


class Folder(BaseModel):
    name: str
    children: list["Folder"] = []


class NumberedFolder(BaseModel):
    name: int
    children: list["NumberedFolder"] = []


@pytest.mark.parametrize(
    ("candidate", "warnings"),
    [
        (Folder, []),
        (NumberedFolder, ["`children[*]` holds the same model again: the steps reach only the levels their paths name, and the preview counts the threads deeper levels fail."]),
    ],
)  # fmt: skip
def test_a_model_inside_itself_is_walked_once(candidate, warnings):
    steps = [Step(path="name", action="coerce", to="int")] if warnings else []
    notes = {0: "`name` was str and is int in the candidate: stored values are converted where nothing is lost."}  # fmt: skip

    assert propose(Folder, candidate) == Proposal(
        plan=Plan(step=steps), notes=notes if warnings else {}, warnings=warnings
    )


class Clock:
    """A type with no JSON schema: Pydantic checks only that a value is one."""


class Calendar:
    pass


class Timed(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    clock: Clock


class Scheduled(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True)
    clock: Calendar


def test_a_type_without_a_json_schema_is_compared_by_the_class_it_names():
    assert propose(Timed, Timed) == Proposal(plan=Plan())
    assert propose(Timed, Scheduled) == Proposal(
        plan=Plan(),
        warnings=[
            f"`clock` changed from core_schema.IsInstanceSchema ({Clock}) to "
            f"core_schema.IsInstanceSchema ({Calendar}): no step converts it; stored values may "
            "fail, and the preview counts them."
        ],
    )


class Order3(BaseModel):
    status: Literal["new", "paid", "shipped"]


class Order3Renamed(BaseModel):
    status: Literal["new", "paid", "fulfilled"]


class Order3Narrowed(BaseModel):
    status: Literal["new", "paid"]


def test_one_removed_and_one_added_member_are_that_pair_never_the_first_member():
    """The issue's finding: "shipped" was proposed to become "new" (the first member)."""
    assert propose(Order3, Order3Renamed) == Proposal(
        plan=Plan(step=[_map("status", "shipped", "fulfilled")]),
        notes={0: '"shipped" is no longer allowed at `status` and "fulfilled" is new: keep this step if it is a rename, else write what it becomes.'},
        asked=[0],
    )  # fmt: skip
    proposal = propose(Order3, Order3Narrowed)
    assert (proposal.plan.steps, proposal.asked) == ([_open_map("status", "shipped")], [0])
    assert _apply(proposal.plan, {"status": "shipped"}) == {"status": "shipped"}
