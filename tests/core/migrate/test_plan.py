"""core.migrate.plan: every action read, every refusal coded at its line, and TOML round trips."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.migrate.plan import (
    COERCIONS,
    MAX_PLAN_BYTES,
    MAX_STEPS,
    MAX_VALUE_DEPTH,
    Plan,
    PlanError,
    Step,
    parse_plan,
    plan_toml,
    split_path,
)

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

EVERY_ACTION = """\
[[step]]
path = "priority"
action = "default"
value = "normal"

[[step]]
path = "items[*].legacy"
action = "drop"

[[step]]
path = "status"
action = "map"
from = "shipped"
to = "done"

[[step]]
path = "orders[*].lines[*].code"
action = "rename"
to = "sku"

[[step]]
path = "amount"
action = "coerce"
to = "float"

[[step]]
path = "note"
action = "map"
from_json = "null"
to_json = "[\\"\\", {\\"a\\": null}]"

[[step]]
path = "tags"
action = "default"
value_json = "null"
"""


def test_every_action_is_read_with_the_parameters_it_needs():
    assert parse_plan(EVERY_ACTION) == Plan(
        steps=[
            Step(path="priority", action="default", value="normal"),
            Step(path="items[*].legacy", action="drop"),
            Step(path="status", action="map", from_="shipped", to="done"),
            Step(path="orders[*].lines[*].code", action="rename", to="sku"),
            Step(path="amount", action="coerce", to="float"),
            Step(path="note", action="map", from_=None, to=["", {"a": None}]),
            Step(path="tags", action="default", value=None),
        ]
    )


def test_an_empty_text_is_an_empty_plan_and_writes_back_empty():
    assert (parse_plan(""), plan_toml(Plan())) == (Plan(steps=[]), "")


def test_the_text_written_names_only_the_keys_each_action_uses_and_nulls_as_json():
    plan = parse_plan(EVERY_ACTION)
    notes = {0: "new field\nwith a default", 4: "was a string"}
    assert plan_toml(plan, notes) == (
        "# new field\n# with a default\n"
        '[[step]]\npath = "priority"\naction = "default"\nvalue = "normal"\n\n'
        '[[step]]\npath = "items[*].legacy"\naction = "drop"\n\n'
        '[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\nto = "done"\n\n'
        '[[step]]\npath = "orders[*].lines[*].code"\naction = "rename"\nto = "sku"\n\n'
        '# was a string\n[[step]]\npath = "amount"\naction = "coerce"\nto = "float"\n\n'
        '[[step]]\npath = "note"\naction = "map"\nfrom_json = "null"\n'
        'to_json = "[\\"\\", {\\"a\\": null}]"\n\n'
        '[[step]]\npath = "tags"\naction = "default"\nvalue_json = "null"\n'
    )
    assert parse_plan(plan_toml(plan, notes)) == plan


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (
            '[[step]]\npath = "a"\naction = \n',
            "plan_toml",
            "Invalid value (at line 3, column 10); fix the TOML there.",
        ),
        (
            '[[step]]\npath = "a"\naction = "drop"\n\n[options]\nx = 1\n',
            "plan_toml",
            "line 5: unknown table or key 'options'; a plan holds only `id`, `after`, `model` and "
            "[[step]] tables.",
        ),
        (
            '[[step]]\npath = "a"\naction = "drop"\n\n[[step]]\npath = "b"\naction = "squash"\n',
            "plan_step",
            "line 7: step 2 (its [[step]] at line 5): action: Input should be 'default', 'drop', 'map', 'rename' or "
            "'coerce'.",
        ),
        (
            '[[step]]\npath = "items[0].sku"\naction = "drop"\n',
            "plan_step",
            "line 2: step 1 (its [[step]] at line 1): path: String should match pattern "
            "'^[A-Za-z_][A-Za-z0-9_]*(\\[\\*\\])?(\\.[A-Za-z_][A-Za-z0-9_]*(\\[\\*\\])?)*$'.",
        ),
        (
            '[[step]]\naction = "drop"\n',
            "plan_step",
            "line 1: step 1: path: Field required.",
        ),
        (
            '[[step]]\npath = "a"\naction = "drop"\nwhy = "old"\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): why: Extra inputs are not permitted.",
        ),
        (
            '[[step]]\npath = "a"\naction = "rename"\nto = "b.c"\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): a rename needs `to`: the field's new name.",
        ),
        (
            '[[step]]\npath = "a"\naction = "coerce"\nto = "date"\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): a coerce needs `to`: one of int, float, str, "
            "bool.",
        ),
        (
            '[[step]]\npath = "a"\naction = "map"\nto = 1\n',
            "plan_step",
            "line 1: step 1: a map needs `from` and `to`: the old value and the new one.",
        ),
        (
            '\n[[step]]\npath = "a"\naction = "default"\nvalue_json = "{nope"\n',
            "plan_step",
            "line 5: step 1 (its [[step]] at line 2): value_json: write the value as JSON text nested at most 64 "
            'levels, e.g. value_json = "null".',
        ),
        (
            '[[step]]\npath = "a"\naction = "map"\nfrom_json = 1\nto = 2\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): from_json: write the value as JSON text nested at most 64 "
            'levels, e.g. from_json = "null".',
        ),
        (
            '[[step]]\npath = "a"\naction = "default"\nvalue_json = "'
            + "[" * 5000
            + "]" * 5000
            + '"\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): value_json: write the value as JSON text nested at most 64 "
            'levels, e.g. value_json = "null".',
        ),
        (
            '[[step]]\npath = "a"\naction = "default"\nvalue = 2024-01-31\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): value: write the value as JSON data, not a "
            "TOML date (a date "
            'as a string: "2024-01-31").',
        ),
        (
            '[[step]]\npath = "a"\naction = "map"\nfrom = [07:32:00]\nto = 1\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): from: write the value as JSON data, not a "
            "TOML time (a date as "
            'a string: "2024-01-31").',
        ),
        (
            '[[step]]\npath = "a"\naction = "default"\nvalue = '
            + "[" * (MAX_VALUE_DEPTH + 1)
            + "]" * (MAX_VALUE_DEPTH + 1)
            + "\n",
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): value: the value nests deeper than 64 levels; flatten it.",
        ),
        (
            "x = " + "[" * 5000 + "]" * 5000 + "\n",
            "plan_toml",
            "the plan nests arrays or tables too deeply; flatten them.",
        ),
        (
            '[[step]]\npath = "a"\naction = "default"\nvalue = ' + "1" * 5000 + "\n",
            "plan_toml",
            "a number in the plan has too many digits; shorten it.",
        ),
        (
            "step = [1]\n",
            "plan_step",
            "line 1: step 1: Input should be a valid dictionary or instance of Step.",
        ),
        (
            '[[step]]\npath = "a"\naction = "drop"\n' * (MAX_STEPS + 1),
            "plan_step",
            "the plan has more than 200 steps; split it.",
        ),
        (
            "# " + "x" * MAX_PLAN_BYTES + "\n",
            "plan_toml",
            "the plan is over 200,000 bytes; shorten it.",
        ),
    ],
    ids=[
        "not-toml",
        "unknown-table",
        "unknown-action-at-the-second-step",
        "an-index-is-not-a-path",
        "no-path",
        "unknown-key",
        "rename-to-a-path",
        "coerce-to-an-unknown-type",
        "map-without-from",
        "value-json-not-json",
        "from-json-not-text",
        "value-json-too-deep-for-the-parser",
        "a-toml-date",
        "a-toml-time-inside-a-list",
        "value-one-level-too-deep",
        "toml-too-deep-for-the-parser",
        "an-integer-too-long-for-python",
        "step-not-a-table",
        "too-many-steps",
        "too-large",
    ],
)
def test_each_refusal_has_its_code_and_names_the_line_to_fix(text, code, message):
    with pytest.raises(PlanError) as caught:
        parse_plan(text)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_the_limits_themselves_are_allowed():
    deepest = "[" * MAX_VALUE_DEPTH + "]" * MAX_VALUE_DEPTH
    steps = '[[step]]\npath = "a"\naction = "drop"\n' * MAX_STEPS
    text = steps + f'[[step]]\npath = "a"\naction = "default"\nvalue = {deepest}\n'
    with pytest.raises(PlanError):  # one step over the count; the depth alone is fine
        parse_plan(text)
    assert parse_plan(text.split("\n", 3)[3]).steps[-1].value == json.loads(deepest)
    padded = "#" * (MAX_PLAN_BYTES - 1) + "\n"
    assert parse_plan(padded) == Plan()


def test_a_path_splits_into_names_and_every_element_marks():
    assert [split_path(p) for p in ("a", "items[*].sku", "orders[*].lines[*].qty")] == [
        ["a"],
        ["items", "[*]", "sku"],
        ["orders", "[*]", "lines", "[*]", "qty"],
    ]


names = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,5}", fullmatch=True)
paths = st.lists(st.tuples(names, st.booleans()), min_size=1, max_size=4).map(
    lambda parts: ".".join(name + ("[*]" if every else "") for name, every in parts)
)
# JSON data as a state holds it (no NaN: it never equals itself, so no plan would)
json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False)
    | st.text(st.characters(exclude_categories=["Cs"])),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=12,
)
steps = st.one_of(
    st.builds(Step, path=paths, action=st.just("default"), value=json_values),
    st.builds(Step, path=paths, action=st.just("drop")),
    st.builds(Step, path=paths, action=st.just("map"), from_=json_values, to=json_values),
    st.builds(Step, path=paths, action=st.just("rename"), to=names),
    st.builds(Step, path=paths, action=st.just("coerce"), to=st.sampled_from(COERCIONS)),
)
plans = st.lists(steps, max_size=6).map(lambda s: Plan(steps=s))


def _exact(plan: Plan) -> str:
    """The plan as JSON: tells 1 from 1.0 and from true, which == does not."""
    return json.dumps([step.as_toml() for step in plan.steps])


@FAST
@given(plans)
def test_any_plan_reads_back_from_the_toml_it_writes(plan):
    again = parse_plan(plan_toml(plan))
    assert (again, _exact(again)) == (plan, _exact(plan))


def test_a_delete_character_is_escaped_since_toml_forbids_it_raw():
    plan = Plan(steps=[Step(path="a", action="default", value={"k\x7f": "x\x7fy"})])
    assert (
        plan_toml(plan)
        == '[[step]]\npath = "a"\naction = "default"\nvalue = {"k\\u007f" = "x\\u007fy"}\n'
    )
    assert parse_plan(plan_toml(plan)) == plan


def test_a_plan_carries_its_id_the_id_it_follows_and_its_model():
    plan = parse_plan('id = "v3"\nafter = "v2"\nmodel = "pkg.mod:Old"\n\n[[step]]\n'
                      'path = "a"\naction = "drop"\n')  # fmt: skip
    assert (plan.id, plan.after, plan.model, len(plan.steps)) == ("v3", "v2", "pkg.mod:Old", 1)


@pytest.mark.parametrize(
    ("text", "code", "message"),
    [
        (
            'id = "v3"\nafter = "v2"\nmodel = "no colon"\n',
            "plan_toml",
            "line 3: model: String should match pattern "
            "'^[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*$' (a model as "
            '"package.module:Class").',
        ),
        (
            'id = "v 3"\n',
            "plan_toml",
            "line 1: id: String should match pattern '^[A-Za-z0-9_][A-Za-z0-9_.\\-]{0,99}$'.",
        ),
        (  # the finding: line 5, not the header's line 4
            '# a plan\nid = "v2"\n\n[[step]]\naction = "explode"\npath = "a"\n',
            "plan_step",
            "line 5: step 1 (its [[step]] at line 4): action: Input should be 'default', "
            "'drop', 'map', 'rename' or 'coerce'.",
        ),
        (
            '[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\n',
            "plan_step",
            "line 1: step 1: a map needs `to` (the new value); write it, or mark the step "
            'answer = "to" to leave it open.',
        ),
        (
            '[[step]]\npath = "currency"\naction = "default"\n',
            "plan_step",
            "line 1: step 1: a default needs `value` (the value to fill in); write it, or mark "
            'the step answer = "value" to leave it open.',
        ),
        (
            '[[step]]\npath = "a"\naction = "drop"\nanswer = "to"\n',
            "plan_step",
            "line 4: step 1 (its [[step]] at line 1): `answer` marks a map's `to` or a "
            "default's `value` as still to be answered.",
        ),
    ],
    ids=[
        "model-spec",
        "id-spaces",
        "value-line",
        "map-without-to",
        "default-without-value",
        "answer-on-a-drop",
    ],  # fmt: skip
)
def test_header_and_answer_refusals_name_their_line(text, code, message):
    with pytest.raises(PlanError) as caught:
        parse_plan(text)
    assert (caught.value.code, caught.value.message) == (code, message)


def test_a_step_marked_to_answer_reads_back_as_written():
    text = ('id = "v2"\n\n[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\n'
            'answer = "to"\n\n[[step]]\npath = "note"\naction = "default"\nvalue = "x"\n'
            'answer = "value"\n')  # fmt: skip
    plan = parse_plan(text)
    assert [(s.answered, s.as_toml()) for s in plan.steps] == [
        (False, {"path": "status", "action": "map", "from": "shipped", "answer": "to"}),
        (False, {"path": "note", "action": "default", "value": "x", "answer": "value"}),
    ]
    assert parse_plan(plan_toml(plan)).steps == plan.steps


def test_a_chained_plan_is_written_with_its_header():
    plan = parse_plan('id = "v3"\nafter = "v2"\n\n[[step]]\npath = "a"\naction = "drop"\n')
    assert plan_toml(plan) == 'id = "v3"\nafter = "v2"\n\n[[step]]\npath = "a"\naction = "drop"\n'
    assert parse_plan(plan_toml(plan)) == plan
