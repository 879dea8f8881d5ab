"""Lazy migration: a stored state the model rejects is migrated as it is read, never rewritten."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, cast

from langgraph.checkpoint.base import Checkpoint, CheckpointTuple
from pydantic import BaseModel

from core.guard.check import same_state
from core.guard.ledger import state_channels
from core.stores.decode.instances import plain_fields

__all__ = ["Migrate", "NextVersion", "migrate_read", "rejected_state"]

Migrate = Callable[[dict[str, Any]], dict[str, Any]]
NextVersion = Callable[[Any, None], Any]  # a saver's get_next_version
_read_log = logging.getLogger("core.guard")  # the guard's logger (gate.py logs refusals)


def rejected_state(
    saved: CheckpointTuple | None, model: type[BaseModel], migrate: Migrate | None
) -> dict[str, Any] | None:
    """The state channels of `saved` when there is a migration and `model` rejects them (what
    `migrate_read` then migrates); None when the checkpoint is read as stored: no migration,
    a subgraph's checkpoint, no state, or a state the model accepts."""
    if saved is None or migrate is None or saved.config["configurable"].get("checkpoint_ns"):
        return None
    checkpoint: Any = saved.checkpoint  # a strict serde may give a Refused instead
    values = checkpoint.get("channel_values") if isinstance(checkpoint, dict) else None
    state = state_channels(values or {})
    if not state or not _rejected(state, model):
        return None
    return state


def migrate_read(
    saved: CheckpointTuple,
    state: dict[str, Any],
    model: type[BaseModel],
    migrate: Migrate,
    next_version: NextVersion | None = None,
) -> CheckpointTuple:
    """`saved` with its state channels, which `model` rejects (`state`: `rejected_state`'s),
    replaced by `migrate(state)` (the rest of the checkpoint, its metadata and writes as
    stored).

    A state the migration leaves rejected is returned as stored, with a warning naming the
    thread and checkpoint. Nothing is written: the next checkpoint a run stores from it holds
    the migrated values. For that, each channel the migration changed gets a new version
    (`next_version`, the saver's): LangGraph stores only the channels it has versions of, and
    a saver writes a channel's value only under a new version (a thread stopped before a node
    still resumes by running it: LangGraph counts what a checkpoint holds as seen by the
    interrupt it resumes from).

    Example:
        >>> from core.order import LineItem
        >>> old = {"id": "1", "channel_values": {"sku": "SKU-1", "qty": "2", "price": 3.0},
        ...        "channel_versions": {"sku": 1, "qty": 1, "price": 1}, "versions_seen": {}}
        >>> saved = CheckpointTuple({"configurable": {"thread_id": "t"}}, old, {})
        >>> def rename_price(state):
        ...     price = state.pop("price")
        ...     return {**state, "unit_price": price}
        >>> state = rejected_state(saved, LineItem, rename_price)
        >>> bump = lambda current, _: current + 1
        >>> read = migrate_read(saved, state, LineItem, rename_price, bump)
        >>> read.checkpoint["channel_values"], read.checkpoint["channel_versions"]
        ({'sku': 'SKU-1', 'qty': '2', 'unit_price': 3.0}, {'sku': 1, 'qty': 1, 'unit_price': 2})
        >>> rejected_state(saved, LineItem, None) is None  # no migration: read as stored
        True
    """
    checkpoint: Any = saved.checkpoint
    values = checkpoint.get("channel_values") or {}
    after = migrate(dict(state))
    if _rejected(after, model):
        configurable = saved.config["configurable"]
        _read_log.warning(
            "[state_invalid] Thread %r, checkpoint %r: the migration leaves the stored state "
            "rejected by %s; it is read as stored.",
            str(configurable.get("thread_id")),
            checkpoint.get("id"),
            model.__name__,
        )
        return saved
    own = {k: v for k, v in values.items() if k not in state}
    changed = [k for k in after if k not in state or not same_state(state[k], after[k])]
    read = {**checkpoint, "channel_values": {**own, **after}}
    if next_version is not None and changed:
        read.update(
            _versioned(checkpoint, changed, [k for k in state if k not in after], next_version)
        )
    return saved._replace(checkpoint=cast(Checkpoint, read))


def _versioned(
    checkpoint: dict[str, Any], changed: list[str], dropped: list[str], next_version: NextVersion
) -> dict[str, Any]:
    """New channel versions for the changed channels (newer than any the checkpoint holds),
    none for the dropped ones."""
    versions = {
        k: v for k, v in (checkpoint.get("channel_versions") or {}).items() if k not in dropped
    }
    newest = max(versions.values(), default=None)
    for channel in changed:
        newest = versions[channel] = next_version(newest, None)
    return {"channel_versions": versions}


def _rejected(state: dict[str, Any], model: type[BaseModel]) -> bool:
    """Whether `state_errors` would report errors, without working them out: the model's own
    validation of the same data (the audit's report of them is only needed on a refusal)."""
    try:
        model.model_validate(plain_fields(state, model))
    except RecursionError:  # too deep to be checked: read as stored
        return False
    except Exception:  # noqa: BLE001 - ValidationError, or a validator's crash: rejected
        return True
    return False
