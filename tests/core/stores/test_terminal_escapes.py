"""A store's own text (a checkpoint id, a state key's name, a message quoting them) never
reaches the terminal as control characters: the audit's report prints it escaped."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from langgraph.checkpoint.base import empty_checkpoint

from core.__main__ import main
from core.order import SEED_PAYLOAD, build_order_graph

from .conftest import writer

_PWN = "\x1b]0;pwned\x07\x1b[2J"


def test_a_crafted_checkpoint_id_and_key_name_are_printed_escaped(tmp_path, capsys):
    spec = str(tmp_path / "pwn.sqlite")
    config = {"configurable": {"thread_id": "t-1"}}
    with writer("sqlite", spec) as saver:
        graph = build_order_graph([]).builder.compile(checkpointer=saver)
        graph.invoke(SEED_PAYLOAD, config)
        head = saver.get_tuple(config)
        assert head is not None
        checkpoint = {**empty_checkpoint(), **head.checkpoint, "id": "2" + _PWN}
        checkpoint["channel_values"] = {**checkpoint["channel_values"], _PWN: 1}
        saver.put(head.config, checkpoint, {"source": "update", "step": 9}, {})
    with closing(sqlite3.connect(spec)) as conn:  # the newest id starts "2": read first
        newest = conn.execute("SELECT max(checkpoint_id) FROM checkpoints").fetchone()[0]
    assert newest == "2" + _PWN
    assert main(["audit", spec, "--model", "core.order:AgentState"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "1 thread, 1 checkpoint audited: 1 invalid, 0 unreadable",
        "t-1  step 9  node None  '2\\x1b]0;pwned\\x07\\x1b[2J'",
        '    ["\\u001b]0;pwned\\u0007\\u001b[2J"]: extra_forbidden: Extra inputs are not permitted',
    ]
