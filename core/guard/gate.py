"""A guard's decisions, shared by its sync and async methods: no call to a saver in here."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from os import PathLike
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
)
from langgraph.constants import START
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.guard.check import StateCheck
from core.guard.ledger import Held, Key, Known, Ledger, SeenWrite
from core.guard.refusal import InvalidStateError
from core.guard.verdict import checkpoint_verdict, refused_nodes, task_node, writes_verdict

__all__ = ["Gate", "OnInvalid", "check_options", "key_of", "parent_key"]

OnInvalid = Literal["raise", "warn"]
_log = logging.getLogger("core.guard")


@dataclass
class Gate:
    """What one guard decides: its model, what to do with an invalid state, its memory."""

    model: type[BaseModel]
    on_invalid: OnInvalid
    may_hold_refusals: bool  # the saver's serde may leave a refused value in a state read back
    ledger: Ledger = field(default_factory=Ledger)
    check: StateCheck = field(init=False)
    # the newest refusal raised: LangGraph drops a background save's error (durability
    # "async", "exit"), and a caller may still want to know where the guard stopped the run
    last_refusal: InvalidStateError | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.check = StateCheck(self.model, self.may_hold_refusals)

    def errors(
        self, config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata
    ) -> list[dict[str, Any]]:
        """The checkpoint's errors, as the audit would report them once it is stored."""
        return checkpoint_verdict(config, checkpoint, metadata, self.check)

    def refuse(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        errors: list[dict[str, Any]],
        parent: Known | None,
    ) -> CheckpointMetadata:
        """Raise the refusal (`"raise"`: the checkpoint is remembered as refused, the writes
        held for it dropped), or log it once and return the metadata to store (`"warn"`)."""
        error = InvalidStateError(
            errors,
            step=metadata.get("step"),
            nodes=refused_nodes(parent, checkpoint, metadata, errors),
            model=self.model.__name__,
            thread_id=str(config["configurable"]["thread_id"]),
        )
        if self.on_invalid == "raise":
            self.ledger.refuse(_own_key(config, checkpoint))
            self.last_refusal = error
            raise error
        _log.warning(error.warning)
        return {**metadata, "state_errors": errors}  # type: ignore[typeddict-unknown-key]

    def accepted(
        self,
        config: RunnableConfig,
        stored: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
    ) -> list[Held]:
        """Remember a checkpoint just stored (put with `config`); the writes that waited
        for it."""
        known = Known.of(checkpoint, metadata)
        known.checked_input = self.on_invalid == "raise" and metadata.get("source") == "input"
        parent = parent_key(config)
        own = _own_key(stored, checkpoint)
        return self.ledger.accept(own, known, parent if parent[2] else None)

    def read(self, config: RunnableConfig, saved: CheckpointTuple | None) -> CheckpointTuple | None:
        """Remember a root checkpoint read from the saver: a run loads the one it starts from,
        and the writes its tasks put on it are then checked without reading it again. A
        thread read empty (a new one) is remembered too: a write on a checkpoint of it the
        guard has not seen stored is one whose save has not landed yet."""
        key = key_of(config if saved is None else saved.config)
        if key is not None and saved is not None:
            self.ledger.learn(key, Known.of_tuple(saved))
        elif key is not None and not key[2]:
            self.ledger.saw_thread(key[0])
        return saved

    def known_or_hold(self, key: Key, stored: CheckpointTuple | None, call: Held) -> Known | None:
        """The checkpoint a write goes on, read from the saver; when it is not stored yet
        (LangGraph saves in the background), None: the write waits until it is."""
        if stored is not None:
            return self.ledger.learn(key, Known.of_tuple(stored))
        return self.ledger.hold(key, call)

    def check_writes(self, key: Key, known: Known, call: Held) -> None:
        """Record a task's writes; raise the refusal when they bring errors (`"raise"`).

        The input a checked input checkpoint holds was checked written into its state: its
        `__start__` task writes just that, and is not checked again.
        """
        mine = [SeenWrite(call.task_id, call.task_path, c, v) for c, v in call.writes]
        errors = []
        started = known.checked_input and task_node(call.task_path, known.sends) == START
        if self.on_invalid == "raise" and not started:
            others = self.ledger.writes_on(key, but=call.task_id)
            errors = writes_verdict(known, others, mine, self.check, key[0])
        if errors:
            mine = [replace(write, stored=False) for write in mine]
        self.ledger.record(key, call.task_id, mine)
        if errors:
            node = task_node(call.task_path, known.sends)
            self.last_refusal = InvalidStateError(
                errors,
                step=None if known.step is None else known.step + 1,
                nodes=(node,) if node else (),
                model=self.model.__name__,
                thread_id=key[0],
            )
            raise self.last_refusal


def check_options(inner: Any, model: Any, on_invalid: Any, migrate: Any) -> None:
    """Refuse what a guard cannot be built with (`guard_option`, saying which).

    Example:
        >>> from core.order import AgentState
        >>> check_options(object(), AgentState, "raise", None)
        Traceback (most recent call last):
        ...
        core.errors.CodedError: [guard_option] GuardedSaver: inner must be a LangGraph \
checkpoint saver (a BaseCheckpointSaver).
    """
    problem = (
        "inner must be a LangGraph checkpoint saver (a BaseCheckpointSaver)"
        if not isinstance(inner, BaseCheckpointSaver)
        else "model must be a Pydantic model class"
        if not (isinstance(model, type) and issubclass(model, BaseModel))
        else 'on_invalid must be "raise" or "warn"'
        if on_invalid not in ("raise", "warn")
        else "migrate must be a function taking a state dict and returning one, or the path "
        "of a plan (TOML) or of a folder of plans"
        if migrate is not None and not callable(migrate) and not isinstance(migrate, str | PathLike)
        else None
    )
    if problem is not None:
        raise CodedError(ErrorCode.GUARD_OPTION, f"GuardedSaver: {problem}.")


def key_of(config: RunnableConfig) -> Key | None:
    """The checkpoint a config names, as the guard keys it; None for a subgraph's (its own
    namespace, its own state: not the model's to check).

    Example:
        >>> key_of({"configurable": {"thread_id": 1, "checkpoint_id": "c"}})
        ('1', '', 'c')
        >>> key_of({"configurable": {"thread_id": 1, "checkpoint_ns": "sub:9"}}) is None
        True
    """
    configurable = config.get("configurable") or {}
    if configurable.get("checkpoint_ns") or "thread_id" not in configurable:
        return None
    return str(configurable["thread_id"]), "", str(configurable.get("checkpoint_id") or "")


def parent_key(config: RunnableConfig) -> Key:
    """The checkpoint a new one's config names: its parent (no id: the thread's first)."""
    return key_of(config) or ("", "", "")


def _own_key(config: RunnableConfig, checkpoint: Checkpoint) -> Key:
    return str(config["configurable"]["thread_id"]), "", checkpoint["id"]
