"""One stored thread: every checkpoint, its raw values, its verdict, the writes that made it."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel

from core.jsontext.write import jsonable
from core.lg_compat import INTERRUPT, recompile
from core.order.graph import CompiledGraph
from core.stores.backends.open import Store
from core.stores.backends.thread_ids import ThreadId, kept_as_stored, printable_id
from core.stores.decode.rows import RowProblem, Unreadable, encrypted_store, step_of
from core.stores.decode.state import checkpoint_errors, stored_state
from core.stores.threads.listing import pending_nodes, thread_root
from core.stores.threads.pages import read_thread
from core.stores.threads.writers import parent_writes, written_by
from core.words import count

__all__ = [
    "Checkpoint",
    "StoredWrite",
    "Timeline",
    "blamed_of",
    "changed_fields",
    "langgraph_get_state",
    "lineage",
    "thread_timeline",
]


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
    unreadable: Unreadable | None = None  # why it cannot be read or checked (then no state)


@dataclass
class Timeline:
    """A thread's checkpoints oldest first, the blamed one, interrupts and subgraphs."""

    thread_id: str  # as stored, as `ThreadRow.thread_id` (a `ThreadId`, typed str outside)
    checkpoints: list[Checkpoint]
    blamed: Checkpoint | None  # the first invalid checkpoint of the latest invalid run
    interrupts: list[Any] = field(default_factory=list)  # pending `__interrupt__` values
    namespaces: list[str] = field(default_factory=list)  # subgraph checkpoint_ns
    note: str | None = None  # coded: why the history is not all there (a server refused it)

    @property
    def printable_id(self) -> str:
        """The thread's id as one printable line (`printable_id`), for a heading or a code box.

        Example:
            >>> Timeline(b"\\x00t", [], None).printable_id
            "b'\\\\x00t'"
        """
        return printable_id(self.thread_id)

    @property
    def does_not_fit(self) -> bool:
        """Every checkpoint from the thread's first on fails the model: no state of it ever
        fit (written with another model, or an input the model rejects)."""
        blamed = self.blamed
        return blamed is not None and not blamed.parent_id and blamed.source == "input"

    def blame_line(self) -> str:
        """One plain sentence: where the thread broke and who wrote it.

        Example:
            >>> Timeline("t", [], None).blame_line()
            'Every state the latest run stored is valid under the model.'
        """
        unread = [c for c in self.checkpoints if c.unreadable is not None]
        latest = self.checkpoints[-1] if self.checkpoints else None
        if latest is not None and latest.unreadable is not None:
            return f"The latest checkpoint cannot be read: [{latest.unreadable.code}]."
        if self.blamed is None:
            said = "Every state the latest run stored is valid under the model."
            older = [c for c in self.checkpoints if c.errors and c not in unread]
            path = {c.checkpoint_id for c in lineage(self.checkpoints)}
            off = [c for c in older if c.checkpoint_id not in path]  # a fork past them (an unbrick)
            kept = [c for c in older if c.checkpoint_id in path]  # a valid state over them
            if off:
                said += (
                    f" Older checkpoints ({_steps(off)}) are still invalid, but no longer on "
                    "the thread's path."
                )
            if kept:
                said += (
                    f" Older checkpoints ({_steps(kept)}) are still invalid; the thread goes "
                    "on from a valid state written after them."
                )
            return said
        if self.does_not_fit:
            return (
                "No stored state of this thread fits the model, from its first checkpoint on "
                f"({count(self._run_length(), 'checkpoint')} read)."
            )
        if self.blamed.step is None and self.note:  # the latest values alone were read
            return "Its latest values fail the model; where it broke is not known (see why)."
        node = self.blamed.node or "no node (the input, or a write made outside the graph)"
        return f"First invalid at step {self.blamed.step}, written by {node}."

    def _run_length(self) -> int:
        return sum(1 for _ in lineage(self.checkpoints))


def _steps(checkpoints: list[Checkpoint]) -> str:
    """Checkpoints by their steps, as a sentence names them: "step 2", "steps 1, 2"."""
    steps = ", ".join(str(c.step) for c in checkpoints)
    return f"{'steps' if len(checkpoints) > 1 else 'step'} {steps}"


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


def changed_fields(before: Any, after: Any) -> list[str]:
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    return [k for k in after if k not in before or jsonable(before[k]) != jsonable(after[k])]


def lineage(checkpoints: list[Checkpoint]) -> Iterator[Checkpoint]:
    """The latest checkpoint, its parent, that one's parent...: the run of checkpoints the
    thread stands on. A parent that is missing, or a loop of parents (a crafted store may
    hold one), ends it.

    Example:
        >>> a = Checkpoint("a", "b", 1, "loop", "", {}, {}, [], [], [])
        >>> b = Checkpoint("b", "a", 0, "loop", "", {}, {}, [], [], [])
        >>> [c.checkpoint_id for c in lineage([a, b])]
        ['b', 'a']
    """
    by_id = {c.checkpoint_id: c for c in checkpoints}
    seen: set[str] = set()
    at = checkpoints[-1] if checkpoints else None
    while at is not None and at.checkpoint_id not in seen:
        seen.add(at.checkpoint_id)
        yield at
        at = by_id.get(at.parent_id) if at.parent_id else None


def blamed_of(checkpoints: list[Checkpoint]) -> Checkpoint | None:
    """The oldest of the invalid checkpoints the latest one descends from without a valid one
    between: its parent links are followed, so a fork's abandoned branch is not blamed."""
    blamed = None
    for at in lineage(checkpoints):
        if not at.errors:
            break
        blamed = at
    return blamed


def _checkpoint(
    store: Store, saved: CheckpointTuple | Unreadable, parent: CheckpointTuple | None,
    model: type[BaseModel],
) -> Checkpoint:  # fmt: skip
    if isinstance(saved, Unreadable):
        return Checkpoint(saved.checkpoint_id, None, saved.step, "", "", {}, None, [], [], [],
                          unreadable=saved)  # fmt: skip
    parent_id = (saved.parent_config or {}).get("configurable", {}).get("checkpoint_id")
    stored = saved.checkpoint if isinstance(saved.checkpoint, dict) else {}  # or Refused
    unreadable, errors = None, list[dict[str, Any]]()
    try:
        state, errors = checkpoint_errors(saved, model)
    except RowProblem as problem:
        state = stored_state(saved)
        configurable = saved.config["configurable"]
        unreadable = Unreadable(configurable["thread_id"], configurable["checkpoint_id"],
                                step_of(saved.metadata), problem.code, problem.message)  # fmt: skip
    return Checkpoint(
        checkpoint_id=saved.config["configurable"]["checkpoint_id"],
        parent_id=parent_id,
        step=step_of(saved.metadata),
        source=str(saved.metadata.get("source", "")),
        time=str(stored.get("ts", "")),
        values=dict(stored.get("channel_values") or {}),
        state=state,
        errors=errors,
        writes=_writes(store, saved, parent),
        pending=pending_nodes(saved),
        node=written_by(store, saved, errors),
        unreadable=unreadable,
    )


def thread_timeline(store: Store, thread_id: ThreadId, model: type[BaseModel]) -> Timeline | None:
    """Every root checkpoint of `thread_id`, oldest first, each validated against `model`.

    The raw values are read from the saver's tables as its own `list` reads them, so they
    are shown even where `get_state_history` raises; a checkpoint that cannot be read is
    listed with its code (`Checkpoint.unreadable`). `blamed` is the first checkpoint of
    the latest run of invalid ones (the write that broke the thread as it stands), None
    when the latest state is valid. None when the store holds no such thread. `thread_id`
    is as stored (a list row's `thread_id`, or `stored_id` of what `printable_id` printed).
    """
    history = read_thread(store, thread_id)[::-1]  # oldest first
    if not history:
        return None
    unread = [saved for saved in history if isinstance(saved, Unreadable)]
    if (encrypted := encrypted_store(unread, len(history), store.label)) is not None:
        raise encrypted
    by_id = {saved.config["configurable"]["checkpoint_id"]: saved
             for saved in history if isinstance(saved, CheckpointTuple)}  # fmt: skip
    checkpoints = []
    for saved in history:
        parent_id = None
        if isinstance(saved, CheckpointTuple) and saved.parent_config is not None:
            parent_id = saved.parent_config["configurable"]["checkpoint_id"]
        checkpoints.append(
            _checkpoint(store, saved, by_id.get(parent_id) if parent_id else None, model)
        )
    by_checkpoint = {c.checkpoint_id: c for c in checkpoints}
    for checkpoint in checkpoints:
        parent = by_checkpoint.get(checkpoint.parent_id) if checkpoint.parent_id else None
        checkpoint.changed = changed_fields(parent.state if parent else {}, checkpoint.state)
    blamed = blamed_of(checkpoints)
    latest = history[-1]
    pending = latest.pending_writes if isinstance(latest, CheckpointTuple) else None
    interrupts = [v for _, channel, v in pending or [] if channel == INTERRUPT]
    return Timeline(
        kept_as_stored(thread_id), checkpoints, blamed, interrupts, store.namespaces(thread_id)
    )


def langgraph_get_state(store: Store, graph: CompiledGraph, thread_id: str) -> str:
    """What LangGraph's own `get_state` does on the thread's latest checkpoint, run now on
    the store's read-only saver (strict serializer) with `graph`: one plain sentence.

    Call it only for a thread whose checkpoints were all read (`Checkpoint.unreadable` is
    None): the saver reads without the store's size limit.
    """
    bound = recompile(graph, store.saver)
    try:
        bound.get_state(thread_root(thread_id))
    except Exception as exc:  # noqa: BLE001 - what LangGraph raises is the answer
        said = " ".join(str(exc).split())
        first = f"{type(exc).__name__}: {said}"
        return f"LangGraph's get_state raised {first[:300]}" + ("…" if len(first) > 300 else "")
    return "LangGraph's get_state returned the state."
