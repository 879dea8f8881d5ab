"""Parts of an audit of different threads merge even when a text id spells another's
printed BLOB id ("b'x'" and b'x'): they are different threads, not an overlap."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing

from core.__main__ import main
from core.order import SEED_PAYLOAD, build_order_graph

from .conftest import writer


def _part(tmp_path, name: str, blob: bool, capsys) -> str:
    """The audit's --json of a store holding one thread written under the text id "b'x'"
    by a real run (invalid: its status is refused), with `blob` stored as the BLOB b'x'."""
    spec = str(tmp_path / f"{name}.sqlite")
    with writer("sqlite", spec) as saver:
        graph = build_order_graph(["bad_status_last"]).builder.compile(checkpointer=saver)
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "b'x'"}})
    if blob:
        with closing(sqlite3.connect(spec)) as conn, conn:
            for table in ("checkpoints", "writes"):
                conn.execute(f"UPDATE {table} SET thread_id = x'78'")  # b'x'
    assert main(["audit", spec, "--model", "core.order:AgentState", "--json"]) == 1
    path = tmp_path / f"{name}.json"
    path.write_text(capsys.readouterr().out, encoding="utf-8")
    return str(path)


def test_a_text_id_and_a_blob_printed_alike_are_different_threads(tmp_path, capsys):
    text, blob = _part(tmp_path, "text", False, capsys), _part(tmp_path, "blob", True, capsys)
    assert main(["audit-merge", text, blob, "--json"]) == 1
    merged = json.loads(capsys.readouterr().out)
    assert (merged["threads"], [r["thread_id"] for r in merged["invalid"]],
            [(r["thread_id"], r["code"]) for r in merged["unreadable"]]) == (
        2, ["b'x'"], [("b'x'", "thread_id_not_text")],
    )  # fmt: skip
    again = tmp_path / "again.json"  # the BLOB thread's part twice: a real overlap
    again.write_text((tmp_path / "blob.json").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["audit-merge", blob, str(again)]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"[audit_parts_overlap] {blob} and {again} both list thread b'x' (not text): parts "
        "must be the shards of one audit, each index of one --shards N once."
    )
