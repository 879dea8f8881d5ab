"""The migrate command's text report prints a store's own text (a checkpoint id, a message
quoting it) escaped: a crafted store never sends control characters to the terminal."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from core.__main__ import main

from .cases import CASES, FIXTURES
from .conftest import saver_on, write_store
from .oracle import checkpoint_id, root

_PWN = "\x1b]0;pwned\x07\x1b[2J"


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    """Run from tests/fixtures: `migrations.chat:Chat` imports from there."""
    monkeypatch.chdir(FIXTURES)


def test_an_unreadable_rows_crafted_checkpoint_id_is_printed_escaped(tmp_path, capsys):
    stored = write_store(CASES["chat"], "sqlite", tmp_path, None)
    with saver_on("sqlite", stored.spec) as saver:
        victim = checkpoint_id(saver.get_tuple(root("upset")).config)
    with closing(sqlite3.connect(stored.spec)) as conn, conn:
        conn.execute(
            "UPDATE checkpoints SET metadata = ?, checkpoint_id = checkpoint_id || ? "
            "WHERE checkpoint_id = ?",
            (b"[1, 2]", _PWN, victim),
        )
    plan = tmp_path / "chat.toml"
    plan.write_text(stored.case.answered, encoding="utf-8")
    model, candidate, _ = stored.case.specs
    argv = [stored.spec, "--model", model, "--candidate", candidate, "--plan", str(plan)]
    assert main(["migrate", *argv]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert all(line.isprintable() for line in lines)
    assert lines[-1] == (
        f"  unreadable: upset '{victim}\\x1b]0;pwned\\x07\\x1b[2J'  [row_bad_metadata] its "
        "metadata is a JSON list, not an object."
    )
