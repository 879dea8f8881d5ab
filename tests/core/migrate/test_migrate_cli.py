"""`python -m core migrate` on real stores: the --json contract, the proposed plan, exit codes
0/1/2, a bad plan named at its line, --export and --apply."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from core.__main__ import main
from core.migrate.export import export_module
from core.migrate.preview import preview_migration
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.spec import store_label
from core.stores.unbrick import WRITES_ENV

from .cases import CASES, FIXTURES
from .conftest import KINDS, Stored, saver_on, write_store
from .oracle import checkpoint_id, root

CONTRACT = ["plan", "threads", "checkpoints", "broken_before", "fixed", "steps",
            "still_broken", "written", "unreadable"]  # fmt: skip
_ENV = ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_CANDIDATE", "PLAYGROUND_STORE",
        "PLAYGROUND_ASSISTANT", WRITES_ENV)  # fmt: skip


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    """Run as a user would from tests/fixtures: `migrations.chat:Chat` imports from there."""
    monkeypatch.chdir(FIXTURES)
    for variable in _ENV:
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture(scope="module", params=KINDS)
def chat_store(request, tmp_path_factory) -> Stored:
    cluster = request.getfixturevalue("postgres") if request.param == "postgres" else None
    return write_store(CASES["chat"], request.param, tmp_path_factory.mktemp("chat"), cluster)


def _migrate(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["migrate", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _flags(stored: Stored, *more: str) -> list[str]:
    model, candidate, _ = stored.case.specs
    return [stored.spec, "--model", model, "--candidate", candidate, *more]


def _plan_file(stored: Stored, folder: Path) -> str:
    path = folder / f"{stored.case.name}.toml"
    path.write_text(stored.case.answered, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("history", [False, True], ids=["latest", "history"])
def test_the_json_report_is_the_preview_and_the_exit_says_whether_a_state_stays_broken(
    stored, tmp_path, capsys, history
):
    case = stored.case
    exported = tmp_path / "migrate_state.py"
    flags = ["--plan", _plan_file(stored, tmp_path), "--json", "--export", str(exported)]
    code, out, err = _migrate(capsys, *_flags(stored, *flags, *(["--history"] * history)))
    with open_any(stored.spec, strict_serde([case.model, case.candidate])) as store:
        preview = preview_migration(store, case.model, case.candidate, case.plan, history=history)
    report = json.loads(out)
    assert (code, list(report), [list(step) for step in report["steps"]], report, err) == (
        1 if preview.still_broken else 0,
        CONTRACT,
        [["plan", "path", "action", "changed", "fixed", "to_answer"]] * len(case.plan.steps),
        preview.to_json(),
        "",
    )
    assert exported.read_text(encoding="utf-8") == export_module(
        case.plan, model_name=case.candidate.__name__
    )


def test_without_a_plan_the_proposal_is_printed_with_its_notes_and_previewed(chat_store, capsys):
    code, out, err = _migrate(capsys, *_flags(chat_store))
    table, _, broken = out.partition("  still broken: ")
    assert (code, table, err) == (
        1,
        """\
# The proposed plan (save it, edit it, pass it with --plan):
# `turn` is gone and `turns` is new, of the same type: keep this step if it is a rename, else \
write a drop and a default instead.
[[step]]
path = "turn"
action = "rename"
to = "turns"

# `channel` is gone and `summary` is new, of the same type: keep this step if it is a rename, \
else write a drop and a default instead.
[[step]]
path = "channel"
action = "rename"
to = "summary"

# "upset" is no longer allowed at `mood`: write what it becomes in `to` and remove `answer` \
(nothing is guessed: until then it changes nothing and its threads stay broken).
[[step]]
path = "mood"
action = "map"
from = "upset"
answer = "to"

6 threads, 6 checkpoints previewed: 6 broken under the candidate, 2 fixed by the plan, 4 still \
broken
  rename   turn: changed 6, fixed 6
  rename   channel: changed 6, fixed 6
  map      mood: changed 0, fixed 0  (to answer: it changes nothing until you do)
""",
        "",
    )
    # the mood left to answer keeps the upset threads broken: counted, never guessed
    lines = ("  still broken: " + broken).splitlines()
    assert [line.split()[2] + " " + line.split()[-2] + " " + line.split()[-1] for line in lines] == [
        "escalated mood: literal_error", "two-turns mood: literal_error",
        "upset mood: literal_error", "waiting-upset mood: literal_error"]  # fmt: skip


_BAD_PLANS = {
    "unknown action": (
        '[[step]]\npath = "channel"\naction = "drop"\n\n[[step]]\npath = "mood"\n'
        'action = "squash"\n',
        "[plan_step] {plan}: line 7: step 2 (its [[step]] at line 5): action: Input should be "
        "'default', 'drop', 'map', 'rename' or 'coerce'.",
    ),
    "a map without from": (
        '[[step]]\npath = "turn"\naction = "rename"\nto = "turns"\n\n\n[[step]]\n'
        'path = "mood"\naction = "map"\nto = "calm"\n',
        "[plan_step] {plan}: line 7: step 2: a map needs `from` and `to`: the old value and the "
        "new one.",
    ),
    "a map without to": (
        '[[step]]\npath = "mood"\naction = "map"\nfrom = "calm"\n',
        "[plan_step] {plan}: line 1: step 1: a map needs `to` (the new value); write it, or mark "
        'the step answer = "to" to leave it open.',
    ),
    "not TOML": (
        '[[step]]\npath = "turn"\naction = \n',
        "[plan_toml] {plan}: Invalid value (at line 3, column 10); fix the TOML there.",
    ),
}


@pytest.mark.parametrize("name", list(_BAD_PLANS))
def test_a_bad_plan_is_refused_naming_its_line_and_code(chat_store, tmp_path, capsys, name):
    text, said = _BAD_PLANS[name]
    plan = tmp_path / "plan.toml"
    plan.write_text(text, encoding="utf-8")
    assert _migrate(capsys, *_flags(chat_store, "--plan", str(plan))) == (
        2,
        "",
        said.format(plan=plan) + "\n",
    )


_BAD_CHAINS = {
    "duplicate id": (
        {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v1"\nafter = "v1"\n'},
        [],
        "b.toml: id = 'v1' is also a.toml's; give each plan its own.",
    ),
    "dangling after": (
        {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v2"\nafter = "v0"\n'},
        [],
        "b.toml: after = 'v0': no plan has that id; the ids are v1, v2.",
    ),
    "cycle": (
        {"a.toml": 'id = "v1"\nafter = "v2"\n', "b.toml": 'id = "v2"\nafter = "v1"\n'},
        [],
        "every plan names one it comes after (v1, v2): a cycle; the first plan has no `after`.",
    ),
    "unknown --to": (
        {"a.toml": 'id = "v1"\n', "b.toml": 'id = "v2"\nafter = "v1"\n'},
        ["--to", "v3"],
        "--to 'v3': no plan of the chain has that id; the chain is v1 -> v2.",
    ),
}


@pytest.mark.parametrize("name", list(_BAD_CHAINS))
def test_a_chain_that_cannot_be_ordered_exits_2_with_a_code(chat_store, tmp_path, capsys, name):
    plans, flags, said = _BAD_CHAINS[name]
    for file, text in plans.items():
        (tmp_path / file).write_text(text, encoding="utf-8")
    prefix = "" if flags else f"{tmp_path}: "
    assert _migrate(capsys, *_flags(chat_store, "--plan", str(tmp_path), *flags)) == (
        2,
        "",
        f"[plan_chain] {prefix}{said}\n",
    )


def test_an_unusable_store_model_candidate_or_plan_file_exits_2(chat_store, tmp_path, capsys):
    model, candidate, _ = chat_store.case.specs
    missing = str(tmp_path / "gone.sqlite")
    runs = {
        "store": [missing, "--model", model, "--candidate", candidate],
        "model": [chat_store.spec, "--model", "migrations.nowhere:Chat", "--candidate", candidate],
        "candidate": [chat_store.spec, "--model", model, "--candidate", "migrations.chat:Nothing"],
        "plan file": [*_flags(chat_store), "--plan", str(tmp_path / "none.toml")],
        "no candidate": [chat_store.spec, "--model", model],
    }
    assert {name: _migrate(capsys, *argv) for name, argv in runs.items()} == {
        "store": (2, "", f"[store_missing] {missing} does not exist; check the path.\n"),
        "model": (2, "", "[module_not_found] model module 'migrations.nowhere' was not found. "
                  "Run the playground from the directory that holds it (or install it), and "
                  "check the spelling.\n"),
        "candidate": (2, "", "[attribute_missing] candidate module 'migrations.chat' has no "
                      "attribute 'Nothing'; check the name after the colon.\n"),
        "plan file": (2, "", f"[plan_toml] {tmp_path / 'none.toml'} cannot be read (No such file "
                      "or directory).\n"),
        "no candidate": (2, "", "[no_model] a migration needs the model the threads were written "
                         "with (--model) and the changed one (--candidate).\n"),
    }  # fmt: skip


def _rows(stored: Stored) -> list[str]:
    if stored.kind == "sqlite":
        with closing(sqlite3.connect(stored.spec)) as conn:
            return sorted(repr(row) for table in ("checkpoints", "writes")
                          for row in conn.execute(f"SELECT * FROM {table}"))  # fmt: skip
    with psycopg.connect(stored.spec) as conn:
        return sorted(row[0] for table in ("checkpoints", "checkpoint_blobs", "checkpoint_writes")
                      for row in conn.execute(f"SELECT row_to_json(r)::text FROM {table} r"))  # fmt: skip


def test_apply_is_refused_unless_writes_are_on_and_with_your_own_model_needs_its_graph(
    chat_store, tmp_path, capsys, monkeypatch
):
    _, _, graph = chat_store.case.specs
    plan = _plan_file(chat_store, tmp_path)
    before = _rows(chat_store)
    off = _migrate(capsys, *_flags(chat_store, "--plan", plan, "--graph", graph, "--apply"))
    monkeypatch.setenv(WRITES_ENV, "1")
    no_graph = _migrate(capsys, *_flags(chat_store, "--plan", plan, "--apply"))
    assert (off, no_graph, _rows(chat_store)) == (
        (2, "", f"[store_writes_disabled] writes to {store_label(chat_store.spec)} are off; start "
         "the server with PLAYGROUND_STORE_WRITES=1 to unbrick threads.\n"),
        (2, "", "[no_graph] --apply writes each fork through the threads' own graph: pass it "
         "with --graph.\n"),
        before,
    )  # fmt: skip


def test_apply_reports_each_fork_written_and_a_second_apply_writes_none(
    own_store, tmp_path, capsys, monkeypatch
):
    case = own_store.case
    monkeypatch.setenv(WRITES_ENV, "1")
    flags = _flags(own_store, "--graph", case.specs[2], "--plan", _plan_file(own_store, tmp_path),
                   "--json", "--apply")  # fmt: skip
    first_code, out, _ = _migrate(capsys, *flags)
    first = json.loads(out)
    with saver_on(
        own_store.kind, own_store.spec, strict_serde([case.model, case.candidate])
    ) as saver:
        forks = [saver.get_tuple(root(thread)) for thread in case.fixed]
    second_code, out, _ = _migrate(capsys, *flags)
    second = json.loads(out)
    broken = len(first["still_broken"])
    assert first["written"] == [
        {"thread_id": thread, "from_checkpoint_id": checkpoint_id(fork.parent_config),
         "new_checkpoint_id": checkpoint_id(fork.config)}
        for thread, fork in zip(case.fixed, forks, strict=True)
    ]  # fmt: skip
    # the second run previews the forks: valid, so only the threads no plan fixes are broken
    assert (first_code, second_code, second["written"], second["broken_before"],
            second["still_broken"]) == (
        1 if broken else 0, 1 if broken else 0, [], broken, first["still_broken"])  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_a_row_that_cannot_be_read_is_listed_and_its_thread_stays_broken(
    kind, tmp_path, capsys, request
):
    cluster = request.getfixturevalue("postgres") if kind == "postgres" else None
    stored = write_store(CASES["chat"], kind, tmp_path, cluster)
    with saver_on(kind, stored.spec) as saver:
        victim = checkpoint_id(saver.get_tuple(root("upset")).config)
    damage = "UPDATE checkpoints SET metadata = %s WHERE checkpoint_id = %s"
    if kind == "sqlite":
        with closing(sqlite3.connect(stored.spec)) as conn, conn:
            conn.execute(damage.replace("%s", "?"), (b"[1, 2]", victim))
    else:
        with psycopg.connect(stored.spec, autocommit=True) as conn:
            conn.execute(damage.replace("= %s", "= %s::jsonb", 1), ("[1, 2]", victim))
    plan = _plan_file(stored, tmp_path)
    code, out, _ = _migrate(capsys, *_flags(stored, "--plan", plan, "--json"))
    text_code, text, _ = _migrate(capsys, *_flags(stored, "--plan", plan))
    report = json.loads(out)
    row = {"thread_id": "upset", "checkpoint_id": victim, "step": None,
           "code": "row_bad_metadata", "message": "its metadata is a JSON list, not an object."}  # fmt: skip
    # the thread is counted, its checkpoint is not previewed, and the run exits 1
    assert (code, text_code, report["threads"], report["checkpoints"], report["unreadable"],
            text.splitlines()[-1]) == (
        1, 1, 6, 5, [row],
        f"  unreadable: upset {victim}  [row_bad_metadata] its metadata is a JSON list, not "
        "an object.",
    )  # fmt: skip
