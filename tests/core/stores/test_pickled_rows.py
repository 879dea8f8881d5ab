"""A checkpoint LangGraph's own writer pickled (`pickle_fallback=True`) is an unreadable row
with the code `row_pickled` on every backend, named as pickle and never unpickled."""

from __future__ import annotations

import json
import pickle
from fractions import Fraction
from typing import Any

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel
from typing_extensions import TypedDict

from core.__main__ import main
from core.stores import audit_store, open_store, strict_serde
from core.stores.threads import list_threads
from core.stores.timeline import thread_timeline

from .conftest import new_store, writer


class Ratio(BaseModel):
    """The audited model: any value is valid, so only the pickle can make a finding."""

    x: Any = None


class _Channels(TypedDict, total=False):
    x: Any


PICKLED_MESSAGE = (
    "{what} was written with pickle (LangGraph's serializer with pickle_fallback=True stores "
    "a value msgpack cannot hold that way), and the playground never unpickles: unpickling "
    "runs whatever code the bytes name. To read it, load it with the writer's own serializer "
    "(JsonPlusSerializer(pickle_fallback=True).loads_typed) in your own code, at your own "
    "risk and only if you trust every writer of this store."
)


def _ratio_graph(saver: Any) -> Any:
    builder = StateGraph(_Channels)
    builder.add_node("third", lambda _: {"x": Fraction(1, 3)})  # no msgpack type for it
    builder.add_edge(START, "third")
    builder.add_edge("third", END)
    return builder.compile(checkpointer=saver)


@pytest.fixture(params=["sqlite", "postgres"])
def pickled_store(request, tmp_path) -> tuple[str, str]:
    kind = request.param
    pg = request.getfixturevalue("postgres") if kind == "postgres" else None
    spec = new_store(kind, "pickled", tmp_path, pg)
    with writer(kind, spec) as saver:
        saver.serde = JsonPlusSerializer(pickle_fallback=True)  # the writer's own choice
        _ratio_graph(saver).invoke({"x": 1}, {"configurable": {"thread_id": "t"}})
    return kind, spec


def _no_unpickling(monkeypatch) -> None:
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("something was unpickled")

    monkeypatch.setattr(pickle, "loads", refuse)
    monkeypatch.setattr(pickle, "load", refuse)


def test_a_pickled_checkpoint_is_an_unreadable_row_pickled_on_every_backend(
    pickled_store, monkeypatch
):
    kind, spec = pickled_store
    _no_unpickling(monkeypatch)
    with open_store(spec, strict_serde([Ratio])) as store:
        result = audit_store(store, Ratio)
        listed = list_threads(store, Ratio).rows
        timeline = thread_timeline(store, "t", Ratio)
    # SQLite keeps the whole checkpoint in one blob, pickled whole; Postgres the channel x
    what = "the checkpoint" if kind == "sqlite" else "channel x"
    (row,) = result.unreadable
    assert (result.invalid, row.thread_id, row.step, row.code, row.message) == (
        [], "t", 1, "row_pickled", PICKLED_MESSAGE.format(what=what),
    )  # fmt: skip
    assert [(r.thread_id, r.label()) for r in listed] == [("t", "unreadable")]
    assert timeline is not None
    # on both backends only step 1 holds the pickled value: the steps before it read
    assert [(c.step, c.unreadable and c.unreadable.code) for c in timeline.checkpoints] == [
        (-1, None), (0, None), (1, "row_pickled"),
    ]  # fmt: skip
    assert timeline.blame_line() == "The latest checkpoint cannot be read: [row_pickled]."


def test_the_cli_names_the_pickle_in_its_json(pickled_store, monkeypatch, capsys):
    kind, spec = pickled_store
    _no_unpickling(monkeypatch)
    code = main(["audit", spec, "--model", f"{__name__}:Ratio", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert (code, [(r["step"], r["code"]) for r in report["unreadable"]]) == (
        1,
        [(1, "row_pickled")],
    )


_SERVED_GRAPH = """
from fractions import Fraction
from typing import Any

from langgraph.graph import END, START, StateGraph
from typing_extensions import TypedDict


class State(TypedDict, total=False):
    x: Any


builder = StateGraph(State)
builder.add_node("third", lambda _: {"x": Fraction(1, 3)})
builder.add_edge(START, "third")
builder.add_edge("third", END)
graph = builder.compile()
"""


@pytest.mark.server
def test_a_server_unpickles_its_own_pickle_and_sends_null_so_no_audit_can_say_pickle(tmp_path):
    """langgraph-api pickles what msgpack cannot hold (its default), and its API sends such
    a value as null: the answer never says pickle, so a server audit validates the null."""
    from langgraph_sdk import get_sync_client

    from core.stores.reader import audit_any, open_any
    from tests._langgraph_server import langgraph_dev

    (tmp_path / "graph.py").write_text(_SERVED_GRAPH)
    (tmp_path / "langgraph.json").write_text(
        json.dumps({"dependencies": ["."], "graphs": {"ratio": "./graph.py:graph"}})
    )
    with langgraph_dev(tmp_path) as served:
        client = get_sync_client(url=served.url, api_key=None)
        thread = client.threads.create()["thread_id"]
        ran = client.runs.wait(thread, "ratio", input={"x": 1})
        state = client.threads.get_state(thread)
        with open_any(served.url, strict_serde([Ratio])) as store:
            report = audit_any(store, Ratio).to_json()
    assert (ran, state["values"]) == ({"x": None}, {"x": None})
    assert report == {"threads": 1, "checkpoints": 1, "invalid": [], "unreadable": []}
