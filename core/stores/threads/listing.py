"""A store's threads, a page at a time, each with a status from its latest checkpoint."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel

from core.jsontext.paths import format_path
from core.lg_compat import BRANCH_TO as _BRANCH
from core.lg_compat import ERROR
from core.stores.backends.open import Store
from core.stores.backends.thread_ids import ThreadId, kept_as_stored, printable_id
from core.stores.decode.rows import RowProblem, Unreadable, encrypted_store, step_of
from core.stores.decode.state import checkpoint_errors
from core.stores.threads.pages import read_checkpoints

# Re-exported (X as X): this module is where it was first.
from core.stores.threads.writers import written_by as written_by

__all__ = [
    "SCAN_LIMIT",
    "ThreadPage",
    "ThreadRow",
    "ThreadStatus",
    "list_threads",
    "pending_nodes",
    "short_time",
    "state_path",
    "thread_root",
    "written_by",
]


def short_time(stamp: str) -> str:
    """A checkpoint's `ts` to the second, in UTC; a stamp that is not ISO 8601 (a store is
    untrusted) is returned as it is.

    Example:
        >>> short_time("2026-12-04T12:34:55.010881+00:00"), short_time("yesterday")
        ('2026-12-04 12:34:55 UTC', 'yesterday')
    """
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    if when.tzinfo is None:  # LangGraph writes UTC; a naive stamp is shown as written
        return when.strftime("%Y-%m-%d %H:%M:%S")
    return when.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


SCAN_LIMIT = 2_000  # threads a filtered page may look at before it returns what it found


class ThreadStatus(StrEnum):
    """A thread's status, from its latest checkpoint."""

    VALID = "valid"
    BROKEN = "broken"  # valid once, then a write made the state fail the model
    DOES_NOT_FIT = "does not fit the model"  # fails the model from its first checkpoint on
    WOULD_NOT_RESUME = "would not resume"  # valid as written, fails the current model
    INTERRUPTED = "interrupted"  # valid, but tasks are pending (interrupt or a raise)
    UNREADABLE = "unreadable"  # its latest checkpoint cannot be read or checked


@dataclass(frozen=True)
class ThreadRow:
    """One row of the thread list."""

    # as stored, to select the thread again (`thread_timeline`): text, or a crafted SQLite
    # file's BLOB or number (a `ThreadId`, typed str where other packages read it)
    thread_id: str
    checkpoints: int | None  # None: not counted (a server's thread list does not say)
    last_step: int | None
    last_time: str
    status: ThreadStatus
    broken_at: int | None  # the step of the first invalid checkpoint (BROKEN only)
    detail: str  # the blamed node, the pending nodes or the first error, as plain text

    @property
    def printable_id(self) -> str:
        """The id as a table or a terminal shows it (`printable_id`): `b'...'` for a BLOB,
        quoted with escapes for text a line would not print as itself.

        Example:
            >>> ThreadRow(b"t", 1, 0, "", ThreadStatus.UNREADABLE, None, "").printable_id
            "b't'"
        """
        return printable_id(self.thread_id)

    def label(self) -> str:
        """The status as the list shows it: `broken at step 2`, `interrupted`.

        Example:
            >>> ThreadRow("t", 3, 2, "", ThreadStatus.BROKEN, 2, "").label()
            'broken at step 2'
        """
        if self.status is ThreadStatus.BROKEN:
            return "broken" if self.broken_at is None else f"broken at step {self.broken_at}"
        return str(self.status)


@dataclass
class ThreadPage:
    """A page of threads; `next_after` is the thread id to continue after (None: the end)."""

    rows: list[ThreadRow]
    next_after: str | None  # as stored, as `ThreadRow.thread_id`
    scanned: int


def thread_root(thread_id: ThreadId, checkpoint_id: str | None = None) -> RunnableConfig:
    configurable = {"thread_id": thread_id, "checkpoint_ns": ""}
    if checkpoint_id:
        configurable["checkpoint_id"] = checkpoint_id
    return {"configurable": configurable}


def pending_nodes(saved: CheckpointTuple) -> list[str]:
    """Nodes a checkpoint has triggered but not yet run (LangGraph's own trigger rule), sorted.

    A node is due when its `branch:to:<node>` channel is newer than the version the node
    last saw; an input checkpoint's `__start__` is due until the input is applied.
    """
    checkpoint: Any = saved.checkpoint  # a Refused marker when the serializer refused it
    if not isinstance(checkpoint, dict):
        return []
    values, versions = checkpoint.get("channel_values") or {}, checkpoint["channel_versions"]
    seen = checkpoint.get("versions_seen") or {}
    due = []
    for channel in values:
        node = channel.removeprefix(_BRANCH) if channel.startswith(_BRANCH) else None
        node = "__start__" if channel == "__start__" else node
        saw = seen.get(node or "") if isinstance(seen, dict) else None
        saw = saw if isinstance(saw, dict) else {}
        newer = _version(versions.get(channel)) > _version(saw.get(channel))
        if node and newer:
            due.append(node)
    return sorted(due)  # Postgres keeps channels in JSONB order, SQLite in write order


def _version(version: Any) -> tuple[int, float, str]:
    """A channel version, comparable with any other: LangGraph writes zero-padded strings
    (numbers in old stores); a damaged row may hold anything."""
    if isinstance(version, int | float) and not isinstance(version, bool):
        return (1, float(version), "")
    return (2, 0.0, version) if isinstance(version, str) and version else (0, 0.0, "")


def _counts(store: Store, ids: list[ThreadId]) -> dict[ThreadId, int]:
    return store.checkpoint_counts(ids)


def _errors(saved: CheckpointTuple | Unreadable, model: type[BaseModel]) -> list[Any] | None:
    """The checkpoint's errors under `model`; None when it cannot be read or checked."""
    if isinstance(saved, Unreadable):
        return None
    try:
        return checkpoint_errors(saved, model)[1]
    except RowProblem:
        return None


def _first_invalid(
    store: Store, latest: CheckpointTuple, model: type[BaseModel]
) -> tuple[CheckpointTuple, bool]:
    """The oldest invalid checkpoint the latest descends from with no valid one between, and
    whether it is the thread's input (no parent): then no state of it ever fit the model."""
    thread_id = latest.config["configurable"]["thread_id"]
    history = list(read_checkpoints(store, [thread_id]))  # newest first
    by_id = {saved.config["configurable"]["checkpoint_id"]: saved
             for saved in history if isinstance(saved, CheckpointTuple)}  # fmt: skip
    first, seen = latest, {latest.config["configurable"]["checkpoint_id"]}
    while first.parent_config is not None:
        parent_id = first.parent_config["configurable"]["checkpoint_id"]
        parent = by_id.get(parent_id)
        if parent is None or parent_id in seen or not _errors(parent, model):
            return first, False  # a loop of parents (a crafted store) ends the walk too
        first, seen = parent, seen | {parent_id}
    return first, first.metadata.get("source") == "input"


def _raised(store: Store, latest: list[CheckpointTuple]) -> set[str]:
    """The threads whose latest checkpoint holds a task's error write (`__error__`)."""
    if not latest:
        return set()
    pairs = [(s.config["configurable"]["thread_id"], s.config["configurable"]["checkpoint_id"])
             for s in latest]  # fmt: skip
    return store.threads_with_write(pairs, ERROR)


def _unreadable_row(thread_id: ThreadId, count: int, latest: Unreadable, said: str) -> ThreadRow:
    return ThreadRow(
        kept_as_stored(thread_id), count, latest.step, "", ThreadStatus.UNREADABLE, None, said
    )


def _row(
    store: Store,
    latest: CheckpointTuple | Unreadable,
    count: int,
    raised: bool,
    model: type[BaseModel],
    current: type[BaseModel] | None,
) -> ThreadRow:
    if isinstance(latest, Unreadable):
        return _unreadable_row(latest.thread_id, count, latest, f"[{latest.code}] {latest.message}")
    thread_id = latest.config["configurable"]["thread_id"]
    step = step_of(latest.metadata)
    time = latest.checkpoint.get("ts", "")
    try:
        state, errors = checkpoint_errors(latest, model)
    except RowProblem as problem:
        return ThreadRow(thread_id, count, step, str(time), ThreadStatus.UNREADABLE, None,
                         f"[{problem.code}] {problem.message}")  # fmt: skip
    status, broken_at, detail = ThreadStatus.VALID, None, ""
    if errors:
        first, from_start = _first_invalid(store, latest, model)
        if from_start:
            status, detail = ThreadStatus.DOES_NOT_FIT, _first_fields(errors)
        else:
            status, broken_at = ThreadStatus.BROKEN, step_of(first.metadata)
            first_errors = _errors(first, model) or []
            detail = f"written by {written_by(store, first, first_errors) or 'no node'}"
    elif current is not None and (later := _errors(latest, current)):
        status = ThreadStatus.WOULD_NOT_RESUME
        detail = f"{later[0]['type']} at {state_path(later[0]['loc'])}"
    elif due := pending_nodes(latest):
        status = ThreadStatus.INTERRUPTED
        detail = ("a task raised; next: " if raised else "next: ") + ", ".join(due)
    return ThreadRow(thread_id, count, step, str(time), status, broken_at, detail)


def state_path(loc: Any) -> str:
    """A field's path as the app writes it (`lines[0].sku`); the state itself: `(state)`."""
    return format_path(loc) if loc else "(state)"


def _first_fields(errors: list[dict[str, Any]], shown: int = 3) -> str:
    """`user_id (missing), sku (extra_forbidden)`: the first fields that differ, their paths
    as the app writes them (they were dotted here, `lines.0.sku`).

    Example:
        >>> _first_fields([{"loc": ("lines", 0, "sku"), "type": "missing"},
        ...                {"loc": (), "type": "model_type"}])
        'lines[0].sku (missing), (state) (model_type)'
    """
    named = [f"{state_path(e['loc'])} ({e['type']})" for e in errors]
    more = len(named) - shown
    return ", ".join(named[:shown]) + (f" and {more} more" if more > 0 else "")


def list_threads(
    store: Store,
    model: type[BaseModel],
    *,
    current: type[BaseModel] | None = None,
    contains: str = "",
    status: ThreadStatus | None = None,
    after: ThreadId | None = None,
    limit: int = 50,
) -> ThreadPage:
    """Threads in id order after `after` (None: from the first), at most `limit`, each with a
    status.

    Only the latest checkpoint of each listed thread is read (and, for a broken one, its
    history back to the first invalid checkpoint); nothing else of the store is loaded.
    `model` is the model the threads were written with; `current` (optional) a changed
    model: a state valid under `model` but not under `current` "would not resume".
    `contains` keeps thread ids holding that text; `status` keeps one status (threads are
    then read until `limit` match or a few thousand were looked at: see `next_after`).

    Example:
        >>> from core.order import AgentState
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     page = list_threads(store, AgentState, contains="bad_status")
        >>> [(row.thread_id, row.label(), row.detail) for row in page.rows]
        [('fault-bad_status_last', 'broken at step 2', 'written by confirm')]
    """
    rows: list[ThreadRow] = []
    scanned, size = 0, max(1, limit)
    cursor = after
    while True:
        # one id more than the page: whether another page follows is then known, not guessed
        ids = store.thread_ids(cursor, size + 1, contains=contains)
        more, ids = len(ids) > size, ids[:size]
        if not ids:
            return ThreadPage(rows, None, scanned)
        counts = _counts(store, ids)
        read = {saved.thread_id if isinstance(saved, Unreadable)
                else saved.config["configurable"]["thread_id"]: saved
                for saved in read_checkpoints(store, ids, latest=True)}  # fmt: skip
        unread = [saved for saved in read.values() if isinstance(saved, Unreadable)]
        if (encrypted := encrypted_store(unread, len(read), store.label)) is not None:
            raise encrypted  # no thread could be decrypted: the store is encrypted
        raised = _raised(store, [s for s in read.values() if isinstance(s, CheckpointTuple)])
        for thread_id in ids:
            scanned += 1
            latest = read.get(thread_id)  # None: only subgraph checkpoints
            if latest is not None:
                row = _row(store, latest, counts.get(thread_id, 0), thread_id in raised,
                           model, current)  # fmt: skip
                if status is None or row.status is status:
                    rows.append(row)
            if len(rows) >= limit or scanned >= SCAN_LIMIT:
                later = thread_id != ids[-1] or more
                return ThreadPage(rows, kept_as_stored(thread_id) if later else None, scanned)
        if not more:
            return ThreadPage(rows, None, scanned)
        cursor = ids[-1]
