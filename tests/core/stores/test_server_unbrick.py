"""Unbrick through a real `langgraph dev`'s API: the readable window, the fork, the check."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator

import pytest
from langgraph_sdk import get_sync_client

from core.stores.reader import open_any, timeline_of, write_fork
from core.stores.serde import strict_serde
from core.stores.timeline import lineage
from core.stores.unbrick import WRITES_ENV, UnbrickError, plan_unbrick
from core.validate.entry_run import entry_graph
from tests._langgraph_server import LangGraphServer
from tests.server_fixtures import BROKEN, SERVER_GRAPH, serve_four_threads

pytestmark = pytest.mark.server

sys.path.insert(0, str(SERVER_GRAPH.parent))
OrderState = importlib.import_module("server_graph.graph").OrderState


@pytest.fixture(scope="module")
def served() -> Iterator[LangGraphServer]:
    with serve_four_threads() as server:
        yield server


def _history_ids(client, thread: str, before: str) -> list[str]:
    states = client.threads.get_history(
        thread, limit=100, before={"configurable": {"checkpoint_id": before}}
    )
    return [s["checkpoint"]["checkpoint_id"] for s in states]


def test_a_refused_thread_is_forked_from_its_last_valid_checkpoint_and_runs_again(
    served, monkeypatch
):
    client = get_sync_client(url=served.url, api_key=None)
    with open_any(served.url, strict_serde([OrderState])) as store:
        timeline = timeline_of(store, BROKEN, OrderState)
    # the server refuses the history; the window before the failed run is what it returns
    assert timeline.note.startswith("[server_history_refused] The server answered 400")
    assert "; shown: those before the run that failed at " in timeline.note
    assert [(c.step, c.source, bool(c.errors)) for c in timeline.checkpoints] == [
        (-1, "input", False), (0, "loop", False), (1, "loop", False), (2, "loop", False),
        (3, "update", True),
    ]  # fmt: skip
    base = timeline.checkpoints[3]
    assert (timeline.blamed.step, timeline.blamed.parent_id) == (3, base.checkpoint_id)
    edited = {**timeline.blamed.state, "lines": [{"sku": "ABC-123", "qty": 1}]}
    plan = plan_unbrick(timeline, edited, OrderState, entry_graph(OrderState))
    assert (plan.checkpoint_id, plan.values, plan.replaced) == (
        base.checkpoint_id, {"lines": [{"sku": "ABC-123", "qty": 1}]}, (),
    )  # fmt: skip

    monkeypatch.delenv(WRITES_ENV, raising=False)
    with pytest.raises(UnbrickError) as off:
        write_fork(served.url, plan, entry_graph(OrderState), strict_serde([OrderState]))
    assert off.value.code == "store_writes_disabled"
    before = [c.checkpoint_id for c in timeline.checkpoints][::-1]

    monkeypatch.setenv(WRITES_ENV, "1")
    written = write_fork(served.url, plan, entry_graph(OrderState), strict_serde([OrderState]))
    head = written["configurable"]["checkpoint_id"]
    # LangGraph is the oracle: the thread reads again, from the fork, and a run finishes
    state = client.threads.get_state(BROKEN)
    assert (state["checkpoint"]["checkpoint_id"], state["values"]["lines"]) == (
        head, [{"sku": "ABC-123", "qty": 1}],
    )  # fmt: skip
    assert state["parent_checkpoint"]["checkpoint_id"] == base.checkpoint_id
    assert _history_ids(client, BROKEN, before[0])[:4] == before[1:]  # older rows unchanged
    run = client.runs.wait(BROKEN, "orders", input=None, raise_error=False)
    assert (run["status"], client.threads.get(BROKEN)["status"]) == ("answered", "idle")
    with open_any(served.url, strict_serde([OrderState])) as store:
        again = timeline_of(store, BROKEN, OrderState)
    # the abandoned branch (the failed run's checkpoints) still holds what the server cannot
    # prepare, so the whole history stays refused; the new head and what led to it are read
    assert "; shown: its newest checkpoints the server returns and those before " in again.note
    assert again.blamed is None and again.checkpoints[-1].checkpoint_id == head
    lineage_ids = [c.checkpoint_id for c in lineage(again.checkpoints)]
    assert head in lineage_ids and base.checkpoint_id in lineage_ids
