"""Steps work on what a state really holds once decoded (Enum members, dates, model instances,
messages) as on its JSON form, and the preview, the apply and the exported module agree on
every stored state of the fixtures' stores."""

from __future__ import annotations

import datetime
import enum
import itertools
import uuid
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage
from pydantic_core import to_jsonable_python

from core.migrate.apply import apply_plan, apply_step
from core.migrate.export import export_module
from core.migrate.migrated import migrated
from core.migrate.plan import Plan, Step, parse_plan
from core.migrate.preview import preview_migration
from core.migrate.rewrite import rewrite
from core.migrate.write import write_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV

from .cases import CASES
from .conftest import KINDS, Stored, saver_on
from .oracle import import_written, root
from .strategies import plans

from migrations.tickets import Owner, Priority, Role, Ticket, TicketV2, build_tickets  # isort: skip

_NAMES = itertools.count()
# An Enum member is refused by a Literal in Python mode (LangGraph builds the node's state
# from the stored member): a kept member is mapped to its own text too.
PLAN = parse_plan(
    "".join(
        f'[[step]]\npath = "{path}"\naction = "map"\nfrom = "{old}"\nto = "{new}"\n\n'
        for path, old, new in [("priority", "urgent", "high"), ("priority", "normal", "normal"),
                               ("owner.role", "boss", "lead"), ("owner.role", "member", "member")]
    )
)  # fmt: skip
TITLES = ["urgent boss", "urgent boss too", "urgent", "boss", "calm", "calm too"]


class _Level(enum.IntEnum):
    HIGH = 3


@pytest.mark.parametrize(
    ("held", "written"),
    [
        (Priority.URGENT, "urgent"),
        (_Level.HIGH, 3),
        (datetime.date(2024, 1, 31), "2024-01-31"),
        (datetime.datetime(2024, 1, 31, 9, 30, tzinfo=datetime.UTC), "2024-01-31T09:30:00Z"),
        (datetime.time(7, 32), "07:32:00"),
        (uuid.UUID(int=1), "00000000-0000-0000-0000-000000000001"),
        (Decimal("1.50"), "1.50"),
        (("a", 1), ["a", 1]),
        (Owner(name="ana", role=Role.BOSS), {"name": "ana", "role": "boss"}),
        (AIMessage(content="hi", id="m1"), to_jsonable_python(AIMessage(content="hi", id="m1"))),
    ],
    ids=[
        "enum",
        "int-enum",
        "date",
        "datetime-utc",
        "time",
        "uuid",
        "decimal",
        "tuple",
        "model",
        "message",
    ],  # fmt: skip
)
def test_a_map_matches_a_decoded_value_by_its_json_form_as_pydantic_writes_it(held, written):
    assert to_jsonable_python(held) == written  # the library is the oracle for the JSON form
    assert rewrite({"a": held}, "a", "map", from_=written, to="new") == ({"a": "new"}, ["a"])
    assert rewrite({"a": [held]}, "a[*]", "map", from_=written, to="new") == (
        {"a": ["new"]}, ["a.0"])  # fmt: skip


def test_a_coerce_reads_an_enum_member_as_its_value():
    class Code(enum.Enum):
        THREE = "3"

    assert rewrite({"a": Code.THREE}, "a", "coerce", to="int") == ({"a": 3}, ["a"])
    assert rewrite({"a": Code.THREE}, "a", "coerce", to="str") == ({"a": Code.THREE}, [])


def _tickets(kind: str, folder: Any, cluster: Any) -> Stored:
    name = f"tickets{next(_NAMES)}"
    spec = str(folder / f"{name}.sqlite") if kind == "sqlite" else cluster.create_database(name)
    with saver_on(kind, spec) as saver:
        graph = build_tickets().builder.compile(checkpointer=saver)
        for title in TITLES:
            graph.invoke({"title": title}, root(title.replace(" ", "-")))
    return Stored(CASES["order"], kind, spec, {})


@pytest.fixture(params=KINDS)
def tickets(request, tmp_path) -> Stored:
    cluster = request.getfixturevalue("postgres") if request.param == "postgres" else None
    return _tickets(request.param, tmp_path, cluster)


def test_a_stored_enum_member_is_mapped_in_the_preview_and_the_apply(tickets, monkeypatch):
    serde = strict_serde([Ticket, TicketV2])
    with open_any(tickets.spec, serde) as store:
        report = preview_migration(store, Ticket, TicketV2, PLAN).to_json()
    assert {key: report[key] for key in ("threads", "broken_before", "fixed", "steps",
                                         "still_broken")} == {  # fmt: skip
        "threads": 6,
        "broken_before": 6,  # every Enum member is refused by a Literal in Python mode
        "fixed": 6,
        "steps": [
            {"plan": None, "path": path, "action": "map", "changed": 3, "fixed": 3,
             "to_answer": False}
            for path in ("priority", "priority", "owner.role", "owner.role")
        ],
        "still_broken": [],
    }  # fmt: skip
    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_migration(tickets.spec, Ticket, TicketV2, PLAN, lambda _: build_tickets(),
                              serde)  # fmt: skip
    assert sorted(w.thread_id for w in written) == ["boss", "calm", "calm-too", "urgent",
                                                     "urgent-boss", "urgent-boss-too"]  # fmt: skip
    with saver_on(tickets.kind, tickets.spec, serde) as saver:
        values = {t: saver.get_tuple(root(t)).checkpoint["channel_values"] for t in
                  ("urgent-boss", "calm")}  # fmt: skip
        held = {t: {k: to_jsonable_python(v[k]) for k in ("priority", "owner")}
                for t, v in values.items()}  # fmt: skip
    assert held == {
        "urgent-boss": {"priority": "high", "owner": {"name": "ana", "role": "lead"}},
        "calm": {"priority": "normal", "owner": {"name": "ana", "role": "member"}},
    }
    assert write_migration(tickets.spec, Ticket, TicketV2, PLAN, lambda _: build_tickets(),
                           serde) == []  # fmt: skip


def _stored_states(tmp_path_factory: Any) -> list[dict[str, Any]]:
    """Every latest state of every fixture store on SQLite, as its saver decodes it."""
    from .conftest import write_store

    states = []
    folder = tmp_path_factory.mktemp("agree")
    stores = [write_store(case, "sqlite", folder, None) for case in CASES.values()]
    stores.append(_tickets("sqlite", folder, None))
    for stored in stores:
        serde = strict_serde([stored.case.model, stored.case.candidate, Ticket, TicketV2])
        with saver_on("sqlite", stored.spec, serde) as saver:
            for saved in saver.list(None):
                values = saved.checkpoint["channel_values"]
                states.append({k: v for k, v in values.items() if not k.startswith("__")
                               and ":" not in k})  # fmt: skip
    return states


@pytest.fixture(scope="module")
def fixture_states(tmp_path_factory) -> list[dict[str, Any]]:
    return _stored_states(tmp_path_factory)


def _with_the_fixtures_paths(plan: Plan, states: list[dict[str, Any]], pick: int) -> Plan:
    """The drawn plan with one step more on a path the stores hold (a map of a value one of
    their states holds): the drawn paths alone rarely meet a stored field."""
    state = states[pick % len(states)]
    name = sorted(state)[pick % len(state)] if state else "x"
    value = to_jsonable_python(state.get(name), fallback=str)
    step = Step.model_validate({"path": name, "action": "map", "from": value, "to": None})
    return Plan(step=[*plan.steps, step])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
          HealthCheck.function_scoped_fixture])  # fmt: skip
@given(plan=plans, pick=st.integers(0, 10_000))
def test_the_preview_the_apply_and_the_exported_module_agree_on_every_stored_state(
    fixture_states, tmp_path_factory, plan, pick
):
    plan = _with_the_fixtures_paths(plan, fixture_states, pick)
    module = import_written(export_module(plan), tmp_path_factory.mktemp("m"), "agree_mod")
    for state in fixture_states:
        applied = apply_plan(plan, state)
        previewed = migrated(plan, state, TicketV2)
        exported = module.migrate(to_jsonable_python(state, fallback=str))
        assert to_jsonable_python(applied.state, fallback=str) == to_jsonable_python(
            exported, fallback=str)  # fmt: skip
        assert to_jsonable_python(previewed.state, fallback=str) == to_jsonable_python(
            exported, fallback=str)  # fmt: skip
        assert [bool(c) for c in previewed.changed] == [bool(c) for c in applied.changed]


def test_each_action_leaves_a_state_already_at_the_later_version_unchanged():
    """Idempotent steps: a state a plan migrated passes the same plan (and an earlier one)
    unchanged; the chain's test runs v3 threads through v1 -> v2 -> v3."""
    later = {"customer_id": "c", "status": "fulfilled", "qty": 3, "currency": "EUR"}
    steps = [
        Step(path="currency", action="default", value="USD"),
        Step.model_validate(
            {"path": "status", "action": "map", "from": "shipped", "to": "fulfilled"}
        ),  # fmt: skip
        Step(path="user_id", action="rename", to="customer_id"),
        Step(path="qty", action="coerce", to="int"),
        Step(path="legacy", action="drop"),
    ]
    assert [(step.action, apply_step(step, later)) for step in steps] == [
        (step.action, (later, [])) for step in steps
    ]
    migrated_once = apply_plan(Plan(step=steps), {"user_id": "c", "status": "shipped",
                                                  "qty": "3", "legacy": 1}).state  # fmt: skip
    again = apply_plan(Plan(step=steps), migrated_once)
    assert (again.state, again.changed) == (migrated_once, [[]] * len(steps))
