"""The one door to LangGraph's internals: every private import, attribute and string here.

LangGraph documents no public API for some things the playground needs (which node wrote
a checkpoint, the allow-list `compile()` builds, a node's own function...). Each such use
is named below once, with what it is for and which public API is missing; every other
module imports it from here, and `lint-imports` forbids LangGraph's private modules
anywhere else. `tests/core/test_lg_compat.py` checks each item against the installed
LangGraph, so an upgrade that moves one fails there, naming it, not deep in a page.

The strings are written out, not imported: they are also what stores written by earlier
LangGraph versions hold, and the contract test says when LangGraph's own ones differ.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Hashable, Set
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast, overload

if TYPE_CHECKING:  # each import below is made where it is used: importing this module is
    # free (langgraph.graph costs half a second, and `audit --model` never builds a graph)
    from langgraph.channels.base import BaseChannel
    from langgraph.graph import StateGraph
    from langgraph.graph.state import CompiledStateGraph

__all__ = [
    "BRANCH_TO",
    "ERROR",
    "INTERRUPT",
    "MESSAGE_IDS_UUID",
    "MSGPACK_EXT_HOLDS_VALUES",
    "MSGPACK_EXT_NAMES_MODULE",
    "NODE_FIELDS_NOT_IN_OPTIONS",
    "PULL_TASK_PREFIX",
    "SAVER_TABLES",
    "SEND_TASK_PATH",
    "TASKS",
    "TASK_PATH",
    "Branch",
    "Node",
    "SaverTables",
    "accepted_keywords",
    "branches_of",
    "build_serde_allowlist",
    "builder_of",
    "channels_of",
    "context_schema",
    "edges_of",
    "input_schema",
    "mark_sqlite_set_up",
    "msgpack_allowlist",
    "msgpack_encode",
    "msgpack_ext_hook",
    "node_input",
    "node_of_path",
    "node_runnable",
    "nodes_of",
    "only_async",
    "output_schema",
    "recompile",
    "schema_keys",
    "send_index",
    "state_schema",
    "stream_channels",
    "waiting_edges_of",
]


# --- Private imports -----------------------------------------------------------------------
def build_serde_allowlist(
    *, schemas: list[Any] | None = None, channels: dict[str, Any] | None = None
) -> set[tuple[str, ...]]:
    """`langgraph._internal._serde.build_serde_allowlist`: the msgpack allow-list LangGraph's
    own `compile()` builds under LANGGRAPH_STRICT_MSGPACK (LangChain's types, then every
    type a schema or a channel names).

    Used for the strict serializers of runs and stores (core.validate.run_saver,
    core.stores.serde) and for the module names a server renamed (core.stores.aliases).
    Missing public API: no public function collects that list.

    Example:
        >>> ("langchain_core.messages.human", "HumanMessage") in build_serde_allowlist()
        True
    """
    from langgraph._internal._serde import build_serde_allowlist as langgraphs

    return langgraphs(schemas=schemas, channels=channels)


# `RunnableCallable` (langgraph._internal._runnable): the object a node's or branch's plain
# function becomes; `only_async` and `accepted_keywords` read it. Missing public API: no
# public way to ask whether a node has a sync function, nor which injected keywords
# (config, runtime, store...) its function takes.


# --- Internal strings ----------------------------------------------------------------------
# TASKS (langgraph._internal._constants.TASKS): the channel holding a step's pending `Send`
# packets, read from stored checkpoints to name the node a pushed task ran
# (core.stores.writers). Missing public API: stores are read as raw rows, and
# `langgraph.constants.TASKS` only re-exports it with a deprecation warning.
TASKS = "__pregel_tasks"
# The task path a pulled node's own task stores (`task_path_str((PULL, node))`, PULL is
# langgraph._internal._constants.PULL; task_path_str is in langgraph.pregel._algo): names
# the node that wrote each stored write (`node_of_path`, for core.stores.writers). Missing
# public API: the `task_path` column of the writes table is documented nowhere, nor how to
# parse it.
PULL_TASK_PREFIX = "~__pregel_pull, "
# A `Send`'s task path, `task_path_str((PUSH, index, False))` (PUSH is
# langgraph._internal._constants.PUSH): index is the packet's place in the `TASKS`
# channel of the checkpoint the task ran from (LangGraph's prepare_push_task_send;
# `send_index` reads it).
SEND_TASK_PATH = re.compile(r"~__pregel_push, (\d{10}), \d{10}")
# INTERRUPT (langgraph._internal._constants.INTERRUPT): the key under which `invoke` and
# the "updates" stream hand back interrupts, and the channel of a stored interrupt write
# (core.trace.invoke, core.stores.timeline). Missing public API: only documented by
# example; no public constant.
INTERRUPT = "__interrupt__"
# ERROR (langgraph._internal._constants.ERROR): the channel of the write LangGraph stores
# for a task that raised (core.stores.threads finds raised threads with SQL). Missing public
# API: no public constant; the saver has no query for "threads whose last step raised".
ERROR = "__error__"
# The trigger channel of each node, "branch:to:<node>" (langgraph.graph.state's private
# `_CHANNEL_BRANCH_TO`): a checkpoint's due nodes are those whose trigger is newer than
# they saw (core.stores.threads). Missing public API: `StateSnapshot.next` needs the graph;
# a store read without it has only the channels.
BRANCH_TO = "branch:to:"

# msgpack extension codes of LangGraph's serializer (langgraph.checkpoint.serde.jsonplus,
# EXT_CONSTRUCTOR_SINGLE_ARG .. EXT_PYDANTIC_V2 = 0..5 hold a tuple whose first item is a
# module name; EXT_DELTA_SNAPSHOT = 7 holds other values). core.stores.aliases rewrites the
# module names a LangGraph server stored. Missing public API: the wire format is not
# documented; the constants are module globals without a stability promise.
MSGPACK_EXT_NAMES_MODULE = frozenset({0, 1, 2, 3, 4, 5})
MSGPACK_EXT_HOLDS_VALUES = frozenset({7})

# The module attribute `add_messages` takes each new message id from (`uuid.uuid4()` in
# langgraph.graph.message), patched so the demo store's ids are numbered and byte-stable
# (core.stores.demo). Missing public API: add_messages takes no id factory.
MESSAGE_IDS_UUID = "langgraph.graph.message.uuid"


def node_of_path(task_path: str) -> str | None:
    """The node a stored task path names: a pulled node's task is `~__pregel_pull, <node>`
    (`PULL_TASK_PREFIX`).

    Pushed tasks (`Send`: their node is their packet's, `send_index`) and writes made
    outside a task (`update_state`) name no node here.

    Example:
        >>> node_of_path("~__pregel_pull, validate_order"), node_of_path("")
        ('validate_order', None)
    """
    name = task_path.removeprefix(PULL_TASK_PREFIX)
    return name if name != task_path and "," not in name else None


def send_index(task_path: str) -> int | None:
    """The index of a `Send` task's packet in the `TASKS` channel of the checkpoint it ran
    from (`SEND_TASK_PATH`), else None.

    Example:
        >>> send_index("~__pregel_push, 0000000002, 0000000000"), send_index("~__pregel_pull, a")
        (2, None)
    """
    found = SEND_TASK_PATH.fullmatch(task_path)
    return int(found.group(1)) if found else None


# --- The savers' tables ----------------------------------------------------------------------
# SqliteSaver and PostgresSaver keep checkpoints in tables they create in `setup()`
# (langgraph.checkpoint.sqlite's SqliteSaver.setup, langgraph.checkpoint.postgres's
# MIGRATIONS). core.stores reads them with its own SQL: one streamed query for many threads
# (the savers read one thread at a time), values over a size limit left unread, thread ids
# paged and sharded in the database, the raised threads found. Missing public API: the
# savers offer no such reads, and their table layouts are documented nowhere.


@dataclass(frozen=True)
class SaverTables:
    """The tables one saver keeps (checkpoints; each task's writes; PostgresSaver's channel
    values by version) and, for each, the columns core.stores' own SQL reads: that SQL
    takes the table names from here and reads no other column (tests/core/stores/
    test_saver_tables.py)."""

    checkpoints: str
    writes: str
    blobs: str | None
    columns: dict[str, tuple[str, ...]]

    @property
    def names(self) -> tuple[str, ...]:
        """The saver's tables: those a store must hold to be one of its stores."""
        return tuple(self.columns)


# The writes' column a store written before LangGraph kept task paths lacks (SqliteSaver's
# setup() and PostgresSaver's last migration add it); without it no stored write names a node.
TASK_PATH = "task_path"
_KEYS = ("thread_id", "checkpoint_ns", "checkpoint_id")
SAVER_TABLES = {
    "sqlite": SaverTables("checkpoints", "writes", None, {
        "checkpoints": (*_KEYS, "parent_checkpoint_id", "type", "checkpoint", "metadata"),
        "writes": (*_KEYS, "task_id", TASK_PATH, "idx", "channel", "type", "value"),
    }),
    "postgres": SaverTables("checkpoints", "checkpoint_writes", "checkpoint_blobs", {
        "checkpoints": (*_KEYS, "parent_checkpoint_id", "checkpoint", "metadata"),
        "checkpoint_blobs": ("thread_id", "checkpoint_ns", "channel", "version", "type", "blob"),
        "checkpoint_writes": (*_KEYS, "task_id", TASK_PATH, "idx", "channel", "type", "blob"),
    }),
}  # fmt: skip


# --- Private attributes --------------------------------------------------------------------
def msgpack_ext_hook(serde: Any) -> Callable[[int, bytes], Any] | None:
    """`JsonPlusSerializer._unpack_ext_hook`: the allow-listed msgpack ext hook `loads_typed`
    hands to ormsgpack; None when this LangGraph has no such attribute.

    core.stores.serde calls it on each outermost extension value, so a refusal is tied to
    the value that held it without packing the value again. Missing public API: the
    serializer decodes only whole payloads.
    """
    hook = getattr(serde, "_unpack_ext_hook", None)
    return hook if callable(hook) else None


def msgpack_encode(value: Any) -> bytes:
    """`langgraph.checkpoint.serde.jsonplus._msgpack_enc`: the bytes LangGraph's serializer
    stores for `value` (its extension types for messages, models, enums...), with any
    `ormsgpack.Ext` in `value` written as it is: how the tests craft a stored value by hand.
    Missing public API: `dumps_typed` gives the same bytes for a container, but its type tag
    first and no way to hand it a raw extension value.

    Example:
        >>> from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
        >>> msgpack_encode({"a": [1]}) == JsonPlusSerializer().dumps_typed({"a": [1]})[1]
        True
    """
    from langgraph.checkpoint.serde.jsonplus import _msgpack_enc

    encoded: bytes = _msgpack_enc(value)
    return encoded


def msgpack_allowlist(serde: Any) -> Any:
    """`JsonPlusSerializer._allowed_msgpack_modules`: the allow-list a serializer was built
    with (read in doctests and tests). Missing public API: the serializer does not expose
    the list it was given."""
    return serde._allowed_msgpack_modules


def mark_sqlite_set_up(saver: Any, has_task_path: bool) -> None:
    """Tell a `SqliteSaver` on an existing store that its tables are there, without `setup()`.

    `setup()` writes (WAL pragma, CREATE TABLE, ALTER TABLE adding `task_path`) and stores
    are opened read-only (core.stores.open); `_has_task_path` is how the saver then knows
    whether its writes table has the `task_path` column. Missing public API: no read-only
    mode, no way to give the saver the columns it would find.
    """
    saver.is_setup = True
    saver._has_task_path = has_task_path


def only_async(runnable: Any) -> bool:
    """Whether `runnable` is a node or branch function that has only an async function
    (`RunnableCallable.func` is None): `invoke` fails on it ("No synchronous function
    provided"), so the run goes through `astream` (core.trace.invoke)."""
    from langgraph._internal._runnable import RunnableCallable

    return isinstance(runnable, RunnableCallable) and runnable.func is None


def accepted_keywords(runnable: Any) -> set[str]:
    """The keywords LangGraph injects into a node's function that it takes
    (`RunnableCallable.func_accepts`: "config", "runtime", "store", "writer"...);
    empty for other runnables. core.project.checks warns when a node reads config."""
    return set(getattr(runnable, "func_accepts", None) or {})


# --- graph.builder: the StateGraph a compiled graph was built from -------------------------
# `CompiledStateGraph.builder` and the builder's `nodes`, `edges`, `waiting_edges`,
# `branches`, `channels`, `schemas` and `*_schema` attributes, with the fields of its
# node specs (langgraph.graph._node.StateNodeSpec) and branches
# (langgraph.graph._branch.BranchSpec). Used to rebuild a graph over another state
# (core.migrate.graph), to list the schemas `compile()` collects (core.validate.run_saver),
# to find async-only nodes and nodes reading config (core.trace.invoke,
# core.project.checks), to read the graph's declared schemas, and to compile it again
# with another checkpointer (core.stores). Missing public API: `get_graph()` draws nodes
# and edges but not the functions, branches' paths, node options or schemas; the compiled
# graph's own `get_input_schema()` builds a new model instead of returning the declared one.


@dataclass(frozen=True)
class Node:
    """One node of a builder: its name, its runnable (the function as LangGraph wrapped it),
    its input schema and the `add_node` keywords that add it again (input schema aside)."""

    name: str
    runnable: Any
    input_schema: Any
    options: dict[str, Any]


@dataclass(frozen=True)
class Branch:
    """One conditional edge of a builder: where it starts, its path function, its ends."""

    source: str
    path: Any
    ends: dict[Hashable, str] | None
    input_schema: Any


# StateNodeSpec fields `Node.options` does not carry: the input schema has its own place;
# the others are not re-added by core.migrate.graph (see tests/core/test_lg_compat.py).
NODE_FIELDS_NOT_IN_OPTIONS = frozenset(
    {"runnable", "input_schema", "is_error_handler", "error_handler_node", "timeout",
     "trace_policy"}
)  # fmt: skip


@overload
def builder_of(graph: CompiledStateGraph[Any, Any, Any, Any]) -> StateGraph[Any, Any, Any, Any]: ...
@overload
def builder_of(graph: object) -> StateGraph[Any, Any, Any, Any] | None: ...
def builder_of(graph: object) -> StateGraph[Any, Any, Any, Any] | None:
    """`graph.builder` when `graph` was compiled from a `StateGraph`, else None (a Pregel
    graph or a functional-API entrypoint declares no schemas)."""
    builder = getattr(graph, "builder", None)
    if builder is None:
        return None
    from langgraph.graph import StateGraph  # loaded already: the graph was built with it

    return builder if isinstance(builder, StateGraph) else None


def state_schema(builder: StateGraph[Any, Any, Any, Any]) -> type[Any]:
    """`builder.state_schema`."""
    return builder.state_schema


def input_schema(builder: StateGraph[Any, Any, Any, Any]) -> type[Any]:
    """`builder.input_schema`: the state schema unless the graph declared its own."""
    return builder.input_schema


def output_schema(builder: StateGraph[Any, Any, Any, Any]) -> type[Any]:
    """`builder.output_schema`: the state schema unless the graph declared its own."""
    return builder.output_schema


def context_schema(builder: StateGraph[Any, Any, Any, Any]) -> type[Any] | None:
    """`builder.context_schema`: None unless the graph declared one."""
    return builder.context_schema


def nodes_of(builder: StateGraph[Any, Any, Any, Any] | None) -> list[Node]:
    """`builder.nodes`, in the order they were added."""
    if builder is None:
        return []
    return [
        Node(
            name,
            spec.runnable,
            spec.input_schema,
            {
                "metadata": spec.metadata,
                "retry_policy": spec.retry_policy,
                "cache_policy": spec.cache_policy,
                "defer": spec.defer,
                "destinations": spec.ends or None,
            },
        )
        for name, spec in builder.nodes.items()
    ]


def edges_of(builder: StateGraph[Any, Any, Any, Any] | None) -> Set[tuple[str, str]]:
    """`builder.edges`: (start, end) of each plain edge."""
    return set() if builder is None else builder.edges


def waiting_edges_of(
    builder: StateGraph[Any, Any, Any, Any] | None,
) -> Set[tuple[tuple[str, ...], str]]:
    """`builder.waiting_edges`: (starts, end) of each edge that waits for several nodes."""
    return set() if builder is None else builder.waiting_edges


def branches_of(builder: StateGraph[Any, Any, Any, Any] | None) -> list[Branch]:
    """`builder.branches`: each conditional edge, by source then in the order added."""
    if builder is None:
        return []
    return [
        Branch(source, branch.path, branch.ends, branch.input_schema)
        for source, branches in builder.branches.items()
        for branch in branches.values()
    ]


def channels_of(
    builder: StateGraph[Any, Any, Any, Any] | None,
) -> dict[str, BaseChannel[Any, Any, Any]]:
    """`builder.channels`: the state's channels (what `build_serde_allowlist` reads)."""
    return {} if builder is None else builder.channels


def schema_keys(builder: StateGraph[Any, Any, Any, Any] | None, schema: Any) -> Collection[str]:
    """`builder.schemas[schema]`: the keys LangGraph reads from an input of that schema
    (empty for a schema it does not know)."""
    return {}.keys() if builder is None else builder.schemas.get(schema, {}).keys()


def recompile(
    graph: Any, checkpointer: Any, **options: Any
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """`graph.builder.compile(checkpointer=..., **options)`: the graph again, over one of our
    savers (a store's, to read or fork a thread: core.stores.timeline, core.stores.unbrick;
    the demo store's: core.stores.demo); only the compile options given here are kept."""
    compiled = graph.builder.compile(checkpointer=checkpointer, **options)
    return cast("CompiledStateGraph[Any, Any, Any, Any]", compiled)


# --- the compiled graph's own nodes (langgraph.pregel._read.PregelNode) ------------------------
# `Pregel.nodes` maps each name to a PregelNode, a class of a private module that
# langgraph.pregel does not export; `bound`, `channels` and `mapper` are its attributes.
# `Pregel.stream_channels_list` is an undocumented property. Missing public API: no public
# view of what a compiled node runs or reads, nor of the channels `invoke` returns.


def stream_channels(graph: Any) -> list[str]:
    """`graph.stream_channels_list`: the state's channels, as the "values" stream shows
    them (core.trace.reducers, core.trace.steps)."""
    return list(graph.stream_channels_list)


def node_runnable(node: Any) -> Any:
    """`PregelNode.bound`: the runnable a compiled node runs (core.trace.invoke)."""
    return node.bound


def node_input(node: Any, values: dict[str, Any]) -> Any:
    """What a compiled node is handed from the channel `values`: the channels it reads
    (`PregelNode.channels`, a name or a list), through its input mapper
    (`PregelNode.mapper`: the node's input schema, when it has one); core.validate.entry_run
    shows it as what LangGraph hands the first node."""
    channels = node.channels if isinstance(node.channels, list) else [node.channels]
    given = {name: value for name, value in values.items() if name in channels}
    return node.mapper(given) if node.mapper is not None else given
