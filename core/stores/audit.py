"""Audit a store: validate every thread's stored state against a model, blame the writer."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from itertools import islice
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel, ValidationError

from core.stores.open import Store
from core.stores.pages import read_checkpoints
from core.stores.serde import Refused, find_refused
from core.stores.writers import blame, parent_writes

__all__ = [
    "AuditResult",
    "InvalidState",
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
    """How many threads and checkpoints were audited, and every invalid state found."""

    threads: int = 0
    checkpoints: int = 0
    invalid: list[InvalidState] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The `--json` contract: `{"threads", "checkpoints", "invalid": [...]}`."""
        return {
            "threads": self.threads,
            "checkpoints": self.checkpoints,
            "invalid": [asdict(state) for state in self.invalid],
        }


def shard_of(thread_id: str, shards: int) -> int:
    """The shard a thread belongs to: a hash stable across processes and machines.

    Example:
        >>> shard_of("thread-1", 4), shard_of("thread-1", 4) == shard_of("thread-1", 4)
        (1, True)
    """
    digest = hashlib.blake2b(thread_id.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % shards


def iter_thread_ids(store: Store, shard: tuple[int, int] = (0, 1)) -> Iterator[str]:
    """Thread ids in order, one page per query, only those of shard `(i, N)`."""
    index, shards = shard
    last = ""
    while True:
        rows = store.query(
            "SELECT DISTINCT thread_id FROM checkpoints WHERE thread_id > ? "
            "ORDER BY thread_id LIMIT ?",
            (last, _PAGE),
        )
        for (thread_id,) in rows:
            if shard_of(thread_id, shards) == index:
                yield thread_id
        if len(rows) < _PAGE:
            return
        last = rows[-1][0]


def stored_state(saved: CheckpointTuple) -> Any:
    """The state a checkpoint holds: its state channels (LangGraph's own channels left out).

    An input checkpoint (`source == "input"`) holds the graph's input, not yet written to
    the state channels: what is validated is the state so far with the input's keys over it
    (a reducer would merge them instead; the next checkpoint holds LangGraph's merge).
    """
    checkpoint: Any = saved.checkpoint  # the strict serializer may give a Refused instead
    if isinstance(checkpoint, Refused):
        return checkpoint
    values = checkpoint.get("channel_values") or {}
    state = {k: v for k, v in values.items() if not k.startswith("_") and ":" not in k}
    start = values.get("__start__")
    if saved.metadata.get("source") == "input" and isinstance(start, dict):
        return {**state, **start}
    return state


def state_errors(
    state: Any, model: type[BaseModel], *, may_hold_refusals: bool = True
) -> list[dict[str, Any]]:
    """Pydantic's errors for `state` (JSON-safe), or one `refused_value` error per refusal.

    `may_hold_refusals=False` skips the search for `Refused` markers (the serializer
    counted none while this state was read).

    Example:
        >>> from core.order import LineItem
        >>> [e["type"] for e in state_errors({"sku": "ab", "qty": 1, "unit_price": 1}, LineItem)]
        ['string_too_short']
    """
    refused = find_refused(state) if may_hold_refusals else []
    if refused:
        return [
            {"type": "refused_value", "loc": list(at), "msg": hit.describe(), "input": hit.what}
            for at, hit in refused
        ]
    try:
        model.model_validate(state)
    except ValidationError as exc:
        errors: list[dict[str, Any]] = json.loads(exc.json(include_url=False))
        return errors
    return []


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
        saved.metadata.get("step"),
        node,
        errors,
    )


def audit_store(
    store: Store,
    model: type[BaseModel],
    *,
    history: bool = False,
    shard: tuple[int, int] = (0, 1),
) -> AuditResult:
    """Validate each thread's latest stored state (every checkpoint with `history`).

    Threads are walked a page at a time; the checkpoints of each page of threads come from
    one streamed query on the saver's own tables, decoded by its serde (`read_checkpoints`:
    the same tuples as the saver's `get_tuple` / `list`), so memory does not grow with the
    store. The writes behind a state are read only when it is invalid, to blame the node.
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
        for saved in read_checkpoints(store, page, latest=not history):  # streamed
            result.checkpoints += 1
            now = getattr(serde, "refusals", None)
            refusals, counted = now is None or now != counted, now
            if errors := state_errors(stored_state(saved), model, may_hold_refusals=refusals):
                found.append((saved, errors))
        # the writes are read once the page's stream is done: one query at a time per connection
        result.invalid += [_blamed(store, saved, errors) for saved, errors in found]
    return result
