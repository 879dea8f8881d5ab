"""Probes of reducers: last-write-wins without one, parallel writes, and `Overwrite`."""

import operator
from typing import Annotated, Any

from langgraph.graph import END, START, StateGraph
from langgraph.types import Overwrite
from pydantic import BaseModel, Field

from core.order import SEED_PAYLOAD, build_order_graph
from core.probes._model import ARTICLE_STATE, Check, Probe, describe, outcome

__all__ = ["PROBES"]

_LIMITS = {"recursion_limit": 10}


class _Plain(BaseModel):
    items: list[str] = Field(default_factory=list)


def _two_writers(parallel: bool) -> tuple[Any, BaseException | None]:
    builder = StateGraph(_Plain)
    builder.add_node("a", lambda state: {"items": ["from a"]})
    builder.add_node("b", lambda state: {"items": ["from b"]})
    builder.add_edge(START, "a")
    builder.add_edge(START if parallel else "a", "b")
    builder.add_edge("b", END)
    if parallel:
        builder.add_edge("a", END)
    return outcome(lambda: builder.compile().invoke({"items": ["input"]}, _LIMITS))


def probe_no_reducer_overwrites_list() -> list[Check]:
    sequential, seq_exc = _two_writers(parallel=False)
    parallel, par_exc = _two_writers(parallel=True)
    return [
        Check(
            expected="a -> b, both write items: b's write replaces a's (['from b'])",
            observed=describe(seq_exc) if seq_exc else f"final items={sequential['items']!r}",
            matches=sequential is not None and sequential["items"] == ["from b"],
        ),
        Check(
            expected="a and b write items in the same step: one write is silently lost",
            observed=describe(par_exc) if par_exc else f"final items={parallel['items']!r}",
            matches=parallel is not None and len(parallel["items"]) == 1,
        ),
    ]


class _Mixed(BaseModel):
    items: list[str] = Field(default_factory=list)
    logs: Annotated[list[str], operator.add] = Field(default_factory=list)


def probe_overwrite_bypasses_reducer() -> list[Check]:
    order = build_order_graph(["overwrite_logs"]).invoke(SEED_PAYLOAD, _LIMITS)
    builder = StateGraph(_Mixed)
    builder.add_node("a", lambda state: {"items": Overwrite(["z"])})
    builder.add_edge(START, "a")
    builder.add_edge("a", END)
    plain, exc = outcome(lambda: builder.compile().invoke({"items": ["i"]}, _LIMITS))
    return [
        Check(
            expected="logs=Overwrite(['confirmed']) on an operator.add field gives ['confirmed']",
            observed=f"final logs={order['logs']!r}",
            matches=order["logs"] == ["confirmed"],
        ),
        Check(
            expected="items=Overwrite(['z']) on a field without a reducer gives ['z']",
            observed=describe(exc) if exc else f"final items={plain['items']!r}",
            matches=plain is not None and plain["items"] == ["z"],
        ),
    ]


PROBES = (
    Probe(
        id="no_reducer_overwrites_list",
        claim="Without a reducer a later write overwrites a list; parallel list writes lose data.",
        source=f"{ARTICLE_STATE} § 4.1 ('without step 4's reducer');"
        " key settings: Annotated[T, reducer]",
        run=probe_no_reducer_overwrites_list,
    ),
    Probe(
        id="overwrite_bypasses_reducer",
        claim="Overwrite(value) bypasses the reducer and replaces the whole value.",
        source=f"{ARTICLE_STATE} § 4.1 data path, step 4",
        run=probe_overwrite_bypasses_reducer,
    ),
)
