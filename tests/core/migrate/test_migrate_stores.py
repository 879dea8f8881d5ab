"""Preview and export over real stores: the seed order's demo threads and two graphs of our
own, written by real runs through LangGraph's SqliteSaver and PostgresSaver."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pydantic_core import to_jsonable_python

from core.migrate.export import export_module
from core.migrate.migrated import migrated
from core.migrate.plan import parse_plan
from core.migrate.preview import preview_migration
from core.migrate.propose import propose
from core.migrate.states import stored_states
from core.stores.reader import open_any
from core.stores.serde import strict_serde

from .cases import CASES, Case
from .conftest import KINDS, Stored, saver_on, write_store
from .oracle import brute_preview, candidate_errors, import_written, saved_states


def _serde(case: Case):
    return strict_serde([case.model, case.candidate])


def _preview(stored: Stored, *, history: bool):
    case = stored.case
    with open_any(stored.spec, _serde(case)) as store:
        return preview_migration(store, case.model, case.candidate, case.plan, history=history)


def _states(stored: Stored, *, history: bool) -> list[tuple[str, str, dict[str, Any]]]:
    with saver_on(stored.kind, stored.spec, _serde(stored.case)) as saver:
        return saved_states(saver, history=history, graph_for=stored.case.graph_for)


def store_contents(stored: Stored) -> Any:
    """Every byte of a SQLite database file and of its WAL; every row of every Postgres
    table, as text. (A reader of a WAL database makes an empty -wal and the -shm index
    beside it, if they are not there: SQLite's own files, which hold no page.)"""
    if stored.kind == "sqlite":
        wal = Path(stored.spec + "-wal")
        return Path(stored.spec).read_bytes(), wal.read_bytes() if wal.exists() else b""
    with psycopg.connect(stored.spec) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1")]  # fmt: skip
        return {table: sorted(row[0] for row in conn.execute(
            f"SELECT row_to_json(r)::text FROM {table} r")) for table in tables}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
def test_propose_gives_each_candidate_its_plan_and_asks_for_the_renames_and_gone_members(name):
    case = CASES[name]
    proposal = propose(case.model, case.candidate)
    assert (proposal.plan, proposal.asked, proposal.warnings) == (
        parse_plan(case.proposed),
        case.asked,
        [],
    )
    # answering changes only asked steps: every other proposed step is in the plan as it was
    kept = [step for index, step in enumerate(proposal.plan.steps) if index not in case.asked]
    assert [step for step in kept if step in case.plan.steps] == kept


# (case, history) -> threads, checkpoints, broken before, fixed, (changed, fixed) per step,
# the still broken (thread, step of the checkpoint newest first)
SUMMARIES = {
    ("order", False): (10, 10, 10, 8, [(10, 10), (9, 9), (3, 3), (10, 10)],
                       ["fault-bad_status_last", "fault-negative_amount"]),
    ("order", True): (10, 39, 39, 37, [(39, 39), (29, 29), (10, 10), (39, 39)],
                      ["fault-bad_status_last", "fault-negative_amount"]),
    ("chat", False): (6, 6, 6, 6, [(6, 6), (6, 6), (6, 6), (4, 4)], []),
    ("chat", True): (6, 26, 26, 26, [(26, 26), (26, 26), (26, 26), (7, 7)], []),
    ("basket", False): (5, 5, 5, 4, [(5, 5), (4, 4), (3, 3), (5, 5)], ["empty-sku"]),
    ("basket", True): (5, 17, 17, 15, [(17, 17), (11, 11), (11, 11), (17, 17)],
                       ["empty-sku", "empty-sku"]),
}  # fmt: skip


@pytest.mark.parametrize("history", [False, True], ids=["latest", "history"])
def test_the_preview_counts_each_step_as_validating_after_every_step_does(stored, history):
    preview = _preview(stored, history=history).to_json()
    assert preview == brute_preview(
        _states(stored, history=history), stored.case.candidate, stored.case.answered
    )
    summary = (
        preview["threads"], preview["checkpoints"], preview["broken_before"], preview["fixed"],
        [(step["changed"], step["fixed"]) for step in preview["steps"]],
        [state["thread_id"] for state in preview["still_broken"]],
    )  # fmt: skip
    assert summary == SUMMARIES[stored.case.name, history]


def test_a_preview_writes_nothing(stored):
    before = store_contents(stored)
    for history in (False, True):
        _preview(stored, history=history)
    assert store_contents(stored) == before


def test_the_exported_module_migrates_every_stored_state_as_the_preview_does(stored, tmp_path):
    case = stored.case
    source = export_module(case.plan, model_name=case.specs[1])
    module = import_written(source, tmp_path, f"migrate_{case.name}_state")
    # the module takes plain data (its docstring): each state as JSON, as a server returns it
    exported = {
        (thread, checkpoint): module.migrate(to_jsonable_python(state))
        for thread, checkpoint, state in _states(stored, history=True)
    }
    with open_any(stored.spec, _serde(case)) as store:
        read = list(stored_states(store, case.model, history_too=True))
    previewed = {
        (state.thread_id, state.checkpoint_id): to_jsonable_python(
            migrated(case.plan, state.state, case.candidate).state
        )
        for state in read
    }
    preview = _preview(stored, history=True)
    assert exported == previewed
    assert {key: candidate_errors(state, case.candidate) for key, state in exported.items()
            if candidate_errors(state, case.candidate)} == {
        (broken.thread_id, broken.checkpoint_id): broken.errors
        for broken in preview.still_broken
    }  # fmt: skip


def test_every_order_of_the_steps_is_counted_as_validating_after_every_step_does(stored):
    """Steps act in plan order: a default of `customer_id` before the rename to it leaves
    `user_id` where it is (the name is taken), a map before a rename finds nothing; the
    counts follow the order, as the brute-force run does."""
    case = stored.case
    decoy = {"order": 'path = "customer_id"\naction = "default"\nvalue = "550e8400-e29b-41d4-a716-446655440000"',
             "chat": 'path = "turns"\naction = "default"\nvalue = 0',
             "basket": 'path = "items[*].kind"\naction = "map"\nfrom = "grocery"\nto = "toy"'}  # fmt: skip
    blocks = [f"[[step]]\n{block}" for block in case.answered.split("[[step]]")[1:]]
    blocks.append(f"[[step]]\n{decoy[case.name]}\n")
    states = _states(stored, history=False)
    with open_any(stored.spec, _serde(case)) as store:
        for order in itertools.permutations(blocks):
            text = "\n".join(order)
            plan = parse_plan(text)
            preview = preview_migration(store, case.model, case.candidate, plan).to_json()
            assert preview == brute_preview(states, case.candidate, text), text


@pytest.mark.parametrize("kind", KINDS)
def test_a_value_the_allow_list_refuses_stays_broken_under_any_plan(kind, tmp_path, request):
    """Read with the candidate's classes only, the basket's gift cards (old `Item`
    instances) are refused unread: each is a `refused_value` no step can reach."""
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    stored = write_store(CASES["basket"], kind, tmp_path, cluster)
    case = stored.case
    with open_any(stored.spec, strict_serde([case.candidate])) as store:
        preview = preview_migration(store, case.model, case.candidate, case.plan)
    refused = {
        "type": "refused_value",
        "msg": "the stored value names migrations.basket.Item, which the playground's "
        "allow-list refuses (it was not run); if it is one of your own types, pass the model "
        "that declares it with --model",
        "input": "migrations.basket.Item",
    }
    assert [(b.thread_id, b.errors) for b in preview.still_broken] == [
        ("books", [{**refused, "loc": ["items", 1]}]),
        ("empty-sku", [{"type": "string_too_short", "loc": ["items", 0, "sku"],
                        "msg": "String should have at least 3 characters", "input": "",
                        "ctx": {"min_length": 3}}]),
        ("groceries", [{**refused, "loc": ["items", 2]}]),
        ("waiting", [{**refused, "loc": ["items", 1]}]),
    ]  # fmt: skip
    assert (preview.fixed, [(s.changed, s.fixed) for s in preview.steps]) == (
        1,
        [(5, 2), (2, 1), (3, 1), (5, 2)],
    )
