"""Which node wrote a stored state: the task paths LangGraph keeps beside each task's writes.

`written_by` is the one answer for a stored checkpoint (the audit's `node`, the thread
list's "written by", the timeline's writer); a server's checkpoints are blamed with the same
`blame` over the tasks its history lists (core.stores.server_history)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple

from core.lg_compat import TASKS as _TASKS

# Re-exported (X as X): this module is where they were first; LangGraph's task-path format
# is read in core.lg_compat.
from core.lg_compat import node_of_path as node_of_path
from core.lg_compat import send_index as send_index
from core.stores.backends.open import Store
from core.stores.backends.thread_ids import ThreadId
from core.stores.decode.rows import RowProblem, decode_value

__all__ = [
    "Write",
    "blame",
    "node_of_path",
    "parent_writes",
    "pending_sends",
    "send_index",
    "violated_fields",
    "written_by",
]


@dataclass(frozen=True)
class Write:
    """One stored write of a task: which task, its node (None when unnamed), which channel."""

    task_id: str
    node: str | None
    channel: str


def pending_sends(store: Store, thread_id: ThreadId, ns: str, checkpoint_id: str) -> list[Any]:
    """The `Send` packets a checkpoint holds (its `TASKS` channel), decoded by the
    store's strict serde; `[]` when it holds none.

    Read with the store's own connection (the saver's may be busy with a `list`), from
    where the saver keeps the channel (`Store.channel_row`).
    """
    found = store.channel_row((thread_id, ns, checkpoint_id), _TASKS)
    if found is None:
        return []
    type_, blob, whole = found
    limit = store.max_value_bytes  # a value over it is not read: the sends name no node
    try:
        value = decode_value(store.saver.serde, type_, blob, None, limit, "sends")
    except RowProblem:  # a damaged row: its sends name no node
        return []
    if whole:  # the whole checkpoint: the sends are its TASKS channel's value
        values = value.get("channel_values") if isinstance(value, dict) else None
        value = (values or {}).get(_TASKS) if isinstance(values, dict) else None
    return list(value) if isinstance(value, list | tuple) else []


def parent_writes(store: Store, thread_id: ThreadId, ns: str, parent_id: str | None) -> list[Write]:
    """The writes stored on `parent_id`: those of the tasks whose step made its child.

    These are the saver's own `pending_writes` of the parent checkpoint (same task ids and
    channels, in the order LangGraph applies them), with the node read from each task's
    stored `task_path`; a `Send` task's node is its packet's, read from the parent's pending
    sends (only when such a task wrote).
    """
    if parent_id is None:
        return []
    rows = store.task_writes(thread_id, ns, parent_id)
    pushed = {path: send_index(path) for _, path, _ in rows}
    sends = pending_sends(store, thread_id, ns, parent_id) if any(
        i is not None for i in pushed.values()
    ) else []  # fmt: skip
    return [
        Write(task, node_of_path(path) or _node_of_send(sends, pushed[path]), channel)
        for task, path, channel in rows
    ]


def _node_of_send(sends: Sequence[Any], index: int | None) -> str | None:
    packet = sends[index] if index is not None and 0 <= index < len(sends) else None
    node = getattr(packet, "node", None)  # a Send; a refused value names no node
    return node if isinstance(node, str) else None


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


def violated_fields(errors: Iterable[dict[str, Any]]) -> list[str]:
    """The state fields Pydantic's `errors` are about: the first item of each error's `loc`
    (an error about the whole state, with an empty `loc`, names none).

    Example:
        >>> violated_fields([{"loc": ("items", 0, "sku")}, {"loc": ()}, {"loc": ["status"]}])
        ['items', 'status']
    """
    return [str(e["loc"][0]) for e in errors if e.get("loc")]


def written_by(store: Store, saved: CheckpointTuple, errors: list[dict[str, Any]]) -> str | None:
    """The node whose write made `saved` (those that wrote a field in `errors`, if any): its
    parent's stored writes (`parent_writes`), named by `blame`.

    None for an input checkpoint, or when no node wrote it (an `update_state` without one).

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> from core.stores.threads.pages import read_checkpoints
        >>> with open_demo_store() as store:
        ...     history = list(read_checkpoints(store, ["clean-1"]))  # newest first
        ...     [written_by(store, saved, []) for saved in history]
        ['confirm', 'validate_order', '__start__', None]
    """
    if saved.metadata.get("source") == "input" or saved.parent_config is None:
        return None
    configurable = saved.config["configurable"]
    writes = parent_writes(
        store,
        configurable["thread_id"],
        configurable.get("checkpoint_ns", ""),
        saved.parent_config["configurable"]["checkpoint_id"],
    )
    return blame(writes, violated_fields(errors))
