"""The oracle for the fan-out trace case (tests/fixtures/fanout_docs): LangGraph's own run.

The command line, `run_trace`/`trace_text` and the Trace page are each compared with what a
fresh compile of the same builder streams and returns: one row per node execution, as
(super-step, node, what the node wrote, the merged state after that super-step).
"""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parent / "fixtures"
GRAPH = "fanout_docs.graph:workflow"  # as --graph names it, with FIXTURES the working directory
PAYLOAD = {"topic": "kettles"}  # the input schema's one field; `docs` is the state's reducer
TEXT = json.dumps(PAYLOAD)


def fixture_module() -> Any:
    """The fixture's module as `load_project` imports it (FIXTURES on the import path)."""
    if str(FIXTURES) not in sys.path:
        sys.path.insert(0, str(FIXTURES))
    return importlib.import_module("fanout_docs.graph")


def langgraph_run(payload: dict[str, Any] = PAYLOAD) -> dict[str, Any]:
    """What LangGraph does with `payload`: its rows (from `stream`) and `invoke`'s output."""
    builder = fixture_module().workflow
    values = list(builder.compile().stream(payload, stream_mode="values"))
    rows: list[tuple[int, str, Any, dict[str, Any]]] = [(0, "__start__", payload, values[0])]
    for event in builder.compile().stream(payload, stream_mode="debug"):
        if event["type"] == "task_result":
            task = event["payload"]
            rows.append((event["step"], task["name"], task["result"], values[event["step"]]))
    return {"rows": rows, "output": builder.compile().invoke(payload)}
