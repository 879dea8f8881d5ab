"""Damaged and crafted rows on both backends: each one a coded outcome, the rest read on."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any

import ormsgpack
import psycopg
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from core.__main__ import main
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.threads import list_threads
from core.stores.timeline import lineage, thread_timeline

from .conftest import new_store, writer

SERDE = [AgentState]
DEEP_MSGPACK = b"\x91" * 100_000 + b"\xc0"  # a list in a list ... 100,000 deep
DEEP_JSON = "[" * 100_000 + "]" * 100_000


def _history(kind: str, spec: str, thread: str) -> list[dict[str, Any]]:
    """The thread's checkpoints, newest first: id, step, channel versions."""
    with writer(kind, spec) as saver:
        return [
            {
                "id": saved.config["configurable"]["checkpoint_id"],
                "step": saved.metadata["step"],
                "versions": saved.checkpoint["channel_versions"],
            }
            for saved in saver.list({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})
        ]


@pytest.fixture(params=["sqlite", "postgres"])
def two_threads(request, tmp_path) -> tuple[str, str]:
    """(kind, spec) of a store with two clean seed runs: "clean" and "victim"."""
    kind = request.param
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, f"damaged_{request.node.name[-20:].strip('[]-')}", tmp_path, pg)
    with writer(kind, spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("clean", "victim"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    return kind, spec


def _set(kind: str, spec: str, sql: str, params: tuple[Any, ...]) -> None:
    if kind == "sqlite":
        with closing(sqlite3.connect(spec)) as conn, conn:
            conn.execute(sql.replace("%s", "?"), params)
    else:
        with psycopg.connect(spec, autocommit=True) as conn:
            conn.execute(sql, params)


def _damage(kind: str, spec: str, column: str, value: Any) -> list[dict[str, Any]]:
    """Set one column of the victim's latest checkpoint (on Postgres, of its items blob for
    type and blob); returns the checkpoints that now hold the damage, newest first (on
    Postgres every checkpoint that shares that blob's version)."""
    history = _history(kind, spec, "victim")
    latest = history[0]
    if kind == "sqlite" or column in ("metadata", "checkpoint"):
        cast = "::jsonb" if kind == "postgres" else ""
        _set(kind, spec, f"UPDATE checkpoints SET {column} = %s{cast} WHERE checkpoint_id = %s",
             (value, latest["id"]))  # fmt: skip
        return [latest]
    version = latest["versions"]["items"]
    if value is None:  # a store built by someone else need not keep LangGraph's constraints
        _set(kind, spec, f"ALTER TABLE checkpoint_blobs ALTER COLUMN {column} DROP NOT NULL", ())
    _set(kind, spec, f"UPDATE checkpoint_blobs SET {column} = %s WHERE thread_id = 'victim' "
         "AND channel = 'items' AND version = %s", (value, version))  # fmt: skip
    return [saved for saved in history if saved["versions"].get("items") == version]


# (column, value on SQLite, value on Postgres) -> the victim's code and message
CASES = {
    "not_msgpack": (
        ("checkpoint", b"\xc1\xc1\xc1", None), ("blob", None, b"\xc1\xc1\xc1"),
        "row_undecodable", "{what} is not valid msgpack (ValueError: invalid type Reserved).",
    ),
    "huge_length": (
        ("checkpoint", b"\xdb\xff\xff\xff\xffab", None), ("blob", None, b"\xdb\xff\xff\xff\xffab"),
        "row_undecodable", "{what} is not valid msgpack (ValueError: unexpected end of file).",
    ),
    "deep_msgpack": (
        ("checkpoint", DEEP_MSGPACK, None), ("blob", None, DEEP_MSGPACK),
        "row_too_deep", "{what} is nested deeper than the decoder follows; not read.",
    ),
    "null_type": (
        ("type", None, None), ("type", None, None),
        "row_missing_value", "{what} is stored as NULL.",
    ),
    "null_blob": (
        ("checkpoint", None, None), ("blob", None, None),
        "row_missing_value", "{what} is stored as NULL.",
    ),
    "deep_json_metadata": (
        ("metadata", DEEP_JSON.encode(), None), ("metadata", None, json.dumps([[[[1]]]])),
        None, None,  # per backend below
    ),
    "metadata_list": (
        ("metadata", b"[1, 2]", None), ("metadata", None, "[1, 2]"),
        "row_bad_metadata", "its metadata is a JSON list, not an object.",
    ),
}  # fmt: skip


def _case(kind: str, name: str) -> tuple[str, Any, str, str]:
    sqlite_case, pg_case, code, message = CASES[name]
    column, on_sqlite, on_pg = sqlite_case if kind == "sqlite" else pg_case
    value = on_sqlite if kind == "sqlite" else on_pg
    what = "the checkpoint" if kind == "sqlite" else "channel items"
    if name == "deep_json_metadata":  # Postgres' own JSON reader refuses 100,000 levels
        code, message = ("row_too_deep", "its metadata is nested deeper than the decoder "
                         "follows; not read.") if kind == "sqlite" else (
                         "row_bad_metadata", "its metadata is a JSON list, not an object.")  # fmt: skip
    return column, value, code, message.format(what=what)


@pytest.mark.parametrize("name", list(CASES))
def test_a_damaged_row_is_reported_with_its_code_and_the_audit_reads_on(
    two_threads, name, monkeypatch, tmp_path, capsys
):
    kind, spec = two_threads
    column, value, code, message = _case(kind, name)
    history = _history(kind, spec, "victim")[::-1]  # oldest first, read before the damage
    damaged = _damage(kind, spec, column, value)
    with open_store(spec, strict_serde(SERDE)) as store:
        result = audit_store(store, AgentState, history=True)
        page = list_threads(store, AgentState)
        timeline = thread_timeline(store, "victim", AgentState)
    # the metadata that names the step is what is damaged, or the step is read from it
    steps = {s["id"]: None if column == "metadata" else s["step"] for s in damaged}
    unreadable = [{"thread_id": "victim", "checkpoint_id": s["id"], "step": steps[s["id"]],
                   "code": code, "message": message} for s in damaged]  # fmt: skip
    assert result.to_json() == {
        "threads": 2,
        "checkpoints": 8,
        "invalid": [],
        "unreadable": unreadable,
    }
    assert [(row.thread_id, row.label(), row.detail) for row in page.rows] == [
        ("clean", "valid", ""),
        ("victim", "unreadable", f"[{code}] {message}"),
    ]
    assert [(c.checkpoint_id, c.step, c.unreadable and c.unreadable.code)
            for c in timeline.checkpoints] == [
        (s["id"], steps.get(s["id"], s["step"]), code if s["id"] in steps else None)
        for s in history
    ]  # fmt: skip
    assert timeline.blame_line() == f"The latest checkpoint cannot be read: [{code}]."

    monkeypatch.chdir(tmp_path)  # the CLI: every state counted, exit 1, no traceback
    for variable in ("PLAYGROUND_MODEL", "PLAYGROUND_GRAPH", "PLAYGROUND_STORE"):
        monkeypatch.delenv(variable, raising=False)
    assert main(["audit", spec, "--history", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == result.to_json()
    assert "Traceback" not in err


def test_a_checkpoint_that_is_not_langgraphs_object_is_named(two_threads):
    kind, spec = two_threads
    serde = strict_serde(SERDE)
    if kind == "sqlite":
        latest = _damage(kind, spec, "checkpoint", serde.dumps_typed([1, 2])[1])[0]
        message = "the checkpoint decodes to a list, not LangGraph's checkpoint object."
    else:
        latest = _damage(kind, spec, "checkpoint", json.dumps({"channel_versions": "x"}))[0]
        message = (
            "the checkpoint is not LangGraph's checkpoint object (channel_versions: Input "
            "should be a valid dictionary)."
        )
    with open_store(spec, serde) as store:
        result = audit_store(store, AgentState)
    assert [row.to_json() for row in result.unreadable] == [{
        "thread_id": "victim", "checkpoint_id": latest["id"], "step": 2,
        "code": "row_not_a_checkpoint", "message": message,
    }]  # fmt: skip


def test_a_value_over_the_limit_is_skipped_unread_and_named_with_its_size(two_threads):
    kind, spec = two_threads
    with open_store(spec, strict_serde(SERDE), max_value_bytes=64) as store:
        result = audit_store(store, AgentState)
    assert {(row.thread_id, row.code) for row in result.unreadable} == {
        ("clean", "row_too_large"), ("victim", "row_too_large"),
    }  # fmt: skip
    said = result.unreadable[0].message
    assert said.endswith(
        "over the 0.0 MB limit, so it was not read; raise the limit (--max-value-mb) to read it."
    ), said


class _Never(BaseModel):
    """A model no stored state fits: every walk over a thread's parents goes to its end."""

    never: int


def test_a_loop_of_parents_ends_every_walk(two_threads):
    # a crafted store: the victim's first checkpoint names its latest as its parent
    kind, spec = two_threads
    history = _history(kind, spec, "victim")
    _set(kind, spec, "UPDATE checkpoints SET parent_checkpoint_id = %s WHERE checkpoint_id = %s",
         (history[0]["id"], history[-1]["id"]))  # fmt: skip
    with open_store(spec, strict_serde(SERDE)) as store:
        page = list_threads(store, _Never, limit=10)
        timeline = thread_timeline(store, "victim", _Never)
        result = audit_store(store, _Never, history=True)
    # the clean thread never fit: from its input on; the victim's walk ends where it loops
    assert [(row.thread_id, row.label()) for row in page.rows] == [
        ("clean", "does not fit the model"), ("victim", "broken at step -1"),
    ]  # fmt: skip
    assert [c.step for c in lineage(timeline.checkpoints)] == [2, 1, 0, -1]
    assert (timeline.blamed.step, len(result.invalid)) == (-1, 8)


# What a byte-level attacker or a broken disk can leave in a row.
_TYPES = st.sampled_from(["msgpack", "json", "bytes", "null", "pickle", "msgpack+aes", "x+y", ""])
_TEXT = st.text(
    st.characters(exclude_characters="\x00", exclude_categories=["Cs"]), max_size=8
)  # NUL: PostgreSQL
_JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


def _blobs(original: bytes) -> st.SearchStrategy[bytes | None]:
    packed = _JSON.map(lambda value: ormsgpack.packb(value))
    some = st.none() | st.binary(max_size=48) | packed | st.just(DEEP_MSGPACK)
    if not original:  # a write of None is stored as an empty value
        return some
    cut = st.integers(0, max(0, len(original) - 1)).map(lambda n: original[:n])
    flipped = st.tuples(st.integers(0, max(0, len(original) - 1)), st.integers(1, 255)).map(
        lambda at: original[: at[0]] + bytes([original[at[0]] ^ at[1]]) + original[at[0] + 1 :]
    )
    return some | cut | flipped


@contextmanager
def _restored(kind: str, spec: str, rows: list[tuple[str, str, tuple[Any, ...]]]) -> Iterator[None]:
    """Undo each example's damage: the rows' original values are written back."""
    try:
        yield
    finally:
        for sql, _, params in rows:
            _set(kind, spec, sql, params)


def _originals(kind: str, spec: str) -> dict[str, Any]:
    if kind == "sqlite":
        with closing(sqlite3.connect(spec)) as conn:
            return {
                "checkpoints": conn.execute(
                    "SELECT checkpoint_id, type, checkpoint, metadata FROM checkpoints "
                    "WHERE thread_id = 'victim'").fetchall(),
                "writes": conn.execute(
                    "SELECT checkpoint_id, task_id, idx, type, value FROM writes "
                    "WHERE thread_id = 'victim'").fetchall(),
            }  # fmt: skip
    with psycopg.connect(spec) as conn:
        return {
            "checkpoints": conn.execute(
                "SELECT checkpoint_id, checkpoint::text, metadata::text FROM checkpoints "
                "WHERE thread_id = 'victim'").fetchall(),
            "blobs": conn.execute(
                "SELECT channel, version, type, blob FROM checkpoint_blobs "
                "WHERE thread_id = 'victim'").fetchall(),
        }  # fmt: skip


@st.composite
def _mutation(
    draw: Any, kind: str, rows: dict[str, Any]
) -> tuple[str, tuple[Any, ...], str, tuple[Any, ...]]:
    """One UPDATE that damages a victim row, and the one that restores it."""
    if kind == "sqlite":
        table = draw(st.sampled_from(["checkpoints", "writes"]))
        if table == "checkpoints":
            checkpoint_id, type_, blob, metadata = draw(st.sampled_from(rows["checkpoints"]))
            column = draw(st.sampled_from(["type", "checkpoint", "metadata"]))
            value = {"type": _TYPES | st.none(), "checkpoint": _blobs(blob),
                     "metadata": _blobs(metadata) | _JSON.map(lambda v: json.dumps(v).encode())}[column]  # fmt: skip
            old = {"type": type_, "checkpoint": blob, "metadata": metadata}[column]
            sql = f"UPDATE checkpoints SET {column} = %s WHERE checkpoint_id = %s"
            return sql, (draw(value), checkpoint_id), sql, (old, checkpoint_id)
        checkpoint_id, task_id, idx, type_, blob = draw(st.sampled_from(rows["writes"]))
        column = draw(st.sampled_from(["type", "value"]))
        value = _TYPES | st.none() if column == "type" else _blobs(blob)
        old = type_ if column == "type" else blob
        sql = (f"UPDATE writes SET {column} = %s WHERE thread_id = 'victim' AND "
               "checkpoint_id = %s AND task_id = %s AND idx = %s")  # fmt: skip
        return (
            sql,
            (draw(value), checkpoint_id, task_id, idx),
            sql,
            (old, checkpoint_id, task_id, idx),
        )
    table = draw(st.sampled_from(["checkpoints", "blobs"]))
    if table == "checkpoints":
        checkpoint_id, checkpoint, metadata = draw(st.sampled_from(rows["checkpoints"]))
        column = draw(st.sampled_from(["checkpoint", "metadata"]))
        value = json.dumps(draw(_JSON | st.just(json.loads(checkpoint))))
        old = checkpoint if column == "checkpoint" else metadata
        sql = f"UPDATE checkpoints SET {column} = %s::jsonb WHERE thread_id = 'victim' AND checkpoint_id = %s"
        return sql, (value, checkpoint_id), sql, (old, checkpoint_id)
    channel, version, type_, blob = draw(st.sampled_from(rows["blobs"]))
    column = draw(st.sampled_from(["type", "blob"]))
    value = draw(_TYPES if column == "type" else _blobs(bytes(blob)))  # type is NOT NULL there
    old = type_ if column == "type" else blob
    sql = (f"UPDATE checkpoint_blobs SET {column} = %s WHERE thread_id = 'victim' AND "
           "channel = %s AND version = %s")  # fmt: skip
    return sql, (value, channel, version), sql, (old, channel, version)


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_no_mutation_of_a_row_reaches_the_reader_as_an_exception(kind, request, tmp_path):
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, "mutated", tmp_path, pg)
    with writer(kind, spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("clean", "victim"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
    rows = _originals(kind, spec)

    @settings(max_examples=60, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
    @given(_mutation(kind, rows))
    def read_everything(mutation: tuple[str, tuple[Any, ...], str, tuple[Any, ...]]) -> None:
        sql, params, undo, undo_params = mutation
        _set(kind, spec, sql, params)
        with _restored(kind, spec, [(undo, "", undo_params)]):
            with open_store(spec, strict_serde(SERDE)) as store:
                result = audit_store(store, AgentState, history=True)
                page = list_threads(store, AgentState)
                timelines = [thread_timeline(store, t, AgentState) for t in ("clean", "victim")]
            # every checkpoint is counted, the clean thread is read whole and valid
            assert (result.threads, result.checkpoints) == (2, 8)
            assert {s.thread_id for s in result.invalid} <= {"victim"}
            assert {row.thread_id for row in result.unreadable} <= {"victim"}
            assert [row.thread_id for row in page.rows] == ["clean", "victim"]
            assert page.rows[0].label() == "valid"
            assert [len(t.checkpoints) for t in timelines if t is not None] == [4, 4]

    read_everything()
