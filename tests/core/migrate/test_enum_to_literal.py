"""An Enum field turned into a Literal: what LangGraph really hands the candidate's graph, and
the proposal that matches it.

LangGraph's serializer stores an Enum member as its class and value and decodes the member
again while the class is importable. A `str` Enum's member is a string equal to its value, so
a Literal of the same values accepts it as stored: no step. A plain Enum's member is not, and
the candidate's graph refuses it when it builds a node's input: each kept value is mapped to
its own text (the map matches the member as stored and writes the text). Where the class
goes from the code, LangGraph hands back the stored value itself (checked below too).
"""

from __future__ import annotations

import enum
import sqlite3
import sys
import types
from contextlib import closing
from pathlib import Path
from typing import Any, Literal

import pytest
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from core.migrate.plan import Plan, Step
from core.migrate.propose import Proposal, propose
from core.migrate.write import write_migration
from core.stores.serde import strict_serde
from core.stores.unbrick import WRITES_ENV

from .oracle import root


class Level(enum.StrEnum):  # a str Enum: each member is a string equal to its value
    LOW = "low"
    HIGH = "high"


class Size(enum.Enum):  # a plain Enum: its members are not their values
    SMALL = "small"
    LARGE = "large"


class Job(BaseModel):
    name: str
    level: Level = Level.LOW
    size: Size = Size.SMALL


class Same(BaseModel):
    name: str
    level: Literal["low", "high"] = "low"
    size: Literal["small", "large"] = "small"


class Renamed(BaseModel):
    name: str
    level: Literal["low", "top"] = "low"
    size: Literal["small", "huge"] = "small"


class Removed(BaseModel):
    name: str
    level: Literal["low"] = "low"
    size: Literal["small"] = "small"


def _rate(state: BaseModel) -> dict[str, object]:
    big = state.name == "big"  # type: ignore[attr-defined]
    return {"level": Level.HIGH if big else Level.LOW, "size": Size.LARGE if big else Size.SMALL}


def _ship(state: BaseModel) -> dict[str, object]:
    return {"name": f"{state.name} shipped"}  # type: ignore[attr-defined]


def _graph(model: type[BaseModel]) -> StateGraph:
    """rate (stores the members themselves) -> ship, over `model`."""
    graph = StateGraph(model)
    graph.add_node("rate", _rate)
    graph.add_node("ship", _ship)
    graph.add_edge(START, "rate")
    graph.add_edge("rate", "ship")
    graph.add_edge("ship", END)
    return graph


def _store(folder: Path) -> str:
    """Two threads run by Job's graph, each stopped before ship: `big` (HIGH, LARGE) and
    `small` (LOW, SMALL), the members stored by LangGraph's own SqliteSaver."""
    spec = str(folder / "jobs.sqlite")
    with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
        graph = _graph(Job).compile(checkpointer=SqliteSaver(conn), interrupt_before=["ship"])
        for name in ("big", "small"):
            graph.invoke({"name": name}, root(name))
    return spec


def _resume(spec: str, candidate: type[BaseModel]) -> dict[str, Any]:
    """Each thread resumed on the candidate's graph: its final state, or the fields the
    candidate refused in the input LangGraph built for ship from the stored state."""
    serde = strict_serde([Job, candidate])
    outcome: dict[str, Any] = {}
    with closing(sqlite3.connect(spec, check_same_thread=False)) as conn:
        graph = _graph(candidate).compile(checkpointer=SqliteSaver(conn, serde=serde))
        for name in ("big", "small"):
            try:
                outcome[name] = to_jsonable_python(graph.invoke(None, root(name)))
            except ValidationError as refused:
                outcome[name] = sorted(str(error["loc"][0]) for error in refused.errors())
    return outcome


def _map(path: str, old: str, new: str | None) -> Step:
    fields = {"path": path, "action": "map", "from": old}
    return Step.model_validate({**fields, "to": new} if new else {**fields, "answer": "to"})


_KEPT = '"{}" at `size` is stored as a member of an Enum class, which the candidate refuses though it accepts the value: the map writes its text.'
_GONE = '"{}" is no longer allowed at `{}`'
PROPOSED = {
    Same: Proposal(
        plan=Plan(step=[_map("size", "small", "small"), _map("size", "large", "large")]),
        notes={0: _KEPT.format("small"), 1: _KEPT.format("large")},
    ),
    Renamed: Proposal(
        plan=Plan(
            step=[
                _map("level", "high", "top"),
                _map("size", "large", "huge"),
                _map("size", "small", "small"),
            ]
        ),  # fmt: skip
        notes={
            0: _GONE.format("high", "level")
            + ' and "top" is new: keep this step if it is a rename, else write what it becomes.',
            1: _GONE.format("large", "size")
            + ' and "huge" is new: keep this step if it is a rename, else write what it becomes.',
            2: _KEPT.format("small"),
        },
        asked=[0, 1],
    ),
    Removed: Proposal(
        plan=Plan(
            step=[
                _map("level", "high", None),
                _map("size", "large", None),
                _map("size", "small", "small"),
            ]
        ),  # fmt: skip
        notes={
            0: _GONE.format("high", "level")
            + ": write what it becomes in `to` and remove `answer` (nothing is guessed: until then it changes nothing and its threads stay broken).",
            1: _GONE.format("large", "size")
            + ": write what it becomes in `to` and remove `answer` (nothing is guessed: until then it changes nothing and its threads stay broken).",
            2: _KEPT.format("small"),
        },
        asked=[0, 1],
    ),
}
# what each thread ends as once the answered plan is applied and it resumes
FINAL = {
    Same: {"big": ("high", "large"), "small": ("low", "small")},
    Renamed: {"big": ("top", "huge"), "small": ("low", "small")},
    Removed: {"big": ("low", "small"), "small": ("low", "small")},
}


@pytest.mark.parametrize("candidate", [Same, Renamed, Removed], ids=lambda c: c.__name__)
def test_an_enum_turned_literal_is_proposed_as_langgraph_hands_its_stored_members(
    candidate, tmp_path, monkeypatch
):
    proposal = propose(Job, candidate)
    assert proposal == PROPOSED[candidate]
    spec = _store(tmp_path)
    # as stored: the str Enum's member passes the Literal, the plain Enum's does not (and in
    # `big`, a value the candidate renamed or removed fails as well)
    assert _resume(_copy(spec, tmp_path), candidate) == {
        "big": ["size"] if candidate is Same else ["level", "size"],
        "small": ["size"],
    }
    answered = [step.model_copy(update={"to": "low" if step.path == "level" else "small",
                                        "answer": None}) if step.answer else step
                for step in proposal.plan.steps]  # fmt: skip
    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_migration(spec, Job, candidate, Plan(step=answered),
                              lambda _: _graph(candidate).compile(),
                              strict_serde([Job, candidate]))  # fmt: skip
    assert sorted(w.thread_id for w in written) == ["big", "small"]
    assert _resume(spec, candidate) == {
        name: {"name": f"{name} shipped", "level": level, "size": size}
        for name, (level, size) in FINAL[candidate].items()
    }


def _copy(spec: str, folder: Path) -> str:
    """A copy of the store, resumed without migrating (the original is migrated after)."""
    copy = folder / "unmigrated.sqlite"
    with closing(sqlite3.connect(spec)) as source, closing(sqlite3.connect(copy)) as target:
        source.backup(target)
    return str(copy)


def test_a_stored_member_whose_class_is_gone_is_handed_back_as_its_value(monkeypatch):
    """Where the code no longer holds the Enum class, LangGraph's serializer gives the stored
    value itself: then a Literal of the same values accepts a plain Enum's member too."""
    module = types.ModuleType("gone_enum")
    exec("import enum\nclass Size(enum.Enum):\n    LARGE = 'large'\n", module.__dict__)
    monkeypatch.setitem(sys.modules, "gone_enum", module)
    stored = JsonPlusSerializer().dumps_typed({"size": module.Size.LARGE})
    monkeypatch.delitem(sys.modules, "gone_enum")
    assert JsonPlusSerializer().loads_typed(stored) == {"size": "large"}
