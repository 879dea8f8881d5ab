"""Which node wrote a stored state: the task paths LangGraph keeps beside each task's writes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from core.stores.open import Store

__all__ = ["Write", "blame", "node_of_path", "parent_writes"]

_PULL = "~__pregel_pull, "  # LangGraph's task_path_str((PULL, node)) for a node's own task


@dataclass(frozen=True)
class Write:
    """One stored write of a task: which task, its node (None when unnamed), which channel."""

    task_id: str
    node: str | None
    channel: str


def node_of_path(task_path: str) -> str | None:
    """The node a task path names: a pulled node's task is `~__pregel_pull, <node>`.

    Pushed tasks (`Send`) and writes made outside a task (`update_state`) name no node.

    Example:
        >>> node_of_path("~__pregel_pull, validate_order"), node_of_path("")
        ('validate_order', None)
    """
    name = task_path.removeprefix(_PULL)
    return name if name != task_path and "," not in name else None


def parent_writes(store: Store, thread_id: str, ns: str, parent_id: str | None) -> list[Write]:
    """The writes stored on `parent_id`: those of the tasks whose step made its child.

    These are the saver's own `pending_writes` of the parent checkpoint (same task ids and
    channels, in the order LangGraph applies them), with the node read from each task's
    stored `task_path`.
    """
    if parent_id is None:
        return []
    column = "task_path" if store.has_task_path else "''"
    rows = store.query(
        f"SELECT task_id, {column}, channel FROM {store.writes_table} "
        "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? "
        "ORDER BY 2, task_id, idx",
        (thread_id, ns, parent_id),
    )
    return [Write(task, node_of_path(path), channel) for task, path, channel in rows]


def blame(writes: Iterable[Write], fields: Iterable[str]) -> str | None:
    """The node(s) whose writes made a state: those that wrote a violating field, else all.

    Several names are joined with ", " in the order LangGraph applied their writes; only
    writes to state channels count (not `branch:to:...` triggers or `__error__`).

    Example:
        >>> writes = [Write("t1", "audit", "status"), Write("t2", "validate_order", "amount")]
        >>> blame(writes, ["amount"]), blame(writes, ["user_id"])
        ('validate_order', 'audit, validate_order')
    """
    state = [w for w in writes if w.node and not w.channel.startswith("_") and ":" not in w.channel]
    wanted = set(fields)
    chosen = [w for w in state if w.channel in wanted] or state
    names = list(dict.fromkeys(w.node for w in chosen if w.node))
    return ", ".join(names) if names else None
