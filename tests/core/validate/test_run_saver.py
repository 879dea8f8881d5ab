"""core.validate.run_saver: a run's states are the same with LANGGRAPH_STRICT_MSGPACK set or not, and
nothing is deserialized by a name its schemas do not declare."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# A corpus graph whose subgraph stores its Pydantic state object in a checkpoint.
SCRIPT = """
import importlib, sys
sys.path.insert(0, "tests/fixtures")
from langgraph.checkpoint.memory import InMemorySaver
import core.trace.run as trace
from core.trace.reducers import dump_json
if sys.argv[1] == "default":  # the control: the checkpointer LangGraph gives by default
    trace.run_saver = lambda graph: InMemorySaver()
graph = importlib.import_module("corpus.review_subgraph").graph
payload = {"messages": [{"type": "human", "content": "Taxi to the client", "id": "ask"}]}
run = trace.run_trace(graph, payload, check_each_step=False, message_ids=lambda n: f"m{n}")
print(dump_json([(step.node, step.state) for step in run.steps]))
"""


def _run(saver: str, strict: bool) -> tuple[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, saver],
        env={**os.environ, "PYTHONPATH": str(ROOT), "LANGGRAPH_STRICT_MSGPACK": str(strict)},
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout, done.stderr


@pytest.mark.parametrize("strict", [False, True])
def test_runs_read_back_their_own_types_with_or_without_strict_msgpack(strict):
    ours, said = _run("ours", strict)
    default, warned = _run("default", strict)
    asked = {"messages": [{"type": "human", "content": "Taxi to the client", "id": "ask"}]}
    assert json.loads(ours) == [["__start__", asked], ["approval", asked]]  # it interrupts
    assert ours == default
    assert said == ""
    # The control: LangGraph's default checkpointer names the unregistered state class.
    word = "Blocked deserialization of" if strict else "Deserializing unregistered type"
    assert f"{word} corpus.review_subgraph.ExpenseClaim" in warned


def test_the_allowlist_is_langgraphs_own_for_the_graph_collected_once():
    from core.lg_compat import build_serde_allowlist, msgpack_allowlist
    from core.order import build_order_graph
    from core.validate.run_saver import graph_schemas, run_saver, serde_allowlist

    graph = build_order_graph()
    langgraphs = build_serde_allowlist(
        schemas=graph_schemas(graph), channels=graph.builder.channels
    )
    assert serde_allowlist(graph) == frozenset(langgraphs)
    assert serde_allowlist(graph) is serde_allowlist(graph)  # not walked again per run
    saver = run_saver(graph, lenient=True)
    assert msgpack_allowlist(saver.serde) == langgraphs
