"""Apply a plan: each thread it fixes gets one new checkpoint, a fork of its latest one."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.errors import InvalidUpdateError
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.jsontext.write import jsonable
from core.migrate.chain import Chain
from core.migrate.graph import with_state
from core.migrate.migrated import Migrated, migrated
from core.migrate.plan import Plan
from core.migrate.standing import RECORD_KEY, migration_records, start_of
from core.migrate.states import StoredState, stored_states
from core.order.graph import CompiledGraph
from core.stores.reader import AnyStore, open_any, timeline_of
from core.stores.rows import RowProblem
from core.stores.serde import StrictSerializer
from core.stores.server import RemoteStore, ServerRefusal
from core.stores.server_read import blamed_node
from core.stores.server_unbrick import OVERWRITE
from core.stores.state import plain_data
from core.stores.store import Store
from core.stores.unbrick import UnbrickCode, UnbrickError, require_writes, writable_saver
from core.validate.entry_run import entry_graph
from core.words import count

__all__ = ["Written", "fork_fields", "migrated_read", "write_migration"]


@dataclass(frozen=True)
class Written:
    """One thread the plan fixed: the checkpoint forked from and the one written."""

    thread_id: str
    from_checkpoint_id: str
    new_checkpoint_id: str


def _changes(before: Any, after: Any) -> dict[str, Any]:
    """The fields whose value the plan changed or added (a dropped or renamed-away field is
    not written: the candidate graph has no channel for it, so it is no longer read). An
    Enum member mapped to its own text is a change: a Literal refuses the member."""
    old = plain_data(before) if isinstance(before, dict) else {}
    return {k: v for k, v in after.items()
            if k not in old or jsonable(_marked(old[k])) != jsonable(_marked(v))}  # fmt: skip


def _marked(value: Any) -> Any:
    """`value` with each Enum member told apart from its value (JSON writes them alike)."""
    if isinstance(value, enum.Enum):
        return {"enum member": type(value).__qualname__, "value": _marked(value.value)}
    if isinstance(value, dict):
        return {key: _marked(inner) for key, inner in value.items()}
    if isinstance(value, list | tuple):
        return [_marked(inner) for inner in value]
    return value


def write_migration(
    spec: str,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Plan | Chain,
    graph_for: Callable[[str], CompiledGraph],
    serde: StrictSerializer,
    *,
    assistant: str | None = None,
) -> list[Written]:
    """For each thread whose latest state the plan changes and the candidate then accepts,
    write the migrated state as one new checkpoint forked from that latest one, through
    LangGraph's `update_state` on the thread's graph over `candidate` (`graph_for(thread)`,
    rebuilt by `with_state`), as the node that wrote the latest checkpoint, so its next
    tasks stay; on a LangGraph server through its API. Existing rows never change; a second
    run finds nothing to do. Refused unless writes are enabled (PLAYGROUND_STORE_WRITES=1).

    A `Chain` migrates each thread from where it stands (`core.migrate.standing.start_of`)
    to its stop, and each fork records the stop's plan id in its metadata (`migration`).
    A thread is written when its migrated state differs from the stored one and the
    candidate accepts it. Every version the chain names may have left a field the
    candidate lacks: the fork keeps no channel version of any of them.
    """
    require_writes(spec)
    chain = plan if isinstance(plan, Chain) else Chain.of(plan)
    with open_any(spec, serde, assistant=assistant) as store:
        records = migration_records(store, chain)
        chosen = [
            (read, fields)
            for read in stored_states(store, model)
            if isinstance(read, StoredState)
            and (fields := fork_fields(chain.plan(start_of(chain, records, read)), read, candidate))
            is not None
        ]

        def on_server(server: RemoteStore) -> list[Written]:
            forks = (_write_server(server, chain, records, read, candidate) for read, _ in chosen)
            return [fork for fork in forks if fork is not None]

        def on_database(database: Store) -> list[Written]:
            with writable_saver(spec, serde) as saver:
                return _write_forks(saver, database, chosen, model, candidate, chain, graph_for)

        return store.pick(database=on_database, server=on_server)


def _write_forks(
    saver: Any,
    store: AnyStore,
    chosen: list[tuple[StoredState, dict[str, Any]]],
    model: type[BaseModel],
    candidate: type[BaseModel],
    chain: Chain,
    graph_for: Callable[[str], CompiledGraph],
) -> list[Written]:
    """One fork per chosen thread through `update_state` on its graph over the candidate."""
    written: list[Written] = []
    _without_pending_writes(saver)
    versions = [model, *chain.models]
    gone = {name for version in versions for name in version.model_fields}
    _without_channels(saver, gone - set(candidate.model_fields), chain.head)
    compiled: dict[int, Any] = {}  # one rebuild per graph, not per thread (compile is slow)
    for read, fields in chosen:
        graph = graph_for(read.thread_id)
        if id(graph) not in compiled:  # the graph is kept beside it: its id stays its own
            compiled[id(graph)] = (graph, with_state(graph, candidate).compile(checkpointer=saver))
        rebuilt = compiled[id(graph)][1]
        channels = rebuilt.channels
        values = {k: Overwrite(v) if isinstance(channels.get(k), BinaryOperatorAggregate)
                  else v for k, v in fields.items()}  # fmt: skip
        config: RunnableConfig = {"configurable": {
            "thread_id": read.thread_id, "checkpoint_ns": "",
            "checkpoint_id": read.checkpoint_id}}  # fmt: skip
        try:
            try:  # as the node that wrote the checkpoint: LangGraph names it from versions_seen
                new = rebuilt.update_state(config, values)
            except InvalidUpdateError:  # two nodes wrote it in one step: the first, as blamed
                new = rebuilt.update_state(config, values, as_node=_writer(store, read, model))
        except Exception as exc:  # noqa: BLE001 - LangGraph's refusal, said with the thread
            raise UnbrickError(
                UnbrickCode.WRITE_FAILED,
                f"thread {read.thread_id!r}: LangGraph's update_state refused the migrated "
                f"state ({type(exc).__name__}); {count(len(written), 'thread')} "
                f"{'was' if len(written) == 1 else 'were'} written before it.",
            ) from None
        new_id = str(new["configurable"]["checkpoint_id"])
        written.append(Written(read.thread_id, read.checkpoint_id, new_id))
    return written


def _without_pending_writes(saver: Any) -> None:
    """Make `update_state` skip LangGraph's look at the checkpoint's pending tasks.

    Given a checkpoint whose next tasks are pending (an interrupted thread, a task that
    raised), LangGraph's `update_state` first prepares those tasks, their inputs built
    from the stored, unmigrated state, only to reuse their ids: under the candidate that
    raises the very ValidationError the migration fixes. With the pending writes hidden
    it numbers the update's own task instead; the tasks due after the fork are prepared
    from the migrated state, as usual. Only this saver, used for these writes, is changed.
    """
    read = saver.get_tuple

    def get_tuple(config: RunnableConfig) -> Any:
        saved = read(config)
        return saved._replace(pending_writes=None) if saved is not None else None

    saver.get_tuple = get_tuple


def _without_channels(saver: Any, gone: set[str], record: str) -> None:
    """Make the checkpoints `saver` writes name no channel of a field the candidate lacks,
    and record in their metadata the last plan applied (`migration`, unless `record` is "").

    LangGraph copies the forked checkpoint's channel versions whole into the new one, so a
    field the plan dropped or renamed away keeps its version there. SqliteSaver stores the
    values in the checkpoint itself, only the candidate graph's channels; but PostgresSaver
    stores a list or an object as a blob and joins it back by that version: read from the
    store (by the playground, or by PostgresSaver itself) the fork would still hold the
    field, which a candidate that forbids extra keys rejects.
    """
    write = saver.put

    def put(config: RunnableConfig, checkpoint: Any, metadata: Any, versions: Any) -> Any:
        kept = {k: v for k, v in checkpoint["channel_versions"].items() if k not in gone}
        if record:
            metadata = {**metadata, RECORD_KEY: record}
        return write(config, {**checkpoint, "channel_versions": kept}, metadata, versions)

    saver.put = put


def migrated_read(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> Migrated | None:
    """`read`'s state through `plan`, checked under `candidate`, read as it was stored (JSON
    or decoded); None: too deep to be checked (the preview names it unreadable)."""
    try:
        return migrated(plan, read.state, candidate, json_mode=read.json_mode,
                        may_hold_refusals=read.may_hold_refusals,
                        stored_with=read.stored_with)  # fmt: skip
    except RowProblem:
        return None


def fork_fields(plan: Plan, read: StoredState, candidate: type[BaseModel]) -> dict[str, Any] | None:
    """The fields to write for this state (None: nothing to write): only when the plan
    leaves it different from the stored one and the candidate accepts the result; {} when
    only fields the candidate lacks went away."""
    result = migrated_read(plan, read, candidate)
    if result is None:
        return None
    if result.errors or not any(result.changed) or not isinstance(result.state, dict):
        return None
    fields = _changes(read.state, result.state)
    gone = set(read.state) - set(result.state) if isinstance(read.state, dict) else set()
    return fields if fields or gone else None


def _writer(store: AnyStore, read: StoredState, model: type[BaseModel]) -> str | None:
    """The node that wrote the thread's latest checkpoint (None: an input or an update)."""
    timeline = timeline_of(store, read.thread_id, model)
    node = timeline.checkpoints[-1].node if timeline and timeline.checkpoints else None
    return node.split(",")[0].strip() if node else None


def _write_server(
    store: RemoteStore, chain: Chain, records: Any, read: StoredState, candidate: type[BaseModel]
) -> Written | None:
    """Fork the thread's head as the plan migrates it; None when the head, read now (the
    thread list's values can lag a write by a moment), needs no change."""
    try:
        page: list[dict[str, Any]] = store.call(
            lambda: store.client.threads.get_history(read.thread_id, limit=2)
        )
    except ServerRefusal as refusal:
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"thread {read.thread_id!r}: the server refused its latest checkpoint "
            f"({refusal.status}: {refusal.message}); nothing was written to it.",
        ) from None
    if not page:
        return None
    head = StoredState(read.thread_id, str(page[0]["checkpoint"]["checkpoint_id"]), read.step,
                       read.source, page[0].get("values"), True, json_mode=True)  # fmt: skip
    fields = fork_fields(chain.plan(start_of(chain, records, head)), head, candidate)
    if fields is None:
        return None
    checkpoint_id = head.checkpoint_id
    node = blamed_node(page[1] if len(page) > 1 else None, [])  # who wrote the latest
    channels = entry_graph(candidate).channels  # the candidate's reducers, as LangGraph reads them
    values = {k: {OVERWRITE: jsonable(v)} if isinstance(channels.get(k), BinaryOperatorAggregate)
              else jsonable(v) for k, v in fields.items()}  # fmt: skip
    try:
        new: dict[str, Any] = store.call(
            lambda: store.client.threads.update_state(
                read.thread_id, values, as_node=node.split(",")[0].strip() if node else None,
                checkpoint={"thread_id": read.thread_id, "checkpoint_ns": "",
                            "checkpoint_id": checkpoint_id},
            )
        )  # fmt: skip
    except ServerRefusal as refusal:
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"thread {read.thread_id!r}: the server refused the migrated state "
            f"({refusal.status}: {refusal.message}).",
        ) from None
    return Written(read.thread_id, checkpoint_id, str(new["checkpoint"]["checkpoint_id"]))
