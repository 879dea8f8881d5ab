"""A stored thread as the guard reads it: the checkpoints a guard stored with `state_errors`
(its "warn" mode), and the head as a guarded saver hands it to LangGraph (migrated or not)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import BaseModel

from core.guard.ledger import state_channels
from core.guard.on_read import Migrate
from core.guard.saver import GuardedSaver
from core.stores.decode.state import state_errors

__all__ = ["GuardRead", "WarnMark", "guard_read", "warn_marks"]

ERRORS_KEY = "state_errors"  # the metadata key a guard in "warn" mode stores errors under


@dataclass(frozen=True)
class WarnMark:
    """A checkpoint a guard stored although the model rejected it (`on_invalid="warn"`): its
    id, step and the errors it stored in the checkpoint's metadata."""

    checkpoint_id: str
    step: int | None
    errors: list[dict[str, Any]]


@dataclass(frozen=True)
class GuardRead:
    """A thread's head read through `GuardedSaver(saver, model, migrate=...)`: the state as
    stored and its errors under `model`, what the guard hands LangGraph and its errors
    (none: the model accepts it), and whether the migration changed it."""

    checkpoint_id: str
    stored: dict[str, Any]
    stored_errors: list[dict[str, Any]]
    handed: dict[str, Any]
    errors: list[dict[str, Any]]
    migrated: bool


def _root(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def warn_marks(saver: BaseCheckpointSaver[Any], thread_id: str) -> list[WarnMark]:
    """The thread's checkpoints stored with `state_errors` in their metadata, oldest first.

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> warn_marks(InMemorySaver(), "t")
        []
    """
    marks = [
        WarnMark(
            str(saved.config["configurable"]["checkpoint_id"]),
            saved.metadata.get("step"),
            list(saved.metadata.get(ERRORS_KEY) or []),  # type: ignore[call-overload]
        )
        for saved in saver.list(_root(thread_id))
        if saved.metadata and saved.metadata.get(ERRORS_KEY)
    ]
    return marks[::-1]


def guard_read(
    saver: BaseCheckpointSaver[Any],
    model: type[BaseModel],
    migrate: Migrate | None,
    thread_id: str,
) -> GuardRead | None:
    """The thread's head through the guard's own read path (`GuardedSaver.get_tuple`): what a
    LangGraph graph compiled with that guard would be given. None: the thread has no
    checkpoint. Nothing is written.

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> from core.order import SEED_PAYLOAD, AgentState, build_order_graph
        >>> saver = InMemorySaver()
        >>> graph = build_order_graph().copy(update={"checkpointer": saver})
        >>> _ = graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "t"}})
        >>> read = guard_read(saver, AgentState, None, "t")
        >>> read.stored["status"], read.errors, read.migrated
        ('confirmed', [], False)
    """
    guard = GuardedSaver(saver, model, migrate=migrate)
    stored = saver.get_tuple(_root(thread_id))
    if stored is None:
        return None
    handed = guard.get_tuple(stored.config)
    assert handed is not None  # the same checkpoint, read again through the guard
    before = state_channels(stored.checkpoint["channel_values"])
    after = state_channels(handed.checkpoint["channel_values"])
    return GuardRead(
        checkpoint_id=str(stored.config["configurable"]["checkpoint_id"]),
        stored=before,
        stored_errors=state_errors(before, model),
        handed=after,
        errors=state_errors(after, model),
        migrated=after != before,
    )
