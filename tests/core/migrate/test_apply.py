"""core.migrate.apply: each action at plain, list and nested paths, skips, purity, model instances."""

import copy

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage
from pydantic import BaseModel, ConfigDict

from core.migrate.apply import Applied, apply_plan, apply_step
from core.migrate.plan import Plan, Step, parse_plan, split_path
from core.migrate.rewrite import rewrite
from core.order import LineItem

from .strategies import exact, paths, plans_and_states, states_for, steps

FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ORDER = {
    "status": "shipped",
    "note": None,
    "items": [
        {"sku": "A-1", "qty": "2", "legacy": True},
        {"sku": "B-2", "qty": 3},
        "not an object",
    ],
    "orders": [
        {"lines": [{"qty": "1"}, {"qty": 2.0}]},
        {"lines": []},
        {"no_lines": 1},
        {"lines": [{"qty": "x"}]},
    ],
    "tags": ["1", "two", 3],
}


@pytest.mark.parametrize(
    ("step", "state", "changed"),
    [
        (
            Step(path="priority", action="default", value={"level": ["normal"]}),
            {**ORDER, "priority": {"level": ["normal"]}},
            ["priority"],
        ),
        (Step(path="note", action="default", value="was null"), ORDER, []),
        (
            Step(path="items[*].qty", action="default", value=1),
            {**ORDER, "items": [ORDER["items"][0], ORDER["items"][1], "not an object"]},
            [],
        ),
        (
            Step(path="items[*].legacy", action="default", value=False),
            {
                **ORDER,
                "items": [
                    ORDER["items"][0],
                    {"sku": "B-2", "qty": 3, "legacy": False},
                    "not an object",
                ],
            },
            ["items.1.legacy"],
        ),
        (
            Step(path="items[*].legacy", action="drop"),
            {
                **ORDER,
                "items": [{"sku": "A-1", "qty": "2"}, {"sku": "B-2", "qty": 3}, "not an object"],
            },
            ["items.0.legacy"],
        ),
        (
            Step(path="status", action="map", from_="shipped", to="done"),
            {**ORDER, "status": "done"},
            ["status"],
        ),
        (
            Step(path="note", action="map", from_=None, to=""),
            {**ORDER, "note": ""},
            ["note"],
        ),
        (
            Step(path="tags[*]", action="map", from_=3, to="three"),
            {**ORDER, "tags": ["1", "two", "three"]},
            ["tags.2"],
        ),
        (
            Step(path="orders[*].lines[*].qty", action="coerce", to="int"),
            {
                **ORDER,
                "orders": [
                    {"lines": [{"qty": 1}, {"qty": 2}]},
                    {"lines": []},
                    {"no_lines": 1},
                    {"lines": [{"qty": "x"}]},
                ],
            },
            ["orders.0.lines.0.qty", "orders.0.lines.1.qty"],
        ),
        (
            Step(path="tags[*]", action="coerce", to="int"),
            {**ORDER, "tags": [1, "two", 3]},
            ["tags.0"],
        ),
        (
            Step(path="items[*].sku", action="rename", to="code"),
            {
                **ORDER,
                "items": [
                    {"code": "A-1", "qty": "2", "legacy": True},
                    {"code": "B-2", "qty": 3},
                    "not an object",
                ],
            },
            ["items.0.sku", "items.1.sku"],
        ),
        (Step(path="items[*].sku", action="rename", to="qty"), ORDER, []),
        (Step(path="status", action="rename", to="status"), ORDER, []),
    ],
    ids=[
        "default-sets-a-missing-field",
        "default-leaves-a-null-field",
        "default-leaves-every-present-field",
        "default-fills-only-the-element-missing-it",
        "drop-in-every-element",
        "map-the-old-value",
        "map-null",
        "map-a-list-element",
        "coerce-in-nested-lists",
        "coerce-list-elements",
        "rename-in-every-element",
        "rename-onto-a-taken-name-keeps-both",
        "rename-to-itself",
    ],
)
def test_each_action_changes_exactly_what_it_names(step, state, changed):
    assert apply_step(step, ORDER) == (state, changed)


def test_a_rename_keeps_the_field_where_it_was():
    state, _ = apply_step(Step(path="b", action="rename", to="z"), {"a": 1, "b": 2, "c": 3})
    assert list(state.items()) == [("a", 1), ("z", 2), ("c", 3)]


@pytest.mark.parametrize(
    "path",
    [
        "missing.field",  # the parent is missing
        "status.field",  # the parent is a string
        "note.field",  # the parent is null
        "items.sku",  # the parent is a list, and the path does not say [*]
        "status[*].sku",  # [*] on a string
        "missing[*]",
        "orders[*].no_lines[*].qty",  # no list there in any order but one
        "items[*].sku.deeper",
    ],
)
@pytest.mark.parametrize("action", ["default", "drop", "map", "rename", "coerce"])
def test_a_path_with_no_object_to_change_is_skipped_not_an_error(path, action):
    params = {"map": {"from_": None, "to": 1}, "rename": {"to": "x"}, "coerce": {"to": "int"},
              "default": {"value": 0}}  # fmt: skip
    step = Step(path=path, action=action, **params.get(action, {}))
    state, changed = apply_step(step, ORDER)
    assert (state is ORDER, changed) == (True, [])


@pytest.mark.parametrize("action", ["default", "drop", "rename"])
def test_default_drop_and_rename_act_on_fields_never_on_list_elements(action):
    params = {"rename": {"to": "x"}, "default": {"value": 0}}.get(action, {})
    step = Step(path="tags[*]", action=action, **params)
    assert apply_step(step, ORDER) == (ORDER, [])


@pytest.mark.parametrize(
    ("value", "kind", "expected"),
    [
        ("3", "int", 3),
        ("3.0", "int", 3),
        ("1e3", "int", 1000),
        ("-0", "int", 0),
        (3.0, "int", 3),
        ("2.5", "int", "2.5"),
        (2.5, "int", 2.5),
        ("03", "int", "03"),
        (" 3", "int", " 3"),
        ("3_000", "int", "3_000"),
        ("1e99999999999", "int", "1e99999999999"),
        (True, "int", True),
        ("2.5", "float", 2.5),
        ("2.50", "float", 2.5),
        ("0.1", "float", 0.1),
        (3, "float", 3.0),
        (2**60 + 1, "float", 2**60 + 1),  # no float holds it
        (10**400, "float", 10**400),
        ("1e-400", "float", "1e-400"),  # would round to 0.0
        ("1e400", "float", "1e400"),
        ("12345678901234567890123", "float", "12345678901234567890123"),
        ("nan", "float", "nan"),
        (3, "str", "3"),
        (2.5, "str", "2.5"),
        (True, "str", "true"),
        (None, "str", None),
        ([1], "str", [1]),
        ("true", "bool", True),
        ("false", "bool", False),
        ("True", "bool", "True"),
        (1, "bool", 1),
        ("yes", "bool", "yes"),
    ],
)
def test_coerce_converts_only_what_reads_back_the_same(value, kind, expected):
    step = Step(path="v", action="coerce", to=kind)
    state, changed = apply_step(step, {"v": value})
    assert (state, type(state["v"]), changed) == (
        {"v": expected},
        type(expected),
        [] if state["v"] is value else ["v"],
    )
    assert (changed == []) == (type(value) is type(expected) and value == expected)


@pytest.mark.parametrize(
    ("value", "from_", "mapped"),
    [
        (1, 1, True),
        (1.0, 1, True),
        (True, 1, False),
        (1, True, False),
        (0, False, False),
        (None, None, True),
        ("1", 1, False),
        ([1, {"a": None}], [1.0, {"a": None}], True),
        ([1, {"a": None}], [1, {"a": False}], False),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, True),
        (float("nan"), float("nan"), True),
    ],
)
def test_map_matches_json_equal_values_and_never_a_bool_for_a_number(value, from_, mapped):
    step = Step(path="v", action="map", from_=from_, to="new")
    assert apply_step(step, {"v": value})[1] == (["v"] if mapped else [])


def test_map_onto_the_value_already_there_changes_nothing():
    assert apply_step(Step(path="v", action="map", from_=1.0, to=1), {"v": 1}) == ({"v": 1}, [])
    assert apply_step(Step(path="v", action="map", from_=1, to=1.0), {"v": 1}) == (
        {"v": 1.0},
        ["v"],
    )


def test_the_input_is_never_changed_and_only_the_changed_branch_is_copied():
    before = copy.deepcopy(ORDER)
    state, _ = apply_step(Step(path="orders[*].lines[*].qty", action="coerce", to="int"), ORDER)
    assert ORDER == before
    assert [state["items"] is ORDER["items"], state["tags"] is ORDER["tags"]] == [True, True]
    assert [a is b for a, b in zip(state["orders"], ORDER["orders"], strict=True)] == [
        False,
        True,
        True,
        True,
    ]


def test_a_default_value_is_copied_into_each_state_never_shared():
    step = Step(path="meta", action="default", value={"tags": []})
    first, _ = apply_step(step, {})
    first["meta"]["tags"].append("mutated")
    assert (apply_step(step, {})[0], step.value) == ({"meta": {"tags": []}}, {"tags": []})


PLAN = parse_plan("""
[[step]]
path = "items[*].sku"
action = "rename"
to = "code"

[[step]]
path = "items[*].code"
action = "map"
from = "A-1"
to = "A-01"

[[step]]
path = "status"
action = "map"
from = "shipped"
to = "done"

[[step]]
path = "items[*].qty"
action = "coerce"
to = "int"

[[step]]
path = "items[*].legacy"
action = "drop"

[[step]]
path = "currency"
action = "default"
value = "EUR"
""")


def test_a_plan_applies_its_steps_in_order_and_reports_each_steps_changes():
    assert apply_plan(PLAN, ORDER) == Applied(
        state={
            **ORDER,
            "status": "done",
            "items": [{"code": "A-01", "qty": 2}, {"code": "B-2", "qty": 3}, "not an object"],
            "currency": "EUR",
        },
        changed=[
            ["items.0.sku", "items.1.sku"],
            ["items.0.code"],
            ["status"],
            ["items.0.qty"],
            ["items.0.legacy"],
            ["currency"],
        ],
    )


def test_an_empty_plan_returns_the_state_itself():
    applied = apply_plan(Plan(), ORDER)
    assert (applied.state is ORDER, applied.changed) == (True, [])


class Loose(BaseModel):
    model_config = ConfigDict(extra="allow")

    sku: str


def test_a_model_instance_becomes_its_data_only_where_a_step_changes_inside_it():
    item = LineItem(sku="A-1", qty=2, unit_price=1.5)
    loose = Loose(sku="B-2", colour="red")
    state = {
        "items": [item, loose],
        "messages": [HumanMessage("hi", id="m1"), AIMessage("x", id="m2")],
    }
    applied = apply_plan(
        Plan(
            steps=[
                Step(path="items[*].unit_price", action="default", value=0.0),
                Step(path="items[*].colour", action="map", from_="red", to="rouge"),
                Step(path="messages[*].content", action="map", from_="hi", to="hello"),
                Step(path="messages[*].missing", action="drop"),
            ]
        ),
        state,
    )
    assert applied == Applied(
        state={
            "items": [item, {"sku": "B-2", "colour": "rouge", "unit_price": 0.0}],
            "messages": [
                {
                    "content": "hello",
                    "additional_kwargs": {},
                    "response_metadata": {},
                    "type": "human",
                    "name": None,
                    "id": "m1",
                },
                state["messages"][1],
            ],
        },
        changed=[["items.1.unit_price"], ["items.1.colour"], ["messages.0.content"], []],
    )
    untouched = (applied.state["items"][0], applied.state["messages"][1])
    assert [a is b for a, b in zip(untouched, (item, state["messages"][1]), strict=True)] == [
        True,
        True,
    ]
    assert (loose.colour, state["messages"][0].content) == ("red", "hi")


# Hypothesis: any plan over states shaped after its paths


@FAST
@given(plans_and_states())
def test_any_plan_leaves_its_input_as_it_was_and_reports_a_change_exactly_when_it_made_one(
    plan_and_state,
):
    plan, state = plan_and_state
    before = exact(state)
    after = state
    for step in plan.steps:
        previous = after
        after, changed = apply_step(step, previous)
        assert ((after is previous), len(changed) == len(set(changed))) == (changed == [], True)
    assert (exact(state), exact(apply_plan(plan, state).state)) == (before, exact(after))


@FAST
@given(st.data(), steps)
def test_every_single_step_is_idempotent(data, step):
    state = data.draw(states_for(Plan(steps=[step])))
    once, _ = apply_step(step, state)
    twice, changed = apply_step(step, once)
    assert (exact(twice), changed, twice is once) == (exact(once), [], True)


@FAST
@given(paths)
def test_the_engine_reads_a_path_as_split_path_does(path):
    # rewrite splits paths itself (an exported module imports nothing of ours): the same way
    parts = split_path(path)
    state = 1
    for part in reversed(parts):
        state = [state] if part == "[*]" else {part: state}
    concrete = ".".join("0" if part == "[*]" else part for part in parts)
    assert rewrite(state, path, "coerce", to="str")[1] == [concrete]
