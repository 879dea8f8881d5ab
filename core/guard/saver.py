"""GuardedSaver: any checkpoint saver, refusing a state the model rejects before it is stored."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Iterable, Iterator, Mapping, Sequence
from os import PathLike
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
)
from pydantic import BaseModel

from core.guard.capabilities import guarded_class
from core.guard.gate import Gate, OnInvalid, check_options, key_of, parent_key
from core.guard.ledger import Held, Known
from core.guard.on_read import Migrate, migrate_read, rejected_state
from core.guard.plans import (
    PlanMigration,
    ThreadRecords,
    found_record,
    migration_of,
    plan_record,
    record_scope,
)
from core.guard.refusal import InvalidStateError

__all__ = ["GuardedSaver", "OnInvalid"]

_Specs = list[Any]  # the class defines `list`: this name keeps the builtin in an annotation


class GuardedSaver(BaseCheckpointSaver[Any]):
    """A checkpoint saver around `inner` that stores no state `model` rejects.

    Every checkpoint of the root graph is checked as the audit checks a stored state before
    it is stored (`put`/`aput`), and every task's writes before they are kept for a resume
    (`put_writes`/`aput_writes`). `on_invalid="raise"`: nothing of it is stored and the run
    raises `InvalidStateError` (its errors, step and writing nodes); `"warn"`: it is stored
    with its errors in the checkpoint's metadata (`state_errors`), and one warning is
    logged. `migrate` (a function `state -> state`, the path of a plan TOML as `python -m
    core migrate --plan` reads it, or of a folder of chained plans) migrates a state the
    model rejects as it is read (`get_tuple`, `list`); nothing is rewritten on read. A chain
    migrates each state from where its thread stands, as `python -m core migrate --plan DIR`
    does: after the plan its newest `migration` record names (a fork `--apply` wrote), else
    from the newest plan whose model accepts it. A subgraph's
    checkpoints (their own namespace and state) pass unchecked. Everything else is the
    inner saver's, with exactly its optional methods (`prune`, `copy_thread`, ...).

    Example:
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> from langgraph.graph import START, StateGraph
        >>> from pydantic import BaseModel
        >>> class Tagged(BaseModel):
        ...     tags: list[str] = []
        >>> builder = StateGraph(Tagged).add_node("tag", lambda state: {"tags": ["a", None]})
        >>> builder = builder.add_edge(START, "tag")
        >>> graph = builder.compile(checkpointer=GuardedSaver(InMemorySaver(), Tagged))
        >>> config = {"configurable": {"thread_id": "t-1"}}
        >>> try:
        ...     graph.invoke({"tags": []}, config, durability="sync")
        ... except InvalidStateError as error:
        ...     print(error.step, error.nodes, [e["loc"] for e in error.errors])
        1 ('tag',) [['tags', 1]]
        >>> graph.get_state(config).values, graph.get_state(config).next
        ({'tags': []}, ('tag',))
    """

    def __new__(cls, inner: BaseCheckpointSaver[Any] | None = None, *_: Any, **__: Any) -> Any:
        if cls is GuardedSaver and inner is not None:  # a copy passes nothing: keep its class
            cls = guarded_class(GuardedSaver, type(inner))
        return super().__new__(cls)

    def __init__(
        self,
        inner: BaseCheckpointSaver[Any],
        model: type[BaseModel],
        *,
        on_invalid: OnInvalid = "raise",
        migrate: Migrate | str | PathLike[str] | None = None,
    ) -> None:
        check_options(inner, model, on_invalid, migrate)
        migrate = migration_of(migrate)
        super().__init__(serde=inner.serde)
        self.inner = inner
        self.migrate = migrate
        refusals = getattr(inner.serde, "refusals", None) is not None  # the strict serde's
        self.gate = Gate(model, on_invalid, refusals)

    @property
    def model(self) -> type[BaseModel]:
        return self.gate.model

    @property
    def on_invalid(self) -> OnInvalid:
        return self.gate.on_invalid

    @property
    def last_refusal(self) -> InvalidStateError | None:
        """The newest state this guard refused (`"raise"`), None before any: under the
        "async" and "exit" durability modes LangGraph drops a save's error, and may raise its
        own ValidationError instead."""
        return self.gate.last_refusal

    def __getattr__(self, name: str) -> Any:  # everything else is the inner saver's
        if name.startswith("__") or name in {"inner", "gate"}:
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __repr__(self) -> str:
        named = f"{self.inner!r}, {self.model.__name__}, on_invalid={self.on_invalid!r}"
        return f"GuardedSaver({named})"

    @property
    def config_specs(self) -> _Specs:
        return self.inner.config_specs

    def get_next_version(self, current: Any, channel: None) -> Any:
        return self.inner.get_next_version(current, channel)

    def with_allowlist(self, extra_allowlist: Any) -> BaseCheckpointSaver[Any]:
        inner = self.inner.with_allowlist(extra_allowlist)
        if inner is self.inner:
            return self
        twin = GuardedSaver(inner, self.model, on_invalid=self.on_invalid, migrate=self.migrate)
        twin.gate = self.gate  # one memory: a run may use either
        return twin

    def forget(self, thread_ids: Iterable[str] | None) -> None:
        """Drop what the guard remembers of these threads (all: None), as they are deleted."""
        self.gate.ledger.forget(thread_ids)

    # reads: the inner saver's, each state the model rejects migrated when `migrate` is set;
    # a checkpoint read (a run starts from one) is remembered for the writes put on it

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        saved = self.inner.get_tuple(config)
        state = rejected_state(saved, self.model, self.migrate)
        if saved is not None and state is not None:
            saved = self._migrated(saved, state, self._records(config))
        return self.gate.read(config, saved)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        saved = await self.inner.aget_tuple(config)
        state = rejected_state(saved, self.model, self.migrate)
        if saved is not None and state is not None:
            saved = self._migrated(saved, state, await self._arecords(config))
        return self.gate.read(config, saved)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        # a chain's records read before the listing: a saver holds its lock while it yields
        records = self._records(config)
        for saved in self.inner.list(config, filter=filter, before=before, limit=limit):
            state = rejected_state(saved, self.model, self.migrate)
            if state is not None:
                saved = self._migrated(saved, state, records)
            yield saved

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        records = await self._arecords(config)
        async for saved in self.inner.alist(config, filter=filter, before=before, limit=limit):
            state = rejected_state(saved, self.model, self.migrate)
            if state is not None:
                saved = self._migrated(saved, state, records)
            yield saved

    def _migrated(
        self, saved: CheckpointTuple, state: dict[str, Any], records: ThreadRecords
    ) -> CheckpointTuple:
        """`saved`'s rejected `state` migrated; a chain's from where the thread stands."""
        migrate: Any = self.migrate
        if isinstance(migrate, PlanMigration):
            migrate = functools.partial(migrate, record=plan_record(saved, records))
        return migrate_read(saved, state, self.model, migrate, self.get_next_version)

    def _record_filters(self) -> Sequence[dict[str, str]]:
        """A chain's filters for its `migration` records (a function, a plan without an id:
        none)."""
        return self.migrate.record_filters() if isinstance(self.migrate, PlanMigration) else []

    def _records(self, config: RunnableConfig | None) -> ThreadRecords:
        """The `migration` records of the thread `config` names (of every thread: None),
        each with its thread."""
        where = record_scope(config)
        return [found_record(found, plan) for plan in self._record_filters()
                for found in self.inner.list(where, filter=plan)]  # fmt: skip

    async def _arecords(self, config: RunnableConfig | None) -> ThreadRecords:
        where = record_scope(config)
        return [found_record(found, plan) for plan in self._record_filters()
                async for found in self.inner.alist(where, filter=plan)]  # fmt: skip

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        return self.inner.get_delta_channel_history(config=config, channels=channels)

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        return await self.inner.aget_delta_channel_history(config=config, channels=channels)

    def delete_thread(self, thread_id: str) -> None:
        self.forget([thread_id])
        self.inner.delete_thread(thread_id)

    async def adelete_thread(self, thread_id: str) -> None:
        self.forget([thread_id])
        await self.inner.adelete_thread(thread_id)

    # checkpoints: checked before they are stored; then the writes that waited for them

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        if key_of(config) is None:
            return self.inner.put(config, checkpoint, metadata, new_versions)
        if errors := self.gate.errors(config, checkpoint, metadata):
            parent = self.gate.ledger.known(parent_key(config)) or _known(
                self.get_tuple(config) if parent_key(config)[2] else None
            )
            metadata = self.gate.refuse(config, checkpoint, metadata, errors, parent)
        stored = self.inner.put(config, checkpoint, metadata, new_versions)
        refused = None
        for call in self.gate.accepted(config, stored, checkpoint, metadata):
            try:
                self.put_writes(*call)
            except InvalidStateError as error:
                refused = refused or error
        if refused is not None:
            raise refused
        return stored

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        if key_of(config) is None:
            return await self.inner.aput(config, checkpoint, metadata, new_versions)
        if errors := self.gate.errors(config, checkpoint, metadata):
            parent = self.gate.ledger.known(parent_key(config)) or _known(
                await self.aget_tuple(config) if parent_key(config)[2] else None
            )
            metadata = self.gate.refuse(config, checkpoint, metadata, errors, parent)
        stored = await self.inner.aput(config, checkpoint, metadata, new_versions)
        refused = None
        for call in self.gate.accepted(config, stored, checkpoint, metadata):
            try:
                await self.aput_writes(*call)
            except InvalidStateError as error:
                refused = refused or error
        if refused is not None:
            raise refused
        return stored

    # writes: checked before they are kept for a resume; held until their checkpoint is stored

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        key = key_of(config)
        if key is None:
            return self.inner.put_writes(config, writes, task_id, task_path)
        call = Held(config, writes, task_id, task_path)
        known, waiting = self.gate.ledger.claim(key, call)
        if waiting:  # held until its checkpoint is stored, or dropped with it
            return None
        if known is None:  # a checkpoint the guard forgot: read it (or hold, not stored yet)
            known = self.gate.known_or_hold(key, self.get_tuple(config), call)
            if known is None:
                return None
        self.gate.check_writes(key, known, call)
        return self.inner.put_writes(config, writes, task_id, task_path)

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        key = key_of(config)
        if key is None:
            return await self.inner.aput_writes(config, writes, task_id, task_path)
        call = Held(config, writes, task_id, task_path)
        known, waiting = self.gate.ledger.claim(key, call)
        if waiting:
            return None
        if known is None:
            known = self.gate.known_or_hold(key, await self.aget_tuple(config), call)
            if known is None:
                return None
        self.gate.check_writes(key, known, call)
        return await self.inner.aput_writes(config, writes, task_id, task_path)


def _known(saved: CheckpointTuple | None) -> Known | None:
    return None if saved is None else Known.of_tuple(saved)
