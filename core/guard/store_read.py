"""A stored thread as the guard reads it: the checkpoints a guard stored with `state_errors`
(its "warn" mode), and the head as a guarded saver hands it to LangGraph (migrated or not)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NotRequired

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver, CheckpointTuple
from pydantic import BaseModel, StrictInt, StrictStr, TypeAdapter, ValidationError
from typing_extensions import TypedDict

from core.errors import ErrorCode
from core.guard.ledger import state_channels
from core.guard.on_read import Migrate
from core.guard.saver import GuardedSaver
from core.stores.decode.serde import Refused
from core.stores.decode.state import state_errors
from core.words import count

__all__ = ["GuardRead", "GuardUnreadable", "StoredError", "WarnMark", "guard_read", "warn_marks"]

ERRORS_KEY = "state_errors"  # the metadata key a guard in "warn" mode stores errors under
# What reading a crafted row can raise in a saver's own decoding (JSON metadata, msgpack)
_DECODING = (ValueError, TypeError, LookupError)


class StoredError(TypedDict):
    """One Pydantic error as a guard stores it under `state_errors` (JSON: `loc` a list)."""

    type: StrictStr
    loc: list[StrictStr | StrictInt]
    msg: StrictStr
    input: NotRequired[Any]


_ERRORS = TypeAdapter(list[StoredError])
_STEP = TypeAdapter(StrictInt | None)


@dataclass(frozen=True)
class WarnMark:
    """A checkpoint a guard stored although the model rejected it (`on_invalid="warn"`): its
    id, step and the errors it stored in the checkpoint's metadata. `problem`: a coded
    sentence when that metadata is not what a guard stores (then `errors` is empty)."""

    checkpoint_id: str
    step: int | None
    errors: list[StoredError]
    problem: str | None = None


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


@dataclass(frozen=True)
class GuardUnreadable:
    """What the guard's read cannot show, with a stable code and a sentence saying why."""

    code: ErrorCode
    message: str
    checkpoint_id: str | None = None
    marks: list[WarnMark] = field(default_factory=list)  # read before it stopped

    @property
    def line(self) -> str:
        return f"[{self.code}] {self.message}"


def _root(thread_id: str) -> RunnableConfig:
    return {"configurable": {"thread_id": thread_id, "checkpoint_ns": ""}}


def _mark(saved: CheckpointTuple) -> WarnMark | None:
    """The mark of one listed checkpoint; None: it carries no `state_errors`."""
    checkpoint_id = str(saved.config["configurable"]["checkpoint_id"])
    metadata: object = saved.metadata
    if not isinstance(metadata, dict):
        problem = "its metadata is not a JSON object, so no guard stored it"
        return WarnMark(checkpoint_id, None, [], f"[{ErrorCode.ROW_BAD_METADATA}] {problem}")
    if not metadata.get(ERRORS_KEY):
        return None
    try:
        step = _STEP.validate_python(metadata.get("step"))
    except ValidationError:
        step = None
    try:
        return WarnMark(checkpoint_id, step, _ERRORS.validate_python(metadata[ERRORS_KEY]))
    except ValidationError as error:
        problem = (
            f"its metadata's {ERRORS_KEY} is not the list of Pydantic errors a guard stores "
            f"({count(error.error_count(), 'problem')}; first: {error.errors()[0]['msg']}), so it "
            "was not read"
        )
        return WarnMark(checkpoint_id, step, [], f"[{ErrorCode.ROW_BAD_METADATA}] {problem}")


def warn_marks(saver: BaseCheckpointSaver[Any], thread_id: str) -> list[WarnMark] | GuardUnreadable:
    """The thread's checkpoints stored with `state_errors` in their metadata, oldest first;
    a `GuardUnreadable` (store_unreadable, with the marks read before) when the saver cannot
    decode one of its rows.

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> warn_marks(InMemorySaver(), "t")
        []
    """
    marks: list[WarnMark] = []
    try:
        for saved in saver.list(_root(thread_id)):
            if (mark := _mark(saved)) is not None:
                marks.append(mark)
    except _DECODING as error:
        return GuardUnreadable(
            ErrorCode.STORE_UNREADABLE,
            f"LangGraph's saver could not decode a checkpoint of this thread ("
            f"{type(error).__name__}), so the guard's marks past it are not shown.",
            marks=marks[::-1],
        )
    return marks[::-1]


def _not_a_state(stored: CheckpointTuple) -> GuardUnreadable | None:
    checkpoint_id = str(stored.config["configurable"]["checkpoint_id"])
    checkpoint: object = stored.checkpoint
    if isinstance(checkpoint, Refused):
        code = ErrorCode.ROW_PICKLED if checkpoint.what == "pickle" else ErrorCode.ROW_UNDECODABLE
        return GuardUnreadable(
            code, f"The head checkpoint: {checkpoint.describe()}.", checkpoint_id
        )
    if not isinstance(checkpoint, dict) or not isinstance(checkpoint.get("channel_values"), dict):
        return GuardUnreadable(
            ErrorCode.ROW_NOT_A_CHECKPOINT,
            "The head checkpoint is not a LangGraph checkpoint (no channel_values object), "
            "so the guard would not hand it to a graph.",
            checkpoint_id,
        )
    return None


def guard_read(
    saver: BaseCheckpointSaver[Any],
    model: type[BaseModel],
    migrate: Migrate | None,
    thread_id: str,
) -> GuardRead | GuardUnreadable | None:
    """The thread's head through the guard's own read path (`GuardedSaver.get_tuple`): what a
    LangGraph graph compiled with that guard would be given. None: the thread has no
    checkpoint; a `GuardUnreadable` when the head is not a state (pickled, refused or not a
    checkpoint) or the saver cannot decode it. Nothing is written.

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
    try:
        stored = saver.get_tuple(_root(thread_id))
        if stored is None:
            return None
        if (unread := _not_a_state(stored)) is not None:
            return unread
        handed = guard.get_tuple(stored.config)
    except _DECODING as error:
        return GuardUnreadable(
            ErrorCode.STORE_UNREADABLE,
            f"LangGraph's saver could not decode this thread's head ({type(error).__name__}).",
        )
    if handed is None or (unread := _not_a_state(handed)) is not None:
        return unread or GuardUnreadable(
            ErrorCode.STORE_UNREADABLE, "The guard read no head for this thread."
        )
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
