"""A chain of plans read from a folder: ordered by `id` and `after`, each refusal coded."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.migrate.chain import Chain, load_chain
from core.migrate.plan import PlanError, Step, parse_plan

from .cases import FIXTURES

LEDGER = FIXTURES / "migrations" / "ledger_chain"


def _folder(tmp_path: Path, plans: dict[str, str]) -> Path:
    for name, text in plans.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_a_folder_is_ordered_by_after_not_by_file_name(tmp_path):
    folder = _folder(tmp_path, {"a.toml": 'id = "v3"\nafter = "v2"\n', "b.toml": 'id = "v1"\n',
                                "c.toml": 'id = "v2"\nafter = "v1"\n'})  # fmt: skip
    chain = load_chain(folder)
    assert (chain.ids, chain.head, chain.stop) == (["v1", "v2", "v3"], "v3", 3)
    assert (chain.to("v2").head, chain.to("v2").stop, chain.to(None).head) == ("v2", 2, "v3")


def test_the_ledger_chain_reads_its_models_and_steps_in_order():
    from migrations.ledger import InvoiceV1, InvoiceV2

    chain = load_chain(LEDGER)
    assert chain.ids == ["v2", "v3"]
    assert [link.model for link in chain.links] == [InvoiceV1, InvoiceV2]
    assert chain.models == [InvoiceV1, InvoiceV2]
    assert [(plan, step.path, step.action) for plan, step in chain.steps()] == [
        ("v2", "user_id", "rename"),
        ("v2", "currency", "default"),
        ("v3", "currency", "drop"),
        ("v3", "status", "map"),
    ]
    assert [s.path for s in chain.plan(1).steps] == ["currency", "status"]
    assert (chain.offset(0), chain.offset(1), chain.offset(2)) == (0, 2, 4)


def test_a_file_is_a_chain_of_one(tmp_path):
    file = tmp_path / "plan.toml"
    file.write_text('[[step]]\npath = "a"\naction = "drop"\n', encoding="utf-8")
    chain = load_chain(file)
    assert (chain.ids, chain.head, chain.models) == ([""], "", [])
    assert chain.links[0].file == str(file)
    assert chain.plan() == Chain.of(parse_plan(file.read_text())).plan()


@pytest.mark.parametrize(
    ("plans", "message"),
    [
        (
            {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v1"\nafter = "v1"\n'},
            "b.toml: id = 'v1' is also a.toml's; give each plan its own.",
        ),
        (
            {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v2"\nafter = "v0"\n'},
            "b.toml: after = 'v0': no plan has that id; the ids are v1, v2.",
        ),
        (
            {"a.toml": 'id = "v1"\nafter = "v2"\n', "b.toml": 'id = "v2"\nafter = "v1"\n'},
            "every plan names one it comes after (v1, v2): a cycle; the first plan has no `after`.",
        ),
        (
            {
                "a.toml": 'id = "v1"\n',
                "b.toml": 'id = "v2"\nafter = "v3"\n',
                "c.toml": 'id = "v3"\nafter = "v2"\n',
            },  # fmt: skip
            "the plans v2, v3 follow one another in a cycle: none of them comes after the "
            "first plan's chain.",
        ),
        (
            {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v2"\n'},
            "b.toml: no `after`, as the plan 'v1': a chain has one plan after each, and one "
            "first plan (no `after`).",
        ),
        (
            {
                "a.toml": 'id = "v1"\n',
                "b.toml": 'id = "v2"\nafter = "v1"\n',
                "c.toml": 'id = "v3"\nafter = "v1"\n',
            },  # fmt: skip
            "c.toml: after = 'v1', as the plan 'v2': a chain has one plan after each, and one "
            "first plan (no `after`).",
        ),
        (
            {"a.toml": '[[step]]\npath = "a"\naction = "drop"\n'},
            'a.toml: a plan in a chain needs an id: write id = "..." above its first [[step]].',
        ),
        (
            {"a.toml": 'id = "v1"\nmodel = "migrations.ledger:Nope"\n'},
            "a.toml: model = 'migrations.ledger:Nope': ",
        ),
        (
            {"a.toml": 'id = "v1"\n\n[[step]]\npath = "a"\naction = "explode"\n'},
            "a.toml: line 5: step 1 (its [[step]] at line 3): action: Input should be "
            "'default', 'drop', 'map', 'rename' or 'coerce'.",
        ),
        ({}, "the folder holds no *.toml plan."),
    ],
    ids=[
        "duplicate-id",
        "dangling-after",
        "cycle",
        "cycle-beside-a-chain",
        "two-firsts",
        "two-after-one",
        "no-id",
        "model-not-found",
        "bad-step",
        "empty",
    ],  # fmt: skip
)
def test_a_chain_that_cannot_be_ordered_is_refused_with_a_code(tmp_path, plans, message):
    folder = _folder(tmp_path, plans)
    with pytest.raises(PlanError) as caught:
        load_chain(folder)
    code = "plan_step" if "explode" in str(plans) else "plan_chain"
    assert caught.value.code == code
    said = caught.value.message.removeprefix(f"{folder}: ")
    assert said != caught.value.message  # the folder is named
    assert said.startswith(message) if message.endswith(": ") else said == message


def test_to_an_unknown_plan_is_refused_naming_the_chain():
    with pytest.raises(PlanError) as caught:
        load_chain(LEDGER).to("v9")
    assert (caught.value.code, caught.value.message) == (
        "plan_chain", "--to 'v9': no plan of the chain has that id; the chain is v2 -> v3.")  # fmt: skip


def test_a_thread_starts_after_its_record_else_at_the_newest_plan_its_state_fits():
    from migrations.ledger import InvoiceV1, InvoiceV2

    chain = load_chain(LEDGER)
    assert chain.start_of("v2", lambda model: True) == 1
    assert chain.start_of("v3", lambda model: True) == 2
    assert chain.start_of("v3", lambda model: True) == 2
    assert chain.to("v2").start_of("v3", lambda model: True) == 2  # past the stop: none apply
    assert chain.start_of(None, lambda model: model is InvoiceV2) == 1
    assert chain.start_of(None, lambda model: model is InvoiceV1) == 0
    assert chain.start_of("elsewhere", lambda model: False) == 0


def test_an_unanswered_step_changes_nothing_until_answered():
    from core.migrate.apply import apply_step

    step = Step.model_validate({"path": "status", "action": "map", "from": "shipped",
                                "answer": "to"})  # fmt: skip
    assert apply_step(step, {"status": "shipped"}) == ({"status": "shipped"}, [])
