"""ui/threads/guard_view.py with AppTest on a small script over a real SQLite store: a guard's
"warn" marks, and the head as the lazy migration would hand it to LangGraph."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from typing import Any

import pytest
from langgraph.checkpoint.sqlite import SqliteSaver
from streamlit.testing.v1 import AppTest

from core.guard import GuardedSaver
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from ui.text import plain


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> str:
    """A thread the seed graph with `bad_status_last` wrote through a guard in "warn" mode
    (its last checkpoint holds status "shipped"), and a valid one."""
    spec = str(tmp_path_factory.mktemp("guard_view") / "threads.sqlite")
    with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
        saver = GuardedSaver(SqliteSaver(conn), AgentState, on_invalid="warn")
        for faults, thread in ((["bad_status_last"], "warned"), ([], "valid")):
            graph = build_order_graph(faults).copy(update={"checkpointer": saver})
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}}, durability="sync")
    return spec


def _script(spec: str, thread: str, plan: str | None) -> None:
    """The view as the Threads page would call it; `plan`: a plan in the Migrate tab, the page
    judging by the candidate (AgentState) a store written with a looser model."""
    from typing import Literal

    import streamlit as st

    from core.migrate.plan import parse_plan
    from core.order import AgentState
    from core.stores.reader import open_any, timeline_of
    from core.stores.serde import strict_serde
    from ui import keys
    from ui.threads.guard_view import guard_view
    from ui.threads.judge import Judging

    class LooseState(AgentState):
        status: Literal["pending", "validated", "confirmed", "shipped"] = "pending"  # type: ignore[assignment]

    if plan is None:
        judged = Judging(AgentState, None, None, None, ())
    else:
        judged = Judging(LooseState, (AgentState, "AgentState"), AgentState, None, ())
        st.session_state[keys.THREADS_MIGRATE_LAST_PLAN] = {
            "of": [LooseState.__qualname__, AgentState.__qualname__],
            "plan": parse_plan(plan),
        }
    with open_any(spec, strict_serde([AgentState])) as store:
        timeline = timeline_of(store, thread, judged.judge)
        assert timeline is not None
        guard_view(store, timeline, judged)


def _view(spec: str, thread: str, plan: str | None = None) -> AppTest:
    at = AppTest.from_function(_script, args=(spec, thread, plan), default_timeout=30)
    return at.run()


def _said(at: AppTest) -> dict[str, Any]:
    return {
        "warning": [w.value for w in at.warning],
        "info": [i.value for i in at.info],
        "success": [s.value for s in at.success],
        "error": [e.value for e in at.error],
        "tables": [d.value.to_dict("records") for d in at.dataframe],
    }


ONE_MARK = (
    '1 checkpoint of this thread was stored by a guard in "warn" mode although the model '
    "rejected it: the errors are in its metadata (state_errors)."
)
NO_PLAN = plain(
    "AgentState rejects this thread's head and no plan is set (the Migrate tab, judging by "
    "the candidate): the guard hands it to LangGraph as stored."
)
SHIPPED_ERROR = {
    "path": "status",
    "message": "Input should be 'pending', 'validated' or 'confirmed'",
    "type": "literal_error",
    "input": '"shipped"',
}


def _head_id(spec: str) -> str:
    """The "warned" thread's head, from the table (a crafted head may not load)."""
    with closing(sqlite3.connect(spec)) as conn:
        (head,) = conn.execute(
            "SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = 'warned'"
        ).fetchone()
    return str(head)


def _mark_row(spec: str) -> dict[str, Any]:
    return {
        "step": "2",
        "checkpoint_id": _head_id(spec),
        "errors": 1,
        "paths": "status",
        "first message": "Input should be 'pending', 'validated' or 'confirmed'",
    }


def _no_plan(marks: list[dict[str, Any]]) -> dict[str, Any]:
    """What the view says of the "warned" thread with no plan set, its mark rows `marks`."""
    return {
        "warning": [ONE_MARK],
        "info": [NO_PLAN],
        "success": [],
        "error": [],
        "tables": [marks, [SHIPPED_ERROR]],
    }


def test_a_warned_checkpoint_is_marked_and_without_a_plan_the_head_is_handed_as_stored(store):
    at = _view(store, "warned")

    assert not at.exception
    assert _said(at) == _no_plan([_mark_row(store)])


def _with_plan(store: str, to: str) -> tuple[AppTest, dict[str, Any]]:
    """The "warned" thread with a plan mapping its status "shipped" to `to`; it ran clean."""
    plan = f'[[step]]\npath = "status"\naction = "map"\nfrom = "shipped"\nto = "{to}"\n'
    at = _view(store, "warned", plan)
    assert not at.exception
    return at, _said(at)


def test_a_plan_that_fixes_the_head_shows_the_state_the_lazy_migration_hands_langgraph(store):
    at, said = _with_plan(store, "confirmed")

    assert said["success"] == [
        "The lazy migration hands LangGraph this state (migrated in memory as it is read; "
        "nothing is written; the next checkpoint a run stores holds it):"
    ]
    assert [c.value for c in at.code] == ["status"]  # the fields the migration changed
    handed = json.loads(at.get("json")[0].proto.body)
    assert {k: handed[k] for k in ("status", "amount", "logs")} == {
        "status": "confirmed", "amount": 99, "logs": ["amount=99.0 items=1", "confirmed"],
    }  # fmt: skip
    assert (said["error"], said["info"]) == ([], [])


def test_a_plan_that_cannot_fix_the_head_says_so_with_the_errors_left(store):
    _, said = _with_plan(store, "gone")

    assert said["error"] == [
        "The plan cannot fix it: the guard hands LangGraph the state as stored, with these "
        "errors (and logs a warning naming the thread and checkpoint)."
    ]
    assert said["tables"] == [[_mark_row(store)], [SHIPPED_ERROR]]


def test_a_valid_thread_has_no_mark_and_is_handed_as_stored(store):
    at = _view(store, "valid")

    assert _said(at) == {
        "warning": [],
        "info": [],
        "success": [
            "The model accepts this thread's head: the guard hands it to LangGraph as stored."
        ],
        "error": [],
        "tables": [],
    }
    assert [c.value for c in at.caption] == [
        'No checkpoint of this thread was stored by a guard in "warn" mode (none carries '
        "state_errors in its metadata)."
    ]


def _crafted(store: str, tmp_path: Any, **columns: Any) -> str:
    """A copy of the store whose "warned" head row a hostile writer overwrote."""
    spec = str(tmp_path / "crafted.sqlite")
    with closing(sqlite3.connect(store)) as source, closing(sqlite3.connect(spec)) as target:
        source.backup(target)
    head = _head_id(spec)
    with closing(sqlite3.connect(spec)) as conn, conn:
        for column, value in columns.items():
            conn.execute(
                f"UPDATE checkpoints SET {column} = ? WHERE checkpoint_id = ?", (value, head)
            )
    return spec


def test_a_hostile_state_errors_is_a_coded_mark_and_the_page_does_not_raise(store, tmp_path):
    spec = _crafted(store, tmp_path, metadata='{"step": 2, "state_errors": "abc"}')
    at = _view(spec, "warned")

    assert not at.exception
    assert _said(at) == _no_plan(
        [
            {
                **_mark_row(spec),
                "errors": 0,
                "paths": "",
                "first message": "[row_bad_metadata] its metadata's state_errors is not the "
                "list of Pydantic errors a guard stores (1 problem; first: Input should be a "
                "valid list), so it was not read",
            }
        ]
    )


def test_a_pickled_head_is_coded_and_never_unpickled_and_the_page_does_not_raise(store, tmp_path):
    import pickle

    spec = _crafted(store, tmp_path, type="pickle", checkpoint=pickle.dumps({"channel_values": {}}))
    at = _view(spec, "warned")

    assert not at.exception
    assert _said(at)["error"] == ["This thread cannot be read as the guard reads it:"]
    assert _said(at) == {
        "warning": [ONE_MARK],
        "info": [],
        "success": [],
        "error": ["This thread cannot be read as the guard reads it:"],
        "tables": [[_mark_row(spec)]],  # its metadata is intact: the mark is still read
    }
    assert [c.value for c in at.code] == [
        "[row_pickled] The guard reads no state from this thread's head: the checkpoint was "
        "written with pickle (LangGraph's serializer with pickle_fallback=True stores a value "
        "msgpack cannot hold that way), and the playground never unpickles: unpickling runs "
        "whatever code the bytes name. To read it, load it with the writer's own serializer "
        "(JsonPlusSerializer(pickle_fallback=True).loads_typed) in your own code, at your own "
        "risk and only if you trust every writer of this store."
    ]


def test_two_marks_are_counted_in_one_sentence_that_agrees_with_them(store, tmp_path):
    spec = _crafted(store, tmp_path)
    error = {"type": "literal_error", "loc": ["status"], "msg": SHIPPED_ERROR["message"]}
    stored = json.dumps({"step": 1, "state_errors": [error]})
    with closing(sqlite3.connect(spec)) as conn, conn:  # a guard in "warn" mode at step 1 too
        conn.execute(
            "UPDATE checkpoints SET metadata = ? WHERE thread_id = 'warned' AND checkpoint_id = "
            "(SELECT checkpoint_id FROM checkpoints WHERE thread_id = 'warned' "
            "ORDER BY checkpoint_id LIMIT 1 OFFSET 2)",
            (stored,),
        )
    at = _view(spec, "warned")

    assert not at.exception
    assert [w.value for w in at.warning] == [
        '2 checkpoints of this thread were stored by a guard in "warn" mode although the model '
        "rejected them: the errors are in their metadata (state_errors)."
    ]
    marks = at.dataframe[0].value.to_dict("records")
    assert [{k: row[k] for k in ("step", "errors", "paths")} for row in marks] == [
        {"step": "1", "errors": 1, "paths": "status"},
        {"step": "2", "errors": 1, "paths": "status"},
    ]
    assert marks[1] == _mark_row(spec)
