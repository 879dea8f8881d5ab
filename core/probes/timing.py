"""Probe of state-schema cost: one graph timed with BaseModel, TypedDict and dataclass state."""

import dataclasses
import operator
import statistics
import time
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

from core.order.graph import CompiledGraph
from core.probes._model import ARTICLE_STATE, Check, Probe
from core.words import count

__all__ = ["BUDGET_SECONDS", "MARGIN", "PROBES", "time_state_kinds"]

BUDGET_SECONDS = 0.8  # wall-clock cap for the measurement rounds (plus ~0.2 s to build)
MARGIN = 0.03  # "slower" must show in 3 of 4 rounds by 3 %+, so noise alone cannot flip it
_MIN_ROUNDS, _MAX_ROUNDS, _CALLS_PER_ROUND = 5, 15, 8


class _ItemModel(BaseModel):
    sku: str = Field(min_length=3, max_length=32, pattern=r"^[A-Z0-9-]+$")
    qty: int = Field(ge=1, le=99)
    unit_price: float = Field(gt=0)


class _OrderModel(BaseModel):
    amount: float = Field(ge=0)
    status: str = "pending"
    items: list[_ItemModel] = Field(default_factory=list, max_length=20)
    logs: Annotated[list[str], operator.add] = Field(default_factory=list)


class _ItemDict(TypedDict):
    sku: str
    qty: int
    unit_price: float


class _OrderDict(TypedDict):
    amount: float
    status: str
    items: list[_ItemDict]
    logs: Annotated[list[str], operator.add]


@dataclasses.dataclass
class _OrderData:
    amount: float
    status: str = "pending"
    items: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    logs: Annotated[list[str], operator.add] = dataclasses.field(default_factory=list)


_PAYLOAD: dict[str, Any] = {
    "amount": 99.0,
    "status": "pending",
    "items": [{"sku": f"SKU-{i:02}", "qty": 2, "unit_price": 49.5} for i in range(20)],
    "logs": [],
}


def _build(state: type, **kwargs: Any) -> CompiledGraph:
    builder: StateGraph[Any] = StateGraph(state, **kwargs)
    builder.add_node("validate_order", lambda s: {"status": "validated", "logs": ["checked"]})
    builder.add_node("confirm", lambda s: {"status": "confirmed", "logs": ["confirmed"]})
    builder.add_edge(START, "validate_order")
    builder.add_edge("validate_order", "confirm")
    builder.add_edge("confirm", END)
    return builder.compile()


def time_state_kinds(budget: float = BUDGET_SECONDS) -> dict[str, list[float]]:
    """Fastest invoke (seconds) of the same two-node graph, per state kind, per interleaved round.

    Rounds interleave the kinds (rotating their order) so drift hits all of them alike.

    Example:
        >>> sorted(time_state_kinds(0.2))
        ['basemodel', 'dataclass', 'typeddict', 'typeddict+input_schema']
    """
    graphs = {
        "basemodel": _build(_OrderModel),
        "typeddict": _build(_OrderDict),
        "dataclass": _build(_OrderData),
        "typeddict+input_schema": _build(_OrderDict, input_schema=_OrderModel),
    }
    config = {"recursion_limit": 10}
    for graph in graphs.values():
        graph.invoke(_PAYLOAD, config)  # warm up: first calls build caches
    times: dict[str, list[float]] = {kind: [] for kind in graphs}
    kinds = list(graphs)
    started = time.perf_counter()
    for round_no in range(_MAX_ROUNDS):
        if round_no >= _MIN_ROUNDS and time.perf_counter() - started > budget:
            break
        for kind in kinds[round_no % 4 :] + kinds[: round_no % 4]:
            calls = []
            for _ in range(_CALLS_PER_ROUND):
                tick = time.perf_counter()
                graphs[kind].invoke(_PAYLOAD, config)
                calls.append(time.perf_counter() - tick)
            # The fastest call of a round is the least disturbed by the scheduler (as timeit).
            times[kind].append(min(calls))
    return times


def _slower(times: dict[str, list[float]], kind: str, than: str) -> tuple[bool | None, str]:
    ratios = sorted(a / b for a, b in zip(times[kind], times[than], strict=True))
    low, median, high = statistics.quantiles(ratios, n=4)
    # Decided only when a quarter of the rounds on either side agree; otherwise inconclusive.
    decided = True if low > 1 + MARGIN else False if high < 1 + MARGIN else None
    # The ratio of each round, not of the medians below: rounds pair the kinds in time.
    return decided, f"{kind}/{than} per round: median {median:.2f} (quartiles {low:.2f}-{high:.2f})"


def probe_basemodel_state_is_slower() -> list[Check]:
    times = time_state_kinds()
    medians = ", ".join(
        f"{kind} {statistics.median(values) * 1e3:.3f} ms" for kind, values in times.items()
    )
    _, schema_ratio = _slower(times, "typeddict+input_schema", "typeddict")
    checks = []
    for other in ("typeddict", "dataclass"):
        slower, ratio = _slower(times, "basemodel", other)
        verdict = {True: "slower", False: "not slower", None: "inconclusive"}[slower]
        checks.append(
            Check(
                expected=f"BaseModel state is at least {MARGIN:.0%} slower than {other} state",
                observed=f"{verdict}: {ratio}; {count(len(times['basemodel']), 'round')} of "
                f"{_CALLS_PER_ROUND} invokes; fastest invoke, median of rounds: {medians}; "
                f"{schema_ratio}",
                matches=slower,
            )
        )
    return checks


PROBES = (
    Probe(
        id="basemodel_state_is_slower",
        claim="Recursive validation makes BaseModel state slower than TypedDict and dataclass "
        "state (use input_schema=<Pydantic> with TypedDict state on hot paths).",
        source=f"{ARTICLE_STATE} § 4.2 limits: 'recursive validation is slow';"
        " § 5.8 choosing among the three schemas",
        run=probe_basemodel_state_is_slower,
        on_demand=True,
    ),
)
