"""One stored thread: every checkpoint, its raw values, its verdict, the writes that made it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from core.stores.audit import state_errors, stored_state
from core.stores.open import Store
from core.stores.threads import pending_nodes, thread_root, written_by
from core.stores.writers import parent_writes

__all__ = ["Checkpoint", "StoredWrite", "Timeline", "thread_timeline"]


@dataclass(frozen=True)
class StoredWrite:
    """One write a task stored: which node made it (None: no node, e.g. update_state)."""

    node: str | None
    channel: str
    value: Any
    task_id: str


@dataclass
class Checkpoint:
    """One stored checkpoint: where it sits, its raw state, its verdict, what made it."""

    checkpoint_id: str
    parent_id: str | None
    step: int | None
    source: str  # input / loop / update / fork
    time: str
    values: dict[str, Any]  # the raw stored channel values, LangGraph's own included
    state: Any  # what is validated: audit.stored_state
    errors: list[dict[str, Any]]  # Pydantic's errors (JSON-safe), or refused_value ones
    writes: list[StoredWrite]  # the writes that produced it (stored on its parent)
    pending: list[str]  # nodes triggered but not run yet
    node: str | None = None  # the node whose write made it (state channels only)
    changed: list[str] = field(default_factory=list)  # state fields that differ from the parent


@dataclass
class Timeline:
    """A thread's checkpoints oldest first, the blamed one, interrupts and subgraphs."""

    thread_id: str
    checkpoints: list[Checkpoint]
    blamed: Checkpoint | None  # the first invalid checkpoint of the latest invalid run
    interrupts: list[Any] = field(default_factory=list)  # pending `__interrupt__` values
    namespaces: list[str] = field(default_factory=list)  # subgraph checkpoint_ns

    def blame_line(self) -> str:
        """One plain sentence: where the thread broke and who wrote it."""
        if self.blamed is None:
            return "Every stored state of this thread is valid under the model."
        node = self.blamed.node or "no node (the input, or a write made outside the graph)"
        return f"First invalid at step {self.blamed.step}, written by {node}."


def _writes(store: Store, saved: CheckpointTuple, parent: CheckpointTuple | None) -> list[Any]:
    if parent is None:
        return []
    configurable = saved.config["configurable"]
    nodes = {
        write.task_id: write.node
        for write in parent_writes(
            store,
            configurable["thread_id"],
            configurable.get("checkpoint_ns", ""),
            parent.config["configurable"]["checkpoint_id"],
        )  # fmt: skip
    }
    return [
        StoredWrite(nodes.get(task_id), channel, value, task_id)
        for task_id, channel, value in parent.pending_writes or []
    ]


def _changed(before: Any, after: Any) -> list[str]:
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    dump = to_jsonable_python
    return [
        k
        for k in after
        if k not in before or dump(before[k], fallback=repr) != dump(after[k], fallback=repr)
    ]


def _blamed(checkpoints: list[Checkpoint]) -> Checkpoint | None:
    """The oldest of the invalid checkpoints the latest one descends from without a valid one
    between: its parent links are followed, so a fork's abandoned branch is not blamed."""
    by_id = {c.checkpoint_id: c for c in checkpoints}
    blamed, at = None, checkpoints[-1] if checkpoints else None
    while at is not None and at.errors:
        blamed, at = at, by_id.get(at.parent_id or "")
    return blamed


def thread_timeline(store: Store, thread_id: str, model: type[BaseModel]) -> Timeline | None:
    """Every root checkpoint of `thread_id`, oldest first, each validated against `model`.

    The raw values come from the saver's own `list`, so they are shown even where
    `get_state_history` raises. `blamed` is the first checkpoint of the latest run of
    invalid ones (the write that broke the thread as it stands), None when the latest
    state is valid. None when the store holds no such thread.
    """
    history = list(store.saver.list(thread_root(thread_id)))[::-1]  # read whole: the saver's lock
    if not history:
        return None
    by_id = {saved.config["configurable"]["checkpoint_id"]: saved for saved in history}
    checkpoints = []
    for saved in history:
        parent_id = (saved.parent_config or {}).get("configurable", {}).get("checkpoint_id")
        state = stored_state(saved)
        errors = state_errors(state, model)
        stored = saved.checkpoint if isinstance(saved.checkpoint, dict) else {}  # or Refused
        checkpoints.append(
            Checkpoint(
                checkpoint_id=saved.config["configurable"]["checkpoint_id"],
                parent_id=parent_id,
                step=saved.metadata.get("step"),
                source=str(saved.metadata.get("source", "")),
                time=str(stored.get("ts", "")),
                values=dict(stored.get("channel_values") or {}),
                state=state,
                errors=errors,
                writes=_writes(store, saved, by_id.get(parent_id) if parent_id else None),
                pending=pending_nodes(saved),
                node=written_by(store, saved, errors),
            )
        )
    by_checkpoint = {c.checkpoint_id: c for c in checkpoints}
    for checkpoint in checkpoints:
        parent = by_checkpoint.get(checkpoint.parent_id or "")
        checkpoint.changed = _changed(parent.state if parent else {}, checkpoint.state)
    blamed = _blamed(checkpoints)
    latest = history[-1]
    interrupts = [v for _, channel, v in latest.pending_writes or [] if channel == "__interrupt__"]
    namespaces = [
        row[0]
        for row in store.query(
            "SELECT DISTINCT checkpoint_ns FROM checkpoints WHERE thread_id = ? "
            "AND checkpoint_ns <> '' ORDER BY checkpoint_ns",
            (thread_id,),
        )
    ]
    return Timeline(thread_id, checkpoints, blamed, interrupts, namespaces)
