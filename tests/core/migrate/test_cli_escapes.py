"""The migrate command's text report prints a store's own text (a checkpoint id, a message
quoting it) escaped: a crafted store never sends control characters to the terminal."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

import pytest

from core.__main__ import main

from .cases import CASES, FIXTURES
from .conftest import saver_on, write_store
from .oracle import checkpoint_id, root

# the OSC title "pwned", a bell, then a clear screen: ESC ] 0 ; pwned BEL ESC [ 2 J
_PWN = "char(27, 93, 48, 59, 112, 119, 110, 101, 100, 7, 27, 91, 50, 74)"


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    """Run from tests/fixtures: `migrations.chat:Chat` imports from there."""
    monkeypatch.chdir(FIXTURES)


def _crafted(tmp_path, suffix: str) -> tuple[list[str], str]:
    """The chat case's real SQLite store, the thread "upset"'s newest checkpoint given bad
    metadata and `suffix` (SQL) after its id; the migrate flags and the old id."""
    stored = write_store(CASES["chat"], "sqlite", tmp_path, None)
    with saver_on("sqlite", stored.spec) as saver:
        victim = checkpoint_id(saver.get_tuple(root("upset")).config)
    with closing(sqlite3.connect(stored.spec)) as conn, conn:
        conn.execute(
            f"UPDATE checkpoints SET metadata = ?, checkpoint_id = checkpoint_id || {suffix} "
            "WHERE checkpoint_id = ?",
            (b"[1, 2]", victim),
        )
    plan = tmp_path / "chat.toml"
    plan.write_text(stored.case.answered, encoding="utf-8")
    model, candidate, _ = stored.case.specs
    return [stored.spec, "--model", model, "--candidate", candidate, "--plan", str(plan)], victim


def test_an_unreadable_rows_crafted_checkpoint_id_is_printed_escaped(tmp_path, capsys):
    argv, victim = _crafted(tmp_path, _PWN)
    assert main(["migrate", *argv]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert all(line.isprintable() for line in lines)
    assert lines[-1] == (
        f"  unreadable: upset '{victim}\\x1b]0;pwned\\x07\\x1b[2J'  [row_bad_metadata] its "
        "metadata is a JSON list, not an object."
    )


def test_a_checkpoint_id_that_is_not_utf8_is_written_as_a_json_escape(tmp_path, capsys):
    argv, victim = _crafted(tmp_path, "CAST(x'ff' AS TEXT)")
    assert main(["migrate", *argv, "--json"]) == 1
    out = capsys.readouterr().out
    assert ([r["checkpoint_id"] for r in json.loads(out)["unreadable"]], out.isascii()) == (
        [victim + "\udcff"], True,
    )  # fmt: skip
