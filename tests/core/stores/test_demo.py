"""The demo store: real runs of the seed graphs, the same states every time it is rebuilt."""

from __future__ import annotations

from core.stores.demo import DEMO_THREADS, build_demo_store

from .conftest import writer


def _states(path) -> dict[str, list]:
    with writer("sqlite", str(path)) as saver:
        return {
            thread: [
                (t.metadata["step"], t.metadata["source"], t.checkpoint["channel_values"])
                for t in saver.list({"configurable": {"thread_id": thread}})
            ]
            for thread in DEMO_THREADS
        }


def test_the_demo_store_holds_each_kind_of_thread_and_rebuilds_identically(tmp_path):
    outcome = build_demo_store(tmp_path / "a.sqlite")
    assert outcome == {
        "clean-1": None,
        "clean-2": None,
        "fault-negative_amount": "ValidationError: 1 validation error for AgentState",
        "fault-bad_status_last": None,
        "fault-undeclared_key": None,
        "fault-parallel_status": "InvalidUpdateError: At key 'status': Can receive only one "
        "value per step. Use an Annotated key to handle multiple values.",
        "fault-overwrite_logs": None,
        "fault-node_exception": "RuntimeError: payment service unavailable",
        "interrupted": "interrupted before confirm",
        "model-change": None,
    }
    first = _states(tmp_path / "a.sqlite")
    build_demo_store(tmp_path / "b.sqlite")
    assert _states(tmp_path / "b.sqlite") == first
    assert {thread: [step for step, _, _ in rows] for thread, rows in first.items()} == {
        "clean-1": [2, 1, 0, -1],
        "clean-2": [6, 5, 4, 3, 2, 1, 0, -1],
        "fault-negative_amount": [1, 0, -1],
        "fault-bad_status_last": [2, 1, 0, -1],
        "fault-undeclared_key": [2, 1, 0, -1],
        "fault-parallel_status": [0, -1],
        "fault-overwrite_logs": [2, 1, 0, -1],
        "fault-node_exception": [1, 0, -1],
        "interrupted": [1, 0, -1],
        "model-change": [2, 1, 0, -1],
    }
    messages = first["clean-2"][0][2]["messages"]
    assert [(m.type, m.id, m.content) for m in messages] == [
        ("human", "clean-2-human", "Order, please"),
        ("ai", "clean-2-msg-1", "Order validated"),
        ("human", "clean-2-again", "One more, please"),
        ("ai", "clean-2-msg-2", "Order validated"),
    ]


def test_the_demo_store_is_rebuilt_by_a_command(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        [sys.executable, "-m", "core.stores.demo", str(tmp_path / "demo.sqlite")],
        cwd=root, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert done.stdout.splitlines()[:2] == ["clean-1: completed", "clean-2: completed"]
    assert len(done.stdout.splitlines()) == len(DEMO_THREADS)
    assert _states(tmp_path / "demo.sqlite").keys() == DEMO_THREADS.keys()
