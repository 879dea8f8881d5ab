"""`audit --thread` with an id Postgres cannot hold (a number, a BLOB, text with a NUL or
not UTF-8) audits no thread there (exit 0) rather than failing the store; SQLite, which
may hold any, looks it up."""

from __future__ import annotations

import json

import pytest

from core.__main__ import main


@pytest.fixture
def no_project(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no playground.toml here
    for name in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(name, raising=False)


ODD = ["int(42)", "float(1.5)", "b'clean-1'", "'clean\\x00-1'", "'\\udcffA'"]


def test_an_id_the_store_cannot_hold_is_no_thread(no_project, demo_store, capsys):
    kind, spec = demo_store
    found = {}
    for thread in [*ODD, "clean-1"]:
        code = main(["audit", spec, "--thread", thread, "--json"])
        report = json.loads(capsys.readouterr().out)
        found[thread] = (code, report["threads"], report["checkpoints"])
    assert found == {**{thread: (0, 0, 0) for thread in ODD}, "clean-1": (0, 1, 1)}
