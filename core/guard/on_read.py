"""Lazy migration: a stored state the model rejects is migrated as it is read, never rewritten."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from langgraph.checkpoint.base import Checkpoint, CheckpointTuple
from pydantic import BaseModel

from core.guard.ledger import state_channels
from core.stores.rows import RowProblem
from core.stores.state import state_errors

__all__ = ["Migrate", "migrated"]

Migrate = Callable[[dict[str, Any]], dict[str, Any]]


def migrated(
    saved: CheckpointTuple | None, model: type[BaseModel], migrate: Migrate | None
) -> CheckpointTuple | None:
    """`saved` as read, or, when `model` rejects its state, with its state channels replaced
    by `migrate(state)` (the rest of the checkpoint, its metadata and writes as stored).

    The state is the checkpoint's state channels, checked as the audit checks a state
    (`state_errors`); a subgraph's checkpoint (its own namespace, its own state) and a state
    the model accepts are returned as read. Nothing is written: the next checkpoint a run
    stores from it holds the migrated values it wrote.

    Example:
        >>> from core.order import LineItem
        >>> old = {"id": "1", "channel_values": {"sku": "SKU-1", "qty": "2", "price": 3.0}}
        >>> saved = CheckpointTuple({"configurable": {"thread_id": "t"}}, old, {})
        >>> def rename_price(state):
        ...     price = state.pop("price")
        ...     return {**state, "unit_price": price}
        >>> migrated(saved, LineItem, rename_price).checkpoint["channel_values"]
        {'sku': 'SKU-1', 'qty': '2', 'unit_price': 3.0}
        >>> migrated(saved, LineItem, None) is saved
        True
    """
    if saved is None or migrate is None or saved.config["configurable"].get("checkpoint_ns"):
        return saved
    checkpoint: Any = saved.checkpoint  # a strict serde may give a Refused instead
    values = checkpoint.get("channel_values") if isinstance(checkpoint, dict) else None
    state = state_channels(values or {})
    if not state or not _rejected(state, model):
        return saved
    own = {k: v for k, v in (values or {}).items() if k not in state}
    values = {**own, **migrate(dict(state))}
    return saved._replace(checkpoint=cast(Checkpoint, {**checkpoint, "channel_values": values}))


def _rejected(state: dict[str, Any], model: type[BaseModel]) -> bool:
    try:
        return bool(state_errors(state, model))
    except RowProblem:  # too deep to be checked: read as stored
        return False
