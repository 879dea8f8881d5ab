"""core.guard.store_read on crafted SQLite rows: a hostile `state_errors`, metadata that is not
an object or not JSON, a pickled head; each a coded result, never a crash or an unpickling."""

from __future__ import annotations

import pickle
import sqlite3
from contextlib import closing
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver

from core.errors import ErrorCode
from core.guard import GuardedSaver
from core.guard.store_read import GuardUnreadable, WarnMark, guard_read, warn_marks
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores.serde import strict_serde

BAD_METADATA = (
    "[row_bad_metadata] its metadata's state_errors is not the list of Pydantic errors a "
    "guard stores ({n}; first: {first}), so it was not read"
)


@pytest.fixture
def spec(tmp_path) -> str:
    """The seed graph with `bad_status_last` run through a guard in "warn" mode: its head
    (step 2) carries `state_errors`."""
    path = str(tmp_path / "threads.sqlite")
    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        saver = GuardedSaver(SqliteSaver(conn), AgentState, on_invalid="warn")
        graph = build_order_graph(["bad_status_last"]).copy(update={"checkpointer": saver})
        graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}}, durability="sync")
    return path


def _head_id(spec: str) -> str:
    with closing(sqlite3.connect(spec)) as conn:
        (head,) = conn.execute("SELECT max(checkpoint_id) FROM checkpoints").fetchone()
    return str(head)


def _craft(spec: str, column: str, value: Any, *, type_: str | None = None) -> str:
    """Overwrite one column of the head row, as a hostile writer of the file would."""
    head = _head_id(spec)
    with closing(sqlite3.connect(spec)) as conn, conn:
        conn.execute(f"UPDATE checkpoints SET {column} = ? WHERE checkpoint_id = ?", (value, head))
        if type_ is not None:
            conn.execute("UPDATE checkpoints SET type = ? WHERE checkpoint_id = ?", (type_, head))
    return head


def _read(spec: str, fn: Any, *args: Any) -> Any:
    with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
        return fn(SqliteSaver(conn, serde=strict_serde([AgentState])), *args)


SHIPPED = {
    "type": "literal_error",
    "loc": ["status"],
    "msg": "Input should be 'pending', 'validated' or 'confirmed'",
    "input": "shipped",
}


def test_a_guards_warn_metadata_is_read_as_its_errors(spec):
    marks = _read(spec, warn_marks, "t")

    assert marks == [WarnMark(_head_id(spec), 2, [SHIPPED])]  # what is shown: no ctx, no url


@pytest.mark.parametrize(
    ("stored", "problems", "first"),
    [
        ('"abc"', "1 problem", "Input should be a valid list"),
        ("5", "1 problem", "Input should be a valid list"),
        ('[{"loc": "status"}]', "3 problems", "Field required"),
        ('[{"type": 1, "loc": [], "msg": "m"}]', "1 problem", "Input should be a valid string"),
    ],
)
def test_a_state_errors_not_a_guards_is_a_coded_mark_not_a_crash(spec, stored, problems, first):
    head = _craft(spec, "metadata", f'{{"step": 2, "state_errors": {stored}}}')

    assert _read(spec, warn_marks, "t") == [
        WarnMark(head, 2, [], BAD_METADATA.format(n=problems, first=first))
    ]


def test_metadata_that_is_not_an_object_is_a_coded_mark(spec):
    head = _craft(spec, "metadata", '["state_errors"]')

    assert _read(spec, warn_marks, "t") == [
        WarnMark(
            head,
            None,
            [],
            "[row_bad_metadata] its metadata is not a JSON object, so no guard stored it",
        )
    ]


def test_metadata_that_is_not_json_stops_the_marks_with_a_coded_result(spec):
    _craft(spec, "metadata", b"{not json")

    assert _read(spec, warn_marks, "t") == GuardUnreadable(
        ErrorCode.STORE_UNREADABLE,
        "LangGraph's saver could not decode a checkpoint of this thread (JSONDecodeError), so "
        "the guard's marks past it are not shown.",
    )
    assert _read(spec, guard_read, AgentState, None, "t") == GuardUnreadable(
        ErrorCode.STORE_UNREADABLE,
        "LangGraph's saver could not decode this thread's head (JSONDecodeError).",
    )


def test_a_pickled_head_is_a_coded_unreadable_read_and_is_never_unpickled(spec, monkeypatch):
    head = _craft(spec, "checkpoint", pickle.dumps({"channel_values": {}}), type_="pickle")

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("something was unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    read = _read(spec, guard_read, AgentState, None, "t")

    assert read == GuardUnreadable(ErrorCode.ROW_PICKLED, read.message, head)
    assert read.message.startswith("The head checkpoint: the stored value is pickled, which ")


def test_a_head_that_is_not_a_checkpoint_is_a_coded_unreadable_read(spec):
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    head = _craft(spec, "checkpoint", JsonPlusSerializer().dumps_typed([1, 2])[1], type_="msgpack")

    assert _read(spec, guard_read, AgentState, None, "t") == GuardUnreadable(
        ErrorCode.ROW_NOT_A_CHECKPOINT,
        "The head checkpoint is not a LangGraph checkpoint (no channel_values object), so the "
        "guard would not hand it to a graph.",
        head,
    )
