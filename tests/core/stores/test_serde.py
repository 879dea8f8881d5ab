"""A store is untrusted: what a crafted row names is never run, and normal runs still read."""

from __future__ import annotations

import json
import os
import pickle
import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from pathlib import Path

import ormsgpack
import psycopg
import pytest
from langgraph.checkpoint.serde.jsonplus import (
    EXT_CONSTRUCTOR_SINGLE_ARG,
    JsonPlusSerializer,
)

from core.__main__ import main
from core.lg_compat import msgpack_encode as _msgpack_enc
from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.stores import Refused, audit_store, open_store, strict_serde
from core.stores.audit import InvalidState

from .conftest import new_store, writer

ROOT = Path(__file__).resolve().parents[3]


def _crafted(marker: Path) -> ormsgpack.Ext:
    """A msgpack value encoded exactly as LangGraph encodes a one-argument constructor call."""
    return ormsgpack.Ext(
        EXT_CONSTRUCTOR_SINGLE_ARG, _msgpack_enc(("os", "system", f"touch {marker}"))
    )


def _poison(kind: str, spec: str, thread: str, marker: Path) -> None:
    """Append the crafted value to the stored `messages` of `thread`'s latest checkpoint."""
    with writer(kind, spec) as saver:
        saved = saver.get_tuple({"configurable": {"thread_id": thread, "checkpoint_ns": ""}})
    messages = [*saved.checkpoint["channel_values"]["messages"], _crafted(marker)]
    if kind == "sqlite":
        checkpoint = {**saved.checkpoint, "channel_values": {
            **saved.checkpoint["channel_values"], "messages": messages}}  # fmt: skip
        type_, blob = JsonPlusSerializer().dumps_typed(checkpoint)
        with closing(sqlite3.connect(spec)) as conn, conn:
            conn.execute(
                "UPDATE checkpoints SET type = ?, checkpoint = ? WHERE checkpoint_id = ?",
                (type_, blob, saved.config["configurable"]["checkpoint_id"]),
            )
    else:  # Postgres keeps each channel's value in checkpoint_blobs
        version = saved.checkpoint["channel_versions"]["messages"]
        with psycopg.connect(spec, autocommit=True) as conn:
            conn.execute(
                "UPDATE checkpoint_blobs SET type = 'msgpack', blob = %s "
                "WHERE thread_id = %s AND channel = 'messages' AND version = %s",
                (_msgpack_enc(messages), thread, version),
            )


@pytest.fixture(params=["sqlite", "postgres"])
def poisoned(request, tmp_path) -> tuple[str, str, Path, str]:
    """A store of two clean runs, one with a crafted row; (kind, spec, marker, checkpoint id)."""
    kind = request.param
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, "poisoned", tmp_path, pg)
    with writer(kind, spec) as saver:
        graph = build_order_graph().builder.compile(checkpointer=saver)
        for thread in ("clean", "poisoned"):
            graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": thread}})
        latest = saver.get_tuple({"configurable": {"thread_id": "poisoned"}})
    marker = tmp_path / "ran"
    _poison(kind, spec, "poisoned", marker)
    return kind, spec, marker, latest.config["configurable"]["checkpoint_id"]


def test_a_crafted_row_runs_under_langgraphs_defaults_but_not_in_the_audit(poisoned, capsys):
    kind, spec, marker, checkpoint_id = poisoned
    with writer(kind, spec) as saver:
        # The control: LangGraph's default serializer as shipped, with LANGGRAPH_STRICT_MSGPACK
        # unset: it allows every module (CI also runs the suite with the variable set).
        saver.serde = JsonPlusSerializer(allowed_msgpack_modules=True)
        saver.get_tuple({"configurable": {"thread_id": "poisoned"}})
    assert marker.exists(), "the default serializer called os.system"
    marker.unlink()

    with open_store(spec, strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
    assert not marker.exists()
    assert (result.threads, result.checkpoints) == (2, 2)
    assert result.invalid == [
        InvalidState("poisoned", checkpoint_id, 2, "confirm", [{
            "type": "refused_value",
            "loc": ["messages", 2],
            "msg": "the stored value names os.system, which the playground's allow-list "
            "refuses (it was not run); if it is one of your own types, pass the model that "
            "declares it with --model",
            "input": "os.system",
        }])
    ]  # fmt: skip

    assert main(["audit", spec, "--json"]) == 1
    assert not marker.exists()
    assert json.loads(capsys.readouterr().out) == result.to_json()


class _RunsOnUnpickle:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (os.system, (f"touch {self.marker}",))


def test_pickled_values_are_refused_unread(tmp_path):
    marker = tmp_path / "ran"
    stored = ("pickle", pickle.dumps(_RunsOnUnpickle(marker)))
    JsonPlusSerializer(pickle_fallback=True).loads_typed(stored)  # the control
    assert marker.exists()
    marker.unlink()
    assert strict_serde([AgentState]).loads_typed(stored) == Refused("pickle")
    assert not marker.exists()


ROUND_TRIP = textwrap.dedent(
    """
    import io, json, logging
    log = io.StringIO()
    logging.basicConfig(stream=log, level=logging.WARNING)
    from langchain_core.messages import AIMessage, HumanMessage
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
    from core.order import SEED_PAYLOAD, AgentState, build_order_graph
    from core.stores.serde import find_refused, strict_serde

    saver = InMemorySaver()
    config = {"configurable": {"thread_id": "t"}}
    build_order_graph().builder.compile(checkpointer=saver).invoke(SEED_PAYLOAD, config)
    serde = strict_serde([AgentState])
    checkpoints = [t.checkpoint for t in saver.list(config)]
    back = [serde.loads_typed(serde.dumps_typed(c)) for c in checkpoints]
    model = AgentState.model_validate(SEED_PAYLOAD)
    messages = back[0]["channel_values"]["messages"]
    print(json.dumps({
        "checkpoints": len(checkpoints),
        "equal": back == checkpoints,
        "refused": [find_refused(b) for b in back],
        "message_types": [type(m).__name__ for m in messages],
        "model_equal": serde.loads_typed(serde.dumps_typed(model)) == model,
        "plain_strict_keeps_model": isinstance(
            JsonPlusSerializer().loads_typed(serde.dumps_typed(model)), AgentState),
        "log": log.getvalue(),
    }))
    """
)


def test_a_normal_run_round_trips_under_langgraph_strict_msgpack():
    env = {**os.environ, "LANGGRAPH_STRICT_MSGPACK": "true", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", ROUND_TRIP], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=True)  # fmt: skip
    report = json.loads(done.stdout)
    blocked = "Blocked deserialization of core.order.AgentState - not in allowed_msgpack_modules"
    assert report == {
        "checkpoints": 4,
        "equal": True,
        "refused": [[], [], [], []],
        "message_types": ["HumanMessage", "AIMessage"],
        "model_equal": True,
        "plain_strict_keeps_model": False,  # LangGraph's strict default refuses our model
        "log": f"WARNING:langgraph.checkpoint.serde.jsonplus:{blocked}. Add to "
        "allowed_msgpack_modules to allow: [('core.order', 'AgentState')]\n",
    }
    assert "Deserializing unregistered type" not in done.stderr + report["log"]


def test_langgraphs_ext_hook_is_called_directly_and_reads_as_the_repacking_fallback(tmp_path):
    from langchain_core.messages import HumanMessage

    marker = tmp_path / "ran"
    state = AgentState.model_validate(SEED_PAYLOAD)
    stored = ("msgpack", _msgpack_enc({"state": state, "messages": [HumanMessage("hi", id="1")],
                                       "crafted": [1, _crafted(marker)]}))  # fmt: skip
    direct = strict_serde([AgentState])
    assert direct._hook == direct._inner._unpack_ext_hook  # the pinned LangGraph has it
    fallback = strict_serde([AgentState])
    fallback._hook = fallback._repacked
    read = [serde.loads_typed(stored) for serde in (direct, fallback)]
    assert (
        read[0]
        == read[1]
        == {
            "state": state,
            "messages": [HumanMessage("hi", id="1")],
            "crafted": [1, Refused("os.system")],
        }
    )
    assert (direct.refusals, fallback.refusals) == (1, 1)
    assert not marker.exists()
