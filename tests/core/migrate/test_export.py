"""core.migrate.export: the module it writes migrates exactly as apply_plan does, imports only
the standard library, passes ruff, keeps every value as data, and works as a before validator."""

import ast
import copy
import itertools
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError, model_validator

from core.migrate.apply import apply_plan
from core.migrate.export import export_module
from core.migrate.plan import Plan, Step, parse_plan, plan_toml
from tests.fixtures.candidates.order_v2 import OrderV2

from .oracle import import_written
from .strategies import exact, plans_and_states

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
_numbers = itertools.count()

PLAN = parse_plan("""
[[step]]
path = "items[*].code"
action = "rename"
to = "sku"

[[step]]
path = "items[*].legacy"
action = "drop"

[[step]]
path = "status"
action = "map"
from = "shipped"
to = "confirmed"

[[step]]
path = "note"
action = "drop"

[[step]]
path = "amount"
action = "coerce"
to = "float"

[[step]]
path = "currency"
action = "default"
value = "USD"
""")
# An order stored before OrderV2: items had a `code`, orders could be "shipped", a note.
OLD_ORDER = {
    "user_id": "550e8400-e29b-41d4-a716-446655440000",
    "amount": "150",
    "status": "shipped",
    "items": [{"code": "SKU-01", "qty": 2, "unit_price": 49.5, "legacy": True}],
    "messages": [{"type": "human", "content": "gift wrap, please"}],
    "note": "gift",
}
# Text that would be code if a value were ever pasted into the module rather than written
# with repr: closing quotes of every kind, line breaks, backslashes, a call with effects.
HOSTILE = (
    "\"\"\"'''\"'\\\n"
    "import pathlib; pathlib.Path('PWNED').write_text('x')\n"
    "\\x00 \x00 \r \u2028 \ud800 {braces} %s $(echo) `tick` # not a comment\n"
    '""" + __import__("os").getcwd() + """'
)


def _load(source: str, directory: Path):
    """The written module, imported from a file as a user would (and then forgotten)."""
    return import_written(source, directory, f"migrate_state_{next(_numbers)}")


@pytest.fixture(scope="module")
def directory(tmp_path_factory):
    return tmp_path_factory.mktemp("exported")


@FAST
@given(plans_and_states())
def test_the_module_migrates_any_state_exactly_as_apply_plan_does(directory, plan_and_state):
    plan, state = plan_and_state
    before = exact(state)
    migrated = _load(export_module(plan), directory).migrate(state)
    assert (exact(migrated), exact(state)) == (exact(apply_plan(plan, state).state), before)


def test_hostile_text_in_every_value_and_the_model_name_stays_data(directory, monkeypatch):
    monkeypatch.chdir(directory)
    plan = Plan(
        steps=[
            Step(path="note", action="default", value={HOSTILE: [HOSTILE, None, float("nan")]}),
            Step(path="status", action="map", from_=HOSTILE, to=HOSTILE + "!"),
            Step(path="x", action="default", value=HOSTILE * 5),
        ]
    )
    source = export_module(plan, model_name=HOSTILE)
    module = _load(source, directory)
    state = {"status": HOSTILE}
    migrated = module.migrate(state)
    named = " ".join(HOSTILE.split()) in " ".join(module.__doc__.split())  # wrapped at spaces
    assert (exact(migrated), named, (directory / "PWNED").exists()) == (
        exact(apply_plan(plan, state).state),
        True,
        False,
    )
    assert migrated["note"][HOSTILE][0] == HOSTILE and migrated["status"] == HOSTILE + "!"
    assert (module.PLAN, plan_toml(parse_plan(module.PLAN))) == (plan_toml(plan),) * 2  # NaN


any_text = st.text(st.characters(exclude_categories=[]), max_size=12)  # lone surrogates too
any_value = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | any_text,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(any_text, children, max_size=3)
    ),
    max_leaves=8,
)


@FAST
@given(any_value, any_text)
def test_any_value_and_any_model_name_come_out_of_the_module_as_they_went_in(
    directory, value, model_name
):
    plan = Plan(steps=[Step(path="v", action="default", value=value)])
    module = _load(export_module(plan, model_name=model_name), directory)
    named = " ".join(model_name.split()) in " ".join(module.__doc__.split())
    assert (exact(module.migrate({})), named) == (exact({"v": value}), True)


def test_the_module_keeps_its_plan_and_imports_only_the_standard_library(directory):
    source = export_module(PLAN, model_name="tests.fixtures.candidates.order_v2:OrderV2")
    module = _load(source, directory)
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert (sorted(imported - sys.stdlib_module_names), module.__all__) == ([], ["PLAN", "migrate"])
    assert (module.PLAN, parse_plan(module.PLAN)) == (plan_toml(PLAN), PLAN)
    assert module.__doc__.splitlines()[:4] == [
        "Migrate stored states to a new model: `migrate(state)` applies a migration plan.",
        "",
        "Written by the State Validation Playground for `tests.fixtures.candidates.order_v2:OrderV2` from",
        "the plan kept below as `PLAN` (TOML: the steps in order, what each does at which path). The",
    ]
    # the use it holds for: code that reads stored dicts itself, not a before validator
    assert (
        "    state = OrderV2.model_validate(migrate(stored_values))" in module.__doc__.splitlines()
    )


def test_migrate_reads_each_step_as_one_call_in_the_plans_order(directory):
    source = export_module(PLAN)
    body = source[source.index("def migrate") : source.index("# How each step")]
    assert body.splitlines() == [
        "def migrate(state: dict[str, Any]) -> dict[str, Any]:",
        '    """The state after the plan\'s steps in order; the state given is not changed."""',
        '    state, _ = rewrite(state, "items[*].code", "rename", to="sku")',
        '    state, _ = rewrite(state, "items[*].legacy", "drop")',
        '    state, _ = rewrite(state, "status", "map", from_="shipped", to="confirmed")',
        '    state, _ = rewrite(state, "note", "drop")',
        '    state, _ = rewrite(state, "amount", "coerce", to="float")',
        '    state, _ = rewrite(state, "currency", "default", value="USD")',
        "    return state",
        "",
        "",
    ]


def test_an_empty_plan_writes_a_module_that_returns_the_state_as_it_is(directory):
    module = _load(export_module(Plan()), directory)
    state = {"a": [1]}
    assert (module.PLAN, module.migrate(state) is state) == ("", True)


@pytest.mark.parametrize(
    "rules",
    [
        [],  # ruff's own defaults
        ["--select", "E,W,F,I,B,UP,S307", "--line-length", "100"],  # this project's rules
    ],
    ids=["ruff-defaults", "project-rules"],
)
def test_the_written_module_passes_ruff(directory, rules):
    long_value = {"sku": ["A-" + "0" * 150, "word " * 40], "nested": [[list(range(30))]]}
    plans = {
        "order": PLAN,
        "empty": Plan(),
        "long": Plan(steps=[Step(path="a" * 120, action="default", value=long_value)]),
        "hostile": Plan(steps=[Step(path="a", action="map", from_=HOSTILE, to=[HOSTILE])]),
    }
    for name, plan in plans.items():
        (directory / f"ruff_{name}.py").write_text(
            export_module(plan, model_name=HOSTILE if name == "hostile" else "OrderV2"),
            encoding="utf-8",
        )
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--isolated",
            "--no-cache",
            "--target-version",
            "py311",
        ]
        + rules
        + sorted(str(p) for p in directory.glob("ruff_*.py")),
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (0, "All checks passed!\n")


def _migrated_model(module):
    """OrderV2 with the exported module as its before validator, as the docstring shows."""

    class MigratedOrder(OrderV2):
        @model_validator(mode="before")
        @classmethod
        def _migrate_stored_state(cls, data):
            return module.migrate(data) if isinstance(data, dict) else data

    return MigratedOrder


def test_on_a_dict_read_by_its_own_code_it_makes_an_old_state_validate_under_the_new_model(
    directory,
):
    with pytest.raises(ValidationError) as caught:
        OrderV2.model_validate(OLD_ORDER)
    assert caught.value.errors(include_url=False) == [
        {
            "type": "literal_error",
            "loc": ("status",),
            "msg": "Input should be 'pending', 'validated' or 'confirmed'",
            "input": "shipped",
            "ctx": {"expected": "'pending', 'validated' or 'confirmed'"},
        },
        {
            "type": "missing",
            "loc": ("items", 0, "sku"),
            "msg": "Field required",
            "input": {"code": "SKU-01", "qty": 2, "unit_price": 49.5, "legacy": True},
        },
        {
            "type": "extra_forbidden",
            "loc": ("note",),
            "msg": "Extra inputs are not permitted",
            "input": "gift",
        },
    ]
    model = _migrated_model(_load(export_module(PLAN, model_name="OrderV2"), directory))
    order = model.model_validate(copy.deepcopy(OLD_ORDER))
    dumped = order.model_dump(mode="json", exclude={"messages"})
    assert dumped == {
        "user_id": "550e8400-e29b-41d4-a716-446655440000",
        "amount": 150.0,
        "status": "confirmed",
        "items": [{"sku": "SKU-01", "qty": 2, "unit_price": 49.5}],
        "logs": [],
        "currency": "USD",
    }
    assert [(m.type, m.content) for m in order.messages] == [("human", "gift wrap, please")]
    # every validation runs it: a state already migrated, or a new one, comes through as it is
    again = model.model_validate(order.model_dump())
    assert (again.model_dump(mode="json", exclude={"messages"}), again.currency) == (dumped, "USD")
    assert model.model_validate({**dumped, "currency": "EUR"}).currency == "EUR"
