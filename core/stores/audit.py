"""Audit a store: validate every thread's stored state against a model, blame the writer."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel

from core.stores.open import Store
from core.stores.pages import read_checkpoints
from core.stores.rows import RowProblem, Unreadable, encrypted_store, step_of
from core.stores.shards import Shard, shard_condition, shard_of
from core.stores.state import checkpoint_errors, state_errors, stored_state
from core.stores.writers import blame, parent_writes

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

_PAGE = 1000  # thread ids fetched per query: a store of any size is walked, never loaded
_THREADS_PER_QUERY = 200  # threads whose checkpoints one streamed query reads


@dataclass(frozen=True)
class InvalidState:
    """One stored state the model rejects, and the node whose write produced it."""

    thread_id: str
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
            "invalid": [asdict(state) for state in self.invalid],
            "unreadable": [row.to_json() for row in self.unreadable],
        }

    @property
    def clean(self) -> bool:
        """Every audited state was read and is valid."""
        return not self.invalid and not self.unreadable


def iter_thread_ids(store: Store, shard: tuple[int, int] = (0, 1)) -> Iterator[str]:
    """Thread ids in order, one page per query, only those of shard `(i, N)`.

    Every id is read, the empty one included: the first page has no lower bound. The
    database picks the shard's ids (`shard_condition`, the SQL form of `shard_of`): each of
    N workers reads about 1/N of the ids.
    """
    index, shards = shard
    last: str | None = None
    while True:
        conditions: list[str] = [] if last is None else ["thread_id > ?"]
        params: list[str | int] = [] if last is None else [last]
        if shards > 1:
            conditions.append(shard_condition(store.kind))
            params += [shards, index]
        where = f"WHERE {' AND '.join(conditions)} " if conditions else ""
        rows = store.query(
            f"SELECT DISTINCT thread_id FROM checkpoints {where}ORDER BY thread_id LIMIT ?",
            (*params, _PAGE),
        )
        yield from (thread_id for (thread_id,) in rows)
        if len(rows) < _PAGE:
            return
        last = rows[-1][0]


def _blamed(store: Store, saved: CheckpointTuple, errors: list[dict[str, Any]]) -> InvalidState:
    configurable = saved.config["configurable"]
    node = None
    if saved.metadata.get("source") != "input" and saved.parent_config is not None:
        writes = parent_writes(
            store,
            configurable["thread_id"],
            configurable.get("checkpoint_ns", ""),
            saved.parent_config["configurable"]["checkpoint_id"],
        )
        node = blame(writes, [str(e["loc"][0]) for e in errors if e["loc"]])
    return InvalidState(
        configurable["thread_id"],
        configurable["checkpoint_id"],
        step_of(saved.metadata),
        node,
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
    store: Store, model: type[BaseModel], *, history: bool = False, shard: Shard = (0, 1)
) -> AuditResult:
    """Validate each thread's latest stored state (every checkpoint with `history`).

    Threads are walked a page at a time; the checkpoints of each page of threads come from
    one streamed query on the saver's own tables, decoded by its serde (`read_checkpoints`:
    the same tuples as the saver's `get_tuple` / `list`), so memory does not grow with the
    store. The writes behind a state are read only when it is invalid, to blame the node.
    A checkpoint that cannot be read or checked is an `unreadable` row with its code; the
    audit reads on. An input checkpoint is checked with its input written through the
    model's channels, as LangGraph writes it (`core.stores.state.checkpoint_errors`).
    `shard=(i, N)` audits only the threads whose `shard_of(thread_id, N) == i`.

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
    serde = store.saver.serde
    counted = getattr(serde, "refusals", None)  # None: not ours, search every state
    thread_ids = iter_thread_ids(store, shard)
    for page in iter(lambda: list(islice(thread_ids, _THREADS_PER_QUERY)), []):
        result.threads += len(page)
        found: list[tuple[CheckpointTuple, list[dict[str, Any]]]] = []
        for saved in read_checkpoints(store, page, latest=not history, share=True):  # streamed
            result.checkpoints += 1
            if isinstance(saved, Unreadable):
                result.unreadable.append(saved)
                continue
            now = getattr(serde, "refusals", None)
            refusals, counted = now is None or now != counted, now
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
