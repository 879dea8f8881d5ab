"""What a guard knows of a thread's checkpoints: their states, the writes put on them, which it
refused, and the writes that arrived before their checkpoint (held until it is stored)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import Checkpoint, CheckpointMetadata, CheckpointTuple

from core.lg_compat import TASKS

__all__ = ["LEDGER_SIZE", "Held", "Key", "Known", "Ledger", "SeenWrite", "state_channels"]

LEDGER_SIZE = 256  # checkpoints remembered (a miss reads the saver: slower, never wrong)

Key = tuple[str, str, str]  # (thread_id, checkpoint_ns, checkpoint_id)


def state_channels(values: Mapping[str, Any]) -> dict[str, Any]:
    """The state's own channels among a checkpoint's values (LangGraph's own left out, as the
    audit leaves them out: `__pregel_tasks`, `branch:to:...`).

    Example:
        >>> state_channels({"tags": [], "branch:to:tag": None, "__start__": {"tags": []}})
        {'tags': []}
    """
    return {k: v for k, v in values.items() if not k.startswith("_") and ":" not in k}


@dataclass(frozen=True)
class SeenWrite:
    """One write a task put on a checkpoint; `stored` False: the guard refused it (kept only
    to name its node)."""

    task_id: str
    task_path: str
    channel: str
    value: Any
    stored: bool = True


@dataclass
class Known:
    """A checkpoint as the guard saw it stored: the step, its state channels, which versions
    each node had seen (to tell which nodes ran next), its pending `Send`s, its writes, and
    whether it is an input checkpoint the guard checked (its input written into the state
    is what its `__start__` task writes: known valid)."""

    step: int | None
    state: dict[str, Any]
    versions_seen: Mapping[str, Mapping[str, Any]]
    sends: Sequence[Any]
    writes: list[SeenWrite] = field(default_factory=list)
    checked_input: bool = False

    @classmethod
    def of(cls, checkpoint: Checkpoint, metadata: CheckpointMetadata) -> Known:
        values = (checkpoint.get("channel_values") if isinstance(checkpoint, dict) else {}) or {}
        sends = values.get(TASKS)
        return cls(
            metadata.get("step"),
            state_channels(values),
            (checkpoint.get("versions_seen") if isinstance(checkpoint, dict) else {}) or {},
            list(sends) if isinstance(sends, list | tuple) else [],
        )

    @classmethod
    def of_tuple(cls, saved: CheckpointTuple) -> Known:
        """A stored checkpoint with its stored writes (their task paths are not returned)."""
        known = cls.of(saved.checkpoint, saved.metadata)
        known.writes = [SeenWrite(t, "", c, v) for t, c, v in saved.pending_writes or ()]
        return known


class Held(NamedTuple):
    """A `put_writes` call that arrived before its checkpoint was stored."""

    config: RunnableConfig
    writes: Sequence[tuple[str, Any]]
    task_id: str
    task_path: str


class Ledger:
    """The guard's memory, shared by its copies (`with_allowlist`); safe across threads and
    tasks (each step takes the lock briefly, never across a call to the saver)."""

    def __init__(self, size: int = LEDGER_SIZE) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._known: OrderedDict[Key, Known] = OrderedDict()
        self._refused: OrderedDict[Key, None] = OrderedDict()
        self._held: OrderedDict[Key, list[Held]] = OrderedDict()
        self._newest: OrderedDict[str, str] = OrderedDict()  # thread -> its newest checkpoint

    def known(self, key: Key) -> Known | None:
        with self._lock:
            found = self._known.get(key)
            if found is not None:
                self._known.move_to_end(key)
            return found

    def learn(self, key: Key, known: Known) -> Known:
        """Remember a checkpoint read from the saver (what the guard already knows wins)."""
        with self._lock:
            found = self._known.setdefault(key, known)
            self._saw(key)
            return found

    def accept(self, key: Key, known: Known, parent: Key | None = None) -> list[Held]:
        """A checkpoint just stored: remember it, and hand back the writes held for it. Its
        `parent` is forgotten: its step is done (a write still on its way to it reads it
        from the saver), and a long thread keeps one state in memory, not one per step."""
        with self._lock:
            self._known.setdefault(key, known)
            if parent is not None and parent != key:
                self._known.pop(parent, None)
            self._saw(key)
            return self._held.pop(key, [])

    def refuse(self, key: Key) -> None:
        """A checkpoint refused: writes put on it are dropped, those held for it too."""
        with self._lock:
            self._refused[key] = None
            self._trim(self._refused)
            self._held.pop(key, None)

    def claim(self, key: Key, call: Held) -> tuple[Known | None, bool]:
        """The checkpoint a write goes on when known; else whether the write is taken care
        of: held, when its checkpoint is newer than every one of its thread the guard knows
        (LangGraph saves in the background: that save has not landed), or dropped, when the
        checkpoint was refused. `(None, False)`: read the checkpoint from the saver.

        Checkpoint ids sort by time, as savers list them.
        """
        with self._lock:
            found = self._known.get(key)
            if found is not None:
                self._known.move_to_end(key)
                return found, False
            if key in self._refused:
                return None, True
            newest = self._newest.get(key[0])
            if newest is not None and key[2] > newest:
                self._held.setdefault(key, []).append(call)
                self._trim(self._held)
                return None, True
            return None, False

    def hold(self, key: Key, call: Held) -> Known | None:
        """Hold `call` until its checkpoint is stored; the checkpoint instead when it was
        stored meanwhile (None: held, or dropped because the checkpoint was refused)."""
        with self._lock:
            found = self._known.get(key)
            if found is None and key not in self._refused:
                self._held.setdefault(key, []).append(call)
                self._trim(self._held)
            return found

    def writes_on(self, key: Key, *, but: str) -> list[SeenWrite]:
        """The writes put on a known checkpoint so far, but those of task `but`."""
        with self._lock:
            known = self._known.get(key)
            return [] if known is None else [w for w in known.writes if w.task_id != but]

    def record(self, key: Key, task_id: str, writes: Iterable[SeenWrite]) -> None:
        """Put a task's writes on a known checkpoint, replacing that task's earlier ones (as
        a saver keeps one write per task and index)."""
        with self._lock:
            known = self._known.get(key)
            if known is not None:
                known.writes = [*(w for w in known.writes if w.task_id != task_id), *writes]

    def forget(self, thread_ids: Iterable[str] | None = None) -> None:
        """Drop what is known of these threads (every thread: None), as they were deleted."""
        with self._lock:
            wanted = None if thread_ids is None else set(thread_ids)
            for table in (self._known, self._refused, self._held):
                for key in [k for k in table if wanted is None or k[0] in wanted]:
                    del table[key]
            for thread in [t for t in self._newest if wanted is None or t in wanted]:
                del self._newest[thread]

    def saw_thread(self, thread_id: str) -> None:
        """A thread the saver holds nothing of (yet): any checkpoint of it is newer."""
        with self._lock:
            self._newest.setdefault(thread_id, "")
            self._trim(self._newest)

    def _saw(self, key: Key) -> None:
        self._trim(self._known)
        thread, _, checkpoint_id = key
        if checkpoint_id > self._newest.get(thread, ""):
            self._newest[thread] = checkpoint_id
        self._newest.move_to_end(thread)
        self._trim(self._newest)

    def _trim(self, table: OrderedDict[Any, Any]) -> None:
        while len(table) > self._size:
            table.popitem(last=False)
