"""The `langgraph dev` fixture: serves a copy of the project, stops its whole process group."""

from __future__ import annotations

import os

import pytest
from langgraph_sdk import get_sync_client

from tests._langgraph_server import langgraph_dev
from tests.server_fixtures import SERVER_GRAPH

pytestmark = pytest.mark.server


def test_the_in_memory_server_runs_the_graph_in_a_copy_of_the_project(langgraph_server):
    client = get_sync_client(url=langgraph_server.url)
    thread = client.threads.create()
    output = client.runs.wait(
        thread["thread_id"], "orders", input={"lines": [{"sku": "ABC-123", "qty": 2}]}
    )
    assert output == {
        "lines": [{"sku": "ABC-123", "qty": 2}],
        "status": "answered",
        "notes": ["1 lines"],
        "messages": [
            {
                "content": "1 lines noted",
                "additional_kwargs": {},
                "response_metadata": {},
                "type": "ai",
                "name": None,
                "id": "answer-1",
                "tool_calls": [],
                "invalid_tool_calls": [],
                "usage_metadata": None,
            }
        ],
    }
    # the in-memory runtime's pickles land in the copy, never in the repository
    assert (langgraph_server.workdir / "graph.py").read_bytes() == (
        SERVER_GRAPH / "graph.py"
    ).read_bytes()
    assert not (SERVER_GRAPH / ".langgraph_api").exists()


def test_leaving_the_context_stops_the_process_group_and_removes_the_copy():
    with langgraph_dev(SERVER_GRAPH) as server:
        group, workdir = server.process.pid, server.workdir
        assert server.url.startswith("http://127.0.0.1:")
        assert "Application startup complete." in server.log()
    with pytest.raises(ProcessLookupError):
        os.killpg(group, 0)  # signal 0: only asks whether the group still exists
    assert not workdir.exists()
