"""The guard's verdicts, with the audit's own check: on a checkpoint about to be stored, on the
state a task's writes would make, and which node(s) wrote a refused state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import Checkpoint, CheckpointMetadata, CheckpointTuple
from pydantic import BaseModel

from core.guard.check import StateCheck
from core.guard.ledger import Known, SeenWrite
from core.jsontext.write import jsonable
from core.lg_compat import INTERRUPT
from core.stores.rows import RowProblem
from core.stores.state import checkpoint_errors, cut_input, state_errors, stored_state
from core.stores.writers import Write, blame, node_of_path, send_index
from core.validate.channels import write_input
from core.validate.entry_run import entry_graph

__all__ = [
    "checkpoint_verdict",
    "is_state_channel",
    "refused_nodes",
    "task_node",
    "writes_verdict",
]


def is_state_channel(channel: str) -> bool:
    """A channel of the state itself (not one of LangGraph's own: `__error__`, `branch:to:x`).

    Example:
        >>> [is_state_channel(c) for c in ("tags", "branch:to:tag", "__error__")]
        [True, False, False]
    """
    return not channel.startswith("_") and ":" not in channel


def checkpoint_verdict(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    check: StateCheck,
) -> list[dict[str, Any]]:
    """The errors the audit would report for this checkpoint once stored, `[]` when its
    state is valid: an input checkpoint's input written through the model's channels first
    (`checkpoint_errors`: role-style messages converted); any other's state (`stored_state`)
    checked as `checkpoint_errors` checks it, with `check` (the state a step's writes made
    was checked with them: it is not validated again).

    Example:
        >>> from core.guard.check import StateCheck
        >>> from core.order import LineItem
        >>> config = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}
        >>> cp = {"id": "1", "channel_values": {"sku": "ab", "qty": 1, "unit_price": 2.0},
        ...       "channel_versions": {}, "versions_seen": {}}
        >>> check = StateCheck(LineItem, may_hold_refusals=False)
        >>> [e["type"] for e in checkpoint_verdict(config, cp, {"source": "loop"}, check)]
        ['string_too_short']
    """
    configurable = {**config["configurable"], "checkpoint_id": checkpoint["id"]}
    saved = CheckpointTuple({**config, "configurable": configurable}, checkpoint, metadata)
    try:
        if metadata.get("source") == "input":
            return checkpoint_errors(saved, check.model, may_hold_refusals=check.may_hold_refusals)[
                1
            ]
        return check(str(configurable["thread_id"]), stored_state(saved, check.model))
    except RowProblem as problem:  # nested too deep to be checked: refused, with its code
        return [{"type": str(problem.code), "loc": [], "msg": problem.message, "input": None}]


def writes_verdict(
    known: Known,
    others: Sequence[SeenWrite],
    mine: Sequence[SeenWrite],
    check: StateCheck,
    thread_id: str,
) -> list[dict[str, Any]]:
    """The errors a task's writes (`mine`) bring into the next state, `[]` when they bring none.

    The next state is the checkpoint's state with the writes put on it so far (`others`,
    those the guard stored) and `mine` applied in the order LangGraph applies a step's
    writes (by task path), each through its channel of a graph over the model (reducers run
    as in a run); it is checked as the audit checks a state (`check`). Only the errors at a
    field `mine` touch count, and only those the state without them did not have: a sibling
    task of the same step may still write another field a model validator compares (the
    checkpoint the step makes is checked whole when it is stored).

    Example:
        >>> from core.guard.check import StateCheck
        >>> from core.guard.ledger import Known
        >>> from core.order import AgentState
        >>> known = Known(0, {"logs": ["a"]}, {}, [])
        >>> mine = [SeenWrite("t1", "~__pregel_pull, log", "logs", ["b", None])]
        >>> check = StateCheck(AgentState, may_hold_refusals=False)
        >>> [(e["loc"], e["type"]) for e in writes_verdict(known, [], mine, check, "t")]
        [(['logs', 2], 'string_type')]
    """
    touched = {w.channel for w in mine if is_state_channel(w.channel)}
    if not touched:
        return []
    before = [w for w in others if w.stored]
    after_state, raised = _written(known.state, [*before, *mine], check.model)
    found = raised + check(thread_id, after_state)
    found = [e for e in found if e["loc"] and str(e["loc"][0]) in touched]
    if not found:
        return []
    before_state, _ = _written(known.state, before, check.model)
    had = {_identity(e) for e in state_errors(before_state, check.model)}
    return [e for e in found if _identity(e) not in had]


def refused_nodes(
    parent: Known | None,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    errors: Iterable[dict[str, Any]],
) -> tuple[str, ...]:
    """The node(s) whose writes made `checkpoint`'s state, named as the audit names them
    (`blame`: those that wrote a violating field, else all that wrote the state); none for
    an input checkpoint.

    A write can reach the guard after the checkpoint it made (LangGraph saves both in the
    background): a node that ran in the step (the versions it has seen moved) and whose
    writes the guard has not seen yet is named when no write seen touches a violating
    field. With no parent known (under `durability="exit"` a run stores only its last
    checkpoint), the nodes that ran last are named: those that saw the newest versions.

    Example:
        >>> from core.guard.ledger import Known, SeenWrite
        >>> parent = Known(0, {}, {"tag": {"branch:to:tag": 1}}, [],
        ...                [SeenWrite("t1", "~__pregel_pull, tag", "tags", ["a", None])])
        >>> child = {"versions_seen": {"tag": {"branch:to:tag": 2}, "__start__": {"__start__": 1}}}
        >>> errors = [{"loc": ["tags", 1]}]
        >>> refused_nodes(parent, child, {}, errors), refused_nodes(None, child, {}, errors)
        (('tag',), ('tag',))
    """
    seen: Mapping[str, Mapping[str, Any]] = checkpoint.get("versions_seen") or {}
    seen = {name: versions for name, versions in seen.items() if name != INTERRUPT}
    if metadata.get("source") == "input":
        return ()
    if parent is None:
        newest = {name: max(versions.values()) for name, versions in seen.items() if versions}
        top = max(newest.values(), default=None)
        return tuple(name for name, version in newest.items() if version == top)
    fields = [str(e["loc"][0]) for e in errors if e["loc"]]
    writes = [
        Write(w.task_id, task_node(w.task_path, parent.sends), w.channel) for w in parent.writes
    ]
    ran = [name for name, versions in seen.items() if parent.versions_seen.get(name) != versions]
    writers = {w.node for w in writes}
    unseen = [name for name in ran if name not in writers]
    if unseen and not any(w.node and w.channel in fields for w in writes):
        return tuple(unseen)
    named = blame(writes, fields)
    return tuple(named.split(", ")) if named else tuple(ran)


def task_node(task_path: str, sends: Sequence[Any]) -> str | None:
    """A task's node: a pulled node's from its path, a `Send`'s from the packet it runs
    (`sends`: the pending sends of the checkpoint it ran on).

    Example:
        >>> from langgraph.types import Send
        >>> sends = [Send("pick", {"n": 1}), Send("pack", {"n": 2})]
        >>> pushed = "~__pregel_push, 0000000001, 0000000000"
        >>> task_node("~__pregel_pull, tag", []), task_node(pushed, sends)
        ('tag', 'pack')
    """
    index = send_index(task_path)
    if index is None:
        return node_of_path(task_path)
    packet = sends[index] if 0 <= index < len(sends) else None
    node = getattr(packet, "node", None)
    return node if isinstance(node, str) else None


def _written(
    state: dict[str, Any], writes: Iterable[SeenWrite], model: type[BaseModel]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`state` with the writes applied through their channels, tasks in path order as
    LangGraph applies them, and what raised (a reducer's crash, JSON-safe, its input cut).
    A task's writes to distinct channels go through in one pass."""
    graph, raised = entry_graph(model), []
    batches: list[dict[str, Any]] = []
    last: tuple[str, str] | None = None
    for write in sorted(writes, key=lambda w: (w.task_path, w.task_id)):  # stable in a task
        if not is_state_channel(write.channel):
            continue
        task = (write.task_path, write.task_id)
        if task != last or write.channel in batches[-1]:
            batches.append({})
        batches[-1][write.channel], last = write.value, task
    for batch in batches:
        state, crashed = write_input(graph, state, batch)
        raised += [
            jsonable({k: v for k, v in row.items() if k != "input"})
            | {"input": cut_input(row.get("input"))}
            for row in crashed
        ]
    return state, raised


def _identity(error: dict[str, Any]) -> tuple[str, tuple[Any, ...]]:
    return error["type"], tuple(error["loc"])
