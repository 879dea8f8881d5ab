"""audit_store on real SQLite and Postgres stores, checked against LangGraph's own savers."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ValidationError

from core.order import AgentState, build_order_graph
from core.stores import audit_store, open_store, strict_serde
from core.stores.demo import DEMO_THREADS, CandidateState
from core.stores.walk import iter_thread_ids

from .conftest import langgraphs_writer, writer


def _root(thread_id: str, checkpoint_id: str | None = None) -> dict:
    config = {"thread_id": thread_id, "checkpoint_ns": ""}
    if checkpoint_id:
        config["checkpoint_id"] = checkpoint_id
    return {"configurable": config}


def _expected_errors(
    values: dict, metadata: dict, model: type[BaseModel], written: dict | None = None
) -> list[dict]:
    # the oracle: the model's own fields picked out of the saver's raw channel values; for
    # an input checkpoint, of its child's: the state LangGraph wrote the input into
    if metadata["source"] == "input":
        assert written is not None, "every demo input was written by LangGraph"
        values = written
    state = {name: values[name] for name in model.model_fields if name in values}
    try:
        model.model_validate(state)
    except ValidationError as exc:
        as_json = json.loads(exc.json(include_url=False))
        assert [(e["type"], tuple(e["loc"]), e["msg"]) for e in as_json] == [
            (e["type"], e["loc"], e["msg"]) for e in exc.errors(include_url=False)
        ]
        return as_json
    return []


def _expected_node(saver, saved) -> str | None:
    """LangGraph's own answer: the parent's pending writes, named by get_state's tasks."""
    if saved.metadata["source"] == "input":
        return None
    thread = saved.config["configurable"]["thread_id"]
    graph = build_order_graph(DEMO_THREADS[thread][0]).builder.compile(checkpointer=saver)
    return langgraphs_writer(saver, graph, saved)


def written_inputs(saver, thread: str) -> dict[str, dict]:
    """Input checkpoint id -> the channel values of its child: LangGraph's own write of it."""
    return {
        saved.parent_config["configurable"]["checkpoint_id"]: saved.checkpoint["channel_values"]
        for saved in saver.list(_root(thread))
        if saved.parent_config and saved.metadata["source"] == "loop"
    }


def _expected(kind: str, spec: str, model: type[BaseModel], history: bool) -> dict:
    invalid, checkpoints = [], 0
    with writer(kind, spec) as saver:
        threads = sorted({t.config["configurable"]["thread_id"] for t in saver.list(None)})
        for thread in threads:
            # list() holds the saver's lock while iterated: read it whole before get_tuple
            chosen = (
                list(saver.list(_root(thread))) if history else [saver.get_tuple(_root(thread))]
            )
            written = written_inputs(saver, thread)
            for saved in chosen:
                checkpoints += 1
                values = saved.checkpoint["channel_values"]
                errors = _expected_errors(
                    values,
                    saved.metadata,
                    model,
                    written.get(saved.config["configurable"]["checkpoint_id"]),
                )
                if errors:
                    invalid.append({
                        "thread_id": thread,
                        "checkpoint_id": saved.config["configurable"]["checkpoint_id"],
                        "step": saved.metadata["step"],
                        "node": _expected_node(saver, saved),
                        "errors": errors,
                    })  # fmt: skip
    return {
        "threads": len(threads),
        "checkpoints": checkpoints,
        "invalid": invalid,
        "unreadable": [],
    }


@pytest.mark.parametrize("history", [False, True], ids=["latest", "history"])
@pytest.mark.parametrize("model", [AgentState, CandidateState], ids=lambda m: m.__name__)
def test_audit_matches_the_savers_own_reads_and_pydantic_errors(demo_store, model, history):
    kind, spec = demo_store
    with open_store(spec, strict_serde([model])) as store:
        result = audit_store(store, model, history=history)
    assert result.to_json() == _expected(kind, spec, model, history)


def test_latest_audit_blames_the_writing_node(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        result = audit_store(store, AgentState)
    assert [
        (s.thread_id, s.step, s.node, [e["type"] for e in s.errors]) for s in result.invalid
    ] == [
        ("fault-bad_status_last", 2, "confirm", ["literal_error"]),
        ("fault-negative_amount", 1, "validate_order", ["greater_than_equal"]),
    ]
    assert (result.threads, result.checkpoints) == (10, 10)


def test_a_stricter_candidate_model_finds_the_thread_it_breaks_at_every_step(demo_store):
    with open_store(demo_store[1], strict_serde([CandidateState])) as store:
        result = audit_store(store, CandidateState, history=True)
    assert [(s.step, s.node, s.errors[0]["loc"], s.errors[0]["input"])
            for s in result.invalid if s.thread_id == "model-change"] == [
        (2, "confirm", ["amount"], 750),
        (1, "validate_order", ["amount"], 750),
        (0, "__start__", ["amount"], 750),
        (-1, None, ["amount"], 750),
    ]  # fmt: skip


def test_shards_are_disjoint_and_cover_every_thread(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        whole = audit_store(store, AgentState, history=True)
        slices = [sorted(iter_thread_ids(store, (i, 3))) for i in range(3)]
        parts = [audit_store(store, AgentState, history=True, shard=(i, 3)) for i in range(3)]
    every = [thread for part in slices for thread in part]
    assert sorted(every) == sorted(DEMO_THREADS) and len(every) == len(set(every))
    assert all(slices), "each of the 3 slices holds some of the 10 threads"
    assert [p.threads for p in parts] == [len(s) for s in slices]
    assert sum(p.checkpoints for p in parts) == whole.checkpoints
    merged = sorted((s for p in parts for s in p.invalid), key=lambda s: s.thread_id)
    assert merged == sorted(whole.invalid, key=lambda s: s.thread_id)


def test_a_bad_shard_is_refused(demo_store):
    with open_store(demo_store[1], strict_serde([AgentState])) as store:
        with pytest.raises(ValueError, match="shard 3/3: i must be in 0..2"):
            audit_store(store, AgentState, shard=(3, 3))
