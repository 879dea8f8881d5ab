"""Audit a store: validate every thread's stored state against a model, blame the writer."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel

from core.stores.backends.open import Store
from core.stores.backends.shards import Shard, shard_of
from core.stores.backends.thread_ids import ThreadId, text_id
from core.stores.decode.rows import RowProblem, Unreadable, encrypted_store, step_of
from core.stores.decode.state import checkpoint_errors, state_errors, stored_state
from core.stores.threads.walk import iter_thread_ids, walk_store
from core.stores.threads.writers import written_by

__all__ = [
    "AuditResult",
    "InvalidState",
    "Unreadable",
    "audit_store",
    "iter_thread_ids",
    "shard_of",
    "state_errors",
    "stored_state",
]


@dataclass(frozen=True)
class InvalidState:
    """One stored state the model rejects, and the node whose write produced it."""

    thread_id: str  # text: a thread whose id is not text is an `Unreadable`, never checked
    checkpoint_id: str
    step: int | None
    node: str | None  # None: the input checkpoint, or a write no node made
    errors: list[dict[str, Any]]  # Pydantic's errors(include_url=False), JSON-safe


@dataclass
class AuditResult:
    """How many threads and checkpoints were audited, every invalid state found, and every
    checkpoint that could not be read (each with a code)."""

    threads: int = 0
    checkpoints: int = 0
    invalid: list[InvalidState] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The `--json` contract: `{"threads", "checkpoints", "invalid", "unreadable"}`."""
        return {
            "threads": self.threads,
            "checkpoints": self.checkpoints,
            "invalid": [
                {**asdict(state), "thread_id": text_id(state.thread_id)} for state in self.invalid
            ],  # fmt: skip
            "unreadable": [row.to_json() for row in self.unreadable],
        }

    @property
    def clean(self) -> bool:
        """Every audited state was read and is valid."""
        return not self.invalid and not self.unreadable


def _blamed(store: Store, saved: CheckpointTuple, errors: list[dict[str, Any]]) -> InvalidState:
    configurable = saved.config["configurable"]
    return InvalidState(
        configurable["thread_id"],
        configurable["checkpoint_id"],
        step_of(saved.metadata),
        written_by(store, saved, errors),
        errors,
    )


def _unreadable(saved: CheckpointTuple, problem: RowProblem) -> Unreadable:
    configurable = saved.config["configurable"]
    return Unreadable(
        configurable["thread_id"],
        configurable["checkpoint_id"],
        step_of(saved.metadata),
        problem.code,
        problem.message,
    )


def audit_store(
    store: Store,
    model: type[BaseModel],
    *,
    history: bool = False,
    shard: Shard = (0, 1),
    thread: ThreadId | None = None,
) -> AuditResult:
    """Validate each thread's latest stored state (every checkpoint with `history`).

    Threads are walked a page at a time (`walk_store`, as the migration walks them); the
    checkpoints of each page of threads come from one streamed query on the saver's own
    tables, decoded by its serde (`read_checkpoints`: the same tuples as the saver's
    `get_tuple` / `list`), so memory does not grow with the store. The writes behind a
    state are read only when it is invalid, to blame the node. A checkpoint that cannot be
    read or checked is an `unreadable` row with its code; the audit reads on. An input
    checkpoint is checked with its input written through the model's channels, as LangGraph
    writes it (`core.stores.state.checkpoint_errors`). `shard=(i, N)` audits only the
    threads whose `shard_of(thread_id, N) == i`; `thread` (as stored: `stored_id` of what
    the audit printed) audits that one thread (none, when the store does not hold it).

    Example:
        >>> from core.order import AgentState
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     result = audit_store(store, AgentState)
        >>> [(s.thread_id, s.node) for s in result.invalid][:1]
        [('fault-bad_status_last', 'confirm')]
    """
    index, shards = shard
    if not 0 <= index < shards:
        raise ValueError(f"shard {index}/{shards}: i must be in 0..{shards - 1}")
    result = AuditResult()
    for page in walk_store(store, history=history, shard=shard, share=True, only=thread):
        result.threads += len(page.thread_ids)
        found: list[tuple[CheckpointTuple, list[dict[str, Any]]]] = []
        for read in page:  # streamed
            result.checkpoints += 1
            if isinstance(read, Unreadable):
                result.unreadable.append(read)
                continue
            saved, refusals = read.saved, read.may_hold_refusals
            try:
                errors = checkpoint_errors(saved, model, may_hold_refusals=refusals)[1]
            except RowProblem as problem:
                result.unreadable.append(_unreadable(saved, problem))
                continue
            if errors:
                found.append((saved, errors))
        # the writes are read once the page's stream is done: one query at a time per connection
        result.invalid += [_blamed(store, saved, errors) for saved, errors in found]
    if (
        encrypted := encrypted_store(result.unreadable, result.checkpoints, store.label)
    ) is not None:
        raise encrypted  # no checkpoint could be decrypted: the store, not a row, is the problem
    return result
