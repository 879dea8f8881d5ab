"""The graphs the store tests migrate: each one's model, candidate, threads and plan.

A case's plan is the proposal (`PROPOSED`, asserted in test_migrate_stores.py) with its asked
steps answered the way the team that made the candidate would: a rename kept when it is one,
a drop and a default when it is not, and the value a gone Literal member has become.
"""

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import BaseModel

from core.migrate.plan import Plan, parse_plan
from core.order import AgentState, build_order_graph
from core.order.graph import CompiledGraph
from core.stores.demo import DEMO_THREADS, run_demo_threads

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
sys.path.insert(0, str(FIXTURES))  # as `--model migrations.chat:Chat` finds it from there
order = importlib.import_module("migrations.order")
chat = importlib.import_module("migrations.chat")
basket = importlib.import_module("migrations.basket")


@dataclass(frozen=True)
class Case:
    """One graph's stored threads and the migration of them to its candidate."""

    name: str
    model: type[BaseModel]
    candidate: type[BaseModel]
    graph_for: Callable[[str], CompiledGraph]  # thread id -> the graph that wrote it
    write_threads: Callable[[BaseCheckpointSaver[Any]], dict[str, str | None]]
    proposed: str  # propose(model, candidate)'s plan as TOML
    asked: list[int]  # the proposal's steps the user must answer
    answered: str  # the plan the tests apply: the proposal, its asked steps answered
    specs: tuple[str, str, str]  # --model, --candidate, --graph as the CLI takes them
    fixed: list[str]  # the threads whose latest state the plan fixes: each gets one fork

    @property
    def plan(self) -> Plan:
        return parse_plan(self.answered)


ORDER = Case(
    name="order",
    model=AgentState,
    candidate=order.NextOrder,
    graph_for=lambda thread: build_order_graph(DEMO_THREADS[thread][0]),
    write_threads=run_demo_threads,
    proposed="""
[[step]]
path = "user_id"
action = "rename"
to = "customer_id"

[[step]]
path = "logs"
action = "drop"

[[step]]
path = "status"
action = "map"
from = "validated"
to = "checked"

[[step]]
path = "priority"
action = "default"
value = "normal"
answer = "value"
""",
    asked=[0, 2, 3],
    answered="""
[[step]]
path = "user_id"
action = "rename"
to = "customer_id"

[[step]]
path = "logs"
action = "drop"

[[step]]  # "validated" was renamed "checked"
path = "status"
action = "map"
from = "validated"
to = "checked"

[[step]]
path = "priority"
action = "default"
value = "normal"
""",
    specs=("core.order:AgentState", "migrations.order:NextOrder", "core.order:build_order_graph"),
    fixed=["clean-1", "clean-2", "fault-node_exception", "fault-overwrite_logs",
           "fault-parallel_status", "fault-undeclared_key", "interrupted", "model-change"],
)  # fmt: skip

CHAT = Case(
    name="chat",
    model=chat.Chat,
    candidate=chat.NextChat,
    graph_for=lambda thread: chat.build_chat_graph(),
    write_threads=chat.write_threads,
    proposed="""
[[step]]
path = "turn"
action = "rename"
to = "turns"

[[step]]
path = "channel"
action = "rename"
to = "summary"

[[step]]
path = "mood"
action = "map"
from = "upset"
answer = "to"
""",
    asked=[0, 1, 2],
    answered="""
[[step]]
path = "turn"
action = "rename"
to = "turns"

[[step]]  # not a rename: the channel is dropped, and no thread has a summary yet
path = "channel"
action = "drop"

[[step]]
path = "summary"
action = "default"
value = ""

[[step]]  # an upset customer is not calm: neutral
path = "mood"
action = "map"
from = "upset"
to = "neutral"
""",
    specs=("migrations.chat:Chat", "migrations.chat:NextChat", "migrations.chat:build_chat_graph"),
    fixed=["calm", "escalated", "refund", "two-turns", "upset", "waiting-upset"],
)

BASKET = Case(
    name="basket",
    model=basket.Basket,
    candidate=basket.NextBasket,
    graph_for=lambda thread: basket.build_basket_graph(),
    write_threads=basket.write_threads,
    proposed="""
[[step]]
path = "items[*].qty"
action = "rename"
to = "quantity"

[[step]]
path = "items[*].gift_wrap"
action = "drop"

[[step]]
path = "items[*].kind"
action = "map"
from = "food"
to = "grocery"

[[step]]
path = "items[*].currency"
action = "default"
value = "EUR"
answer = "value"
""",
    asked=[0, 2, 3],
    answered="""
[[step]]
path = "items[*].qty"
action = "rename"
to = "quantity"

[[step]]
path = "items[*].gift_wrap"
action = "drop"

[[step]]  # "food" was renamed "grocery"
path = "items[*].kind"
action = "map"
from = "food"
to = "grocery"

[[step]]
path = "items[*].currency"
action = "default"
value = "EUR"
""",
    specs=(
        "migrations.basket:Basket",
        "migrations.basket:NextBasket",
        "migrations.basket:build_basket_graph",
    ),
    fixed=["books", "full", "groceries", "waiting"],
)

CASES = {case.name: case for case in (ORDER, CHAT, BASKET)}
