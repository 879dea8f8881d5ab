"""Apply a plan: each thread it fixes gets one new checkpoint, a fork of its latest one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.errors import InvalidUpdateError
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.migrate.chain import Chain
from core.migrate.fork_fields import Written, fork_fields, migrated_read
from core.migrate.graph import with_state
from core.migrate.plan import Plan
from core.migrate.server_fork import write_server_fork
from core.migrate.standing import RECORD_KEY, migration_records, start_of
from core.migrate.states import StoredState, stored_states
from core.order.graph import CompiledGraph
from core.stores.reader import AnyStore, open_any, timeline_of
from core.stores.serde import StrictSerializer
from core.stores.server import RemoteStore
from core.stores.store import Store
from core.stores.unbrick import UnbrickCode, UnbrickError, require_writes, writable_saver
from core.words import count

# Written, fork_fields and migrated_read live in core.migrate.fork_fields; named here too, where
# they were first.
__all__ = ["Written", "fork_fields", "migrated_read", "write_migration"]


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
            forks = (write_server_fork(server, chain, records, read, candidate)
                     for read, _ in chosen)  # fmt: skip
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
    heads = {read.thread_id: read.checkpoint_id for read, _ in chosen}
    _without_pending_writes(saver, heads)
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
        heads.pop(read.thread_id)  # its head is the fork now: asked again, the store answers
        new_id = str(new["configurable"]["checkpoint_id"])
        written.append(Written(read.thread_id, read.checkpoint_id, new_id))
    return written


def _without_pending_writes(saver: Any, heads: dict[str, str]) -> None:
    """Make `update_state` skip LangGraph's look at the checkpoint's pending tasks, and
    answer its look at the thread's latest checkpoint from the one it just read.

    Given a checkpoint whose next tasks are pending (an interrupted thread, a task that
    raised), LangGraph's `update_state` first prepares those tasks, their inputs built
    from the stored, unmigrated state, only to reuse their ids: under the candidate that
    raises the very ValidationError the migration fixes. With the pending writes hidden
    it numbers the update's own task instead; the tasks due after the fork are prepared
    from the migrated state, as usual. Only this saver, used for these writes, is changed.

    Before storing the update's writes LangGraph asks the saver for the thread's latest
    checkpoint, to learn whether the thread moved past the one forked. The fork is of the
    thread's latest as its state was read (`heads`), so the checkpoint just read by that id
    answers: the same row, without a second query and decode (a quarter of a fork's round
    trips on Postgres). A run that wrote to the thread between the read and the fork is the
    race a fork of the read head has anyway; once forked, the store answers again.
    """
    read = saver.get_tuple
    last: dict[str, Any] = {}  # the checkpoint read by id, for its thread

    def get_tuple(config: RunnableConfig) -> Any:
        asked = config["configurable"]
        thread, wanted = str(asked.get("thread_id")), asked.get("checkpoint_id")
        held = last.get(thread) if not wanted and not asked.get("checkpoint_ns") else None
        if held is not None and thread in heads and held.checkpoint["id"] == heads[thread]:
            return held
        saved = read(config)
        saved = saved._replace(pending_writes=None) if saved is not None else None
        if saved is not None and wanted:
            last.clear()
            last[thread] = saved
        return saved

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


def _writer(store: AnyStore, read: StoredState, model: type[BaseModel]) -> str | None:
    """The node that wrote the thread's latest checkpoint (None: an input or an update)."""
    timeline = timeline_of(store, read.thread_id, model)
    node = timeline.checkpoints[-1].node if timeline and timeline.checkpoints else None
    return node.split(",")[0].strip() if node else None
