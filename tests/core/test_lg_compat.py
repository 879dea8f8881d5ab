"""The contract of core/lg_compat.py with the installed LangGraph: one test per internal.

Each item is checked against LangGraph itself (its own constants, functions and objects, or
a real run), so an upgrade that renames, moves or changes one fails here with a message
naming the item, before a page or the CLI misreads a store.
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import os
import sqlite3
import tomllib
from pathlib import Path
from typing import Annotated, Any
from unittest import mock

import langgraph
import ormsgpack
import pytest
from langchain_core.messages import HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde import jsonplus
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.types import RetryPolicy, Send, interrupt
from pydantic import BaseModel

from core import lg_compat

ROOT = Path(__file__).resolve().parents[2]


def broken(item: str, what: str) -> str:
    """The failure message: which lg_compat item, what changed in LangGraph."""
    return f"core.lg_compat.{item}: {what} (see its comment there for what it is used for)"


# --- a graph with every kind of wiring lg_compat reads --------------------------------------
class State(BaseModel):
    items: Annotated[list[str], operator.add] = []


class Entry(BaseModel):
    items: list[str] = []


def _sync(state: State, config: RunnableConfig) -> dict[str, Any]:
    return {"items": ["sync"]}


async def _async_only(state: State) -> dict[str, Any]:
    return {"items": ["async"]}


def _route(state: State) -> str:
    return "b"


def _builder() -> StateGraph[Any, Any, Any, Any]:
    builder = StateGraph(State, input_schema=Entry)
    builder.add_node("a", _sync, metadata={"m": 1}, retry_policy=RetryPolicy(max_attempts=2))
    builder.add_node("b", _async_only, defer=True)
    builder.add_node("c", _sync)
    builder.add_edge(START, "a")
    builder.add_conditional_edges("a", _route, {"b": "b"})
    builder.add_edge("a", "c")
    builder.add_edge(["b", "c"], END)
    return builder


# --- private imports --------------------------------------------------------------------------
def test_build_serde_allowlist_is_langgraphs_with_the_same_keywords():
    from langgraph._internal import _serde

    theirs = getattr(_serde, "build_serde_allowlist", None)
    assert theirs is not None, broken(
        "build_serde_allowlist", "langgraph._internal._serde.build_serde_allowlist is gone"
    )
    params = inspect.signature(theirs).parameters
    for name in ("schemas", "channels"):
        assert name in params and params[name].kind is inspect.Parameter.KEYWORD_ONLY, broken(
            "build_serde_allowlist", f"LangGraph's signature changed: {inspect.signature(theirs)}"
        )
    builder = _builder()
    ours = lg_compat.build_serde_allowlist(schemas=[State], channels=builder.channels)
    assert ours == theirs(schemas=[State], channels=builder.channels), broken(
        "build_serde_allowlist", "the wrapper no longer gives LangGraph's list"
    )
    assert (__name__, "State") in ours, broken(
        "build_serde_allowlist", "a schema's own type is no longer on the list"
    )


def test_runnable_callable_tells_async_only_nodes_and_injected_keywords():
    from langgraph._internal import _runnable

    assert hasattr(_runnable, "RunnableCallable"), broken(
        "only_async", "langgraph._internal._runnable.RunnableCallable is gone"
    )
    nodes = {node.name: node.runnable for node in lg_compat.nodes_of(_builder())}
    for name, runnable in nodes.items():
        assert isinstance(runnable, _runnable.RunnableCallable), broken(
            "only_async", f"node {name!r} is no longer wrapped in a RunnableCallable"
        )
        for attribute in ("func", "afunc", "func_accepts"):
            assert hasattr(runnable, attribute), broken(
                "only_async/accepted_keywords", f"RunnableCallable has no {attribute!r}"
            )
    assert (lg_compat.only_async(nodes["a"]), lg_compat.only_async(nodes["b"])) == (
        False,
        True,
    ), broken("only_async", "an async-only node's RunnableCallable.func is not None")
    assert "config" in lg_compat.accepted_keywords(nodes["a"]), broken(
        "accepted_keywords", "func_accepts no longer names the config a node takes"
    )
    assert "config" not in lg_compat.accepted_keywords(nodes["b"]), broken(
        "accepted_keywords", "func_accepts names config for a node without it"
    )


# --- private attributes -----------------------------------------------------------------------
class Item(BaseModel):
    name: str


def test_jsonplus_private_attributes_hold_the_allow_list_and_the_ext_hook():
    allowed = {(__name__, "Item")}
    serde = JsonPlusSerializer(pickle_fallback=False, allowed_msgpack_modules=allowed)
    assert hasattr(serde, "_allowed_msgpack_modules"), broken(
        "msgpack_allowlist", "JsonPlusSerializer._allowed_msgpack_modules is gone"
    )
    assert (__name__, "Item") in lg_compat.msgpack_allowlist(serde), broken(
        "msgpack_allowlist", "_allowed_msgpack_modules no longer holds the list given"
    )
    hook = lg_compat.msgpack_ext_hook(serde)
    assert hook is not None, broken(
        "msgpack_ext_hook", "JsonPlusSerializer._unpack_ext_hook is gone (a slower fallback runs)"
    )
    type_, payload = serde.dumps_typed(Item(name="x"))
    assert type_ == "msgpack"
    decoded = ormsgpack.unpackb(payload, ext_hook=hook, option=ormsgpack.OPT_NON_STR_KEYS)
    assert decoded == Item(name="x"), broken(
        "msgpack_ext_hook", "_unpack_ext_hook no longer decodes LangGraph's own ext values"
    )


def _store_with_writes(path: Path) -> RunnableConfig:
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    graph = _send_graph().compile(checkpointer=saver)
    config: RunnableConfig = {"configurable": {"thread_id": "t"}}
    with pytest.raises(RuntimeError):
        graph.invoke({"items": []}, config)
    saver.conn.close()
    return config


def test_sqlite_saver_has_task_path_is_what_it_reads_by(tmp_path):
    assert hasattr(SqliteSaver, "_has_task_path"), broken(
        "mark_sqlite_set_up", "SqliteSaver._has_task_path is gone"
    )
    path = tmp_path / "store.sqlite"
    config = _store_with_writes(path)
    with sqlite3.connect(path) as conn:
        conn.execute("ALTER TABLE writes DROP COLUMN task_path")  # a store from before it
    conn.close()
    readonly = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    saver = SqliteSaver(readonly)
    lg_compat.mark_sqlite_set_up(saver, has_task_path=False)
    saved = saver.get_tuple(config)  # setup() would write: the store is read-only
    assert saved is not None and saved.pending_writes, broken(
        "mark_sqlite_set_up", "a saver told it is set up, without task_path, cannot read writes"
    )
    lg_compat.mark_sqlite_set_up(saver, has_task_path=True)
    with pytest.raises(sqlite3.OperationalError, match="task_path"):
        saver.get_tuple(config)  # the flag is what chooses the column: still honoured
    readonly.close()


# --- internal strings -------------------------------------------------------------------------
def test_internal_strings_are_langgraphs_own():
    from langgraph._internal import _constants
    from langgraph.graph import state
    from langgraph.pregel._algo import task_path_str

    assert lg_compat.TASKS == _constants.TASKS, broken("TASKS", f"now {_constants.TASKS!r}")
    assert lg_compat.INTERRUPT == _constants.INTERRUPT, broken(
        "INTERRUPT", f"now {_constants.INTERRUPT!r}"
    )
    assert lg_compat.ERROR == _constants.ERROR, broken("ERROR", f"now {_constants.ERROR!r}")
    pulled = task_path_str((_constants.PULL, "node"))
    assert pulled == f"{lg_compat.PULL_TASK_PREFIX}node", broken(
        "PULL_TASK_PREFIX", f"a pulled task's path is now {pulled!r}"
    )
    pushed = task_path_str((_constants.PUSH, 2, False))
    found = lg_compat.SEND_TASK_PATH.fullmatch(pushed)
    assert found is not None and int(found.group(1)) == 2, broken(
        "SEND_TASK_PATH", f"a Send's task path is now {pushed!r}"
    )
    branch_to = getattr(state, "_CHANNEL_BRANCH_TO", None)
    assert branch_to is not None and branch_to.format("node") == f"{lg_compat.BRANCH_TO}node", (
        broken("BRANCH_TO", f"langgraph.graph.state._CHANNEL_BRANCH_TO is {branch_to!r}")
    )


def _send_graph() -> StateGraph[Any, Any, Any, Any]:
    def fan(state: State) -> list[Send]:
        return [Send("worker", state), Send("worker", state)]

    def fail(state: State) -> dict[str, Any]:
        raise RuntimeError("boom")

    builder = StateGraph(State)
    builder.add_node("start", lambda state: {"items": ["s"]})
    builder.add_node("worker", lambda state: {"items": ["w"]})
    builder.add_node("fail", fail)
    builder.add_edge(START, "start")
    builder.add_conditional_edges("start", fan, ["worker"])
    builder.add_edge("worker", "fail")
    return builder


def test_a_real_run_stores_the_strings_lg_compat_reads(tmp_path):
    path = tmp_path / "store.sqlite"
    _store_with_writes(path)
    with sqlite3.connect(path) as conn:
        writes = conn.execute("SELECT task_path, channel FROM writes").fetchall()
    conn.close()
    paths = {task_path for task_path, _ in writes}
    assert f"{lg_compat.PULL_TASK_PREFIX}start" in paths, broken(
        "PULL_TASK_PREFIX", f"no stored write has the pulled task path; stored: {sorted(paths)}"
    )
    sends = sorted(int(m.group(1)) for p in paths if (m := lg_compat.SEND_TASK_PATH.fullmatch(p)))
    assert sends == [0, 1], broken(
        "SEND_TASK_PATH", f"the two Sends' task paths are not matched; stored: {sorted(paths)}"
    )
    channels = {channel for _, channel in writes}
    assert lg_compat.ERROR in channels, broken("ERROR", f"a raise stored no such write: {channels}")
    assert f"{lg_compat.BRANCH_TO}worker" not in channels  # a Send triggers through TASKS
    assert lg_compat.TASKS in channels, broken(
        "TASKS", f"the Sends were not written to that channel: {channels}"
    )
    compiled = _send_graph().compile()
    assert f"{lg_compat.BRANCH_TO}fail" in compiled.channels, broken(
        "BRANCH_TO", f"a node's trigger channel is no longer so named: {sorted(compiled.channels)}"
    )


def test_stored_task_paths_name_the_tasks_langgraph_ran(tmp_path):
    from langgraph._internal._constants import PULL, PUSH

    path = tmp_path / "store.sqlite"
    config = _store_with_writes(path)
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    graph = _send_graph().compile(checkpointer=saver)
    ran = {(snapshot.config["configurable"]["checkpoint_id"], task.id): task
           for snapshot in graph.get_state_history(config) for task in snapshot.tasks}  # fmt: skip
    rows = saver.conn.execute("SELECT checkpoint_id, task_id, task_path FROM writes").fetchall()
    saver.conn.close()
    read, theirs = [], []
    for checkpoint_id, task_id, task_path in rows:
        task = ran[(checkpoint_id, task_id)]
        read.append((task_path, lg_compat.node_of_path(task_path), lg_compat.send_index(task_path)))
        theirs.append((task_path, task.name if task.path[0] == PULL else None,
                       task.path[1] if task.path[0] == PUSH else None))  # fmt: skip
    assert read == theirs, broken(
        "node_of_path/send_index", f"stored task paths are read otherwise than LangGraph ran "
        f"them: {sorted(set(read) ^ set(theirs))}"
    )  # fmt: skip
    assert sorted(set(read)) == [
        ("~__pregel_pull, __start__", "__start__", None),
        ("~__pregel_pull, fail", "fail", None),
        ("~__pregel_pull, start", "start", None),
        ("~__pregel_push, 0000000000, 0000000000", None, 0),
        ("~__pregel_push, 0000000001, 0000000000", None, 1),
    ]


@pytest.fixture(scope="module")
def postgres_dsn():
    """A database on a throwaway PostgreSQL 15 cluster (for PostgresSaver's own tables)."""
    from bench._postgres import throwaway_postgres

    with throwaway_postgres() as cluster:
        yield cluster.create_database("lg_compat")


def _sqlite_tables(path: Path) -> dict[str, set[str]]:
    """The tables, with their columns, SqliteSaver.setup() creates."""
    saver = SqliteSaver(sqlite3.connect(path, check_same_thread=False))
    saver.setup()
    names = [
        n for (n,) in saver.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    ]
    tables = {n: {row[1] for row in saver.conn.execute(f"PRAGMA table_info({n})")} for n in names}
    saver.conn.close()
    return tables


def _postgres_tables(dsn: str) -> dict[str, set[str]]:
    """The tables, with their columns, PostgresSaver.setup() creates."""
    import psycopg
    from langgraph.checkpoint.postgres import PostgresSaver

    with PostgresSaver.from_conn_string(dsn) as saver:
        saver.setup()
    with psycopg.connect(dsn) as conn:
        rows = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public'"
        ).fetchall()
    tables: dict[str, set[str]] = {}
    for table, column in rows:
        tables.setdefault(table, set()).add(column)
    return tables


def test_saver_tables_are_the_tables_and_columns_langgraphs_savers_create(tmp_path, postgres_dsn):
    created = {"sqlite": _sqlite_tables(tmp_path / "setup.sqlite"),
               "postgres": _postgres_tables(postgres_dsn)}  # fmt: skip
    for kind, tables in lg_compat.SAVER_TABLES.items():
        real = created[kind]
        # PostgresSaver's own record of its migrations holds no checkpoint
        assert set(real) - {"checkpoint_migrations"} == set(tables.names), broken(
            "SAVER_TABLES", f"{kind}: the saver now creates the tables {sorted(real)}"
        )
        unknown = {name: sorted(set(columns) - real[name])
                   for name, columns in tables.columns.items() if set(columns) - real[name]}  # fmt: skip
        assert unknown == {}, broken(
            "SAVER_TABLES", f"{kind}: the saver's tables no longer have the columns {unknown}"
        )
        roles = {tables.checkpoints, tables.writes, tables.blobs} - {None}
        assert roles == set(tables.names), broken("SAVER_TABLES", f"{kind}: roles {roles}")
        assert lg_compat.TASK_PATH in real[tables.writes], broken(
            "TASK_PATH",
            f"{kind}: {tables.writes} has no such column: {sorted(real[tables.writes])}",
        )


def test_invoke_hands_interrupts_back_under_interrupt():
    from langgraph.checkpoint.memory import InMemorySaver

    builder = StateGraph(State)
    builder.add_node("ask", lambda state: {"items": [interrupt("why?")]})
    builder.add_edge(START, "ask")
    graph = builder.compile(checkpointer=InMemorySaver())
    out = graph.invoke({"items": []}, {"configurable": {"thread_id": "t"}})
    assert lg_compat.INTERRUPT in out, broken("INTERRUPT", f"invoke returned keys {sorted(out)}")


def test_msgpack_extension_codes_are_jsonpluss():
    names_a_module = {
        getattr(jsonplus, name, None)
        for name in (
            "EXT_CONSTRUCTOR_SINGLE_ARG",
            "EXT_CONSTRUCTOR_POS_ARGS",
            "EXT_CONSTRUCTOR_KW_ARGS",
            "EXT_METHOD_SINGLE_ARG",
            "EXT_PYDANTIC_V1",
            "EXT_PYDANTIC_V2",
        )
    }
    assert names_a_module == lg_compat.MSGPACK_EXT_NAMES_MODULE, broken(
        "MSGPACK_EXT_NAMES_MODULE", f"jsonplus's EXT_* codes are now {names_a_module}"
    )
    holds = {getattr(jsonplus, "EXT_DELTA_SNAPSHOT", None)}
    assert holds == lg_compat.MSGPACK_EXT_HOLDS_VALUES, broken(
        "MSGPACK_EXT_HOLDS_VALUES", f"jsonplus.EXT_DELTA_SNAPSHOT is now {holds}"
    )
    codes = {v for k, v in vars(jsonplus).items() if k.startswith("EXT_") and isinstance(v, int)}
    known = lg_compat.MSGPACK_EXT_NAMES_MODULE | lg_compat.MSGPACK_EXT_HOLDS_VALUES | {6}
    assert codes <= known, broken(  # 6: numpy arrays, which name no module
        "MSGPACK_EXT_NAMES_MODULE", f"jsonplus has new extension codes: {sorted(codes - known)}"
    )


def test_add_messages_takes_ids_from_the_patched_name():
    ids = mock.Mock()
    ids.uuid4.return_value = "patched-1"
    with mock.patch(lg_compat.MESSAGE_IDS_UUID, ids):  # raises if the name is gone
        merged = add_messages([], [HumanMessage("hi")])
    assert [m.id for m in merged] == ["patched-1"], broken(
        "MESSAGE_IDS_UUID", "add_messages no longer calls that module's uuid4()"
    )


# --- graph.builder --------------------------------------------------------------------------
def test_builder_attributes_are_what_the_graph_was_built_with():
    graph = _builder().compile()
    builder = lg_compat.builder_of(graph)
    assert isinstance(builder, StateGraph), broken("builder_of", "graph.builder is gone")
    for name in (
        "nodes",
        "edges",
        "waiting_edges",
        "branches",
        "channels",
        "schemas",
        "state_schema",
        "input_schema",
        "output_schema",
        "context_schema",
    ):
        assert hasattr(builder, name), broken(name, f"StateGraph has no {name!r} attribute")
    schemas = (
        lg_compat.state_schema(builder),
        lg_compat.input_schema(builder),
        lg_compat.output_schema(builder),
        lg_compat.context_schema(builder),
    )
    assert schemas == (State, Entry, State, None), broken("*_schema", f"read {schemas}")
    assert [n.name for n in lg_compat.nodes_of(builder)] == ["a", "b", "c"], broken(
        "nodes_of", "builder.nodes changed"
    )
    assert set(lg_compat.edges_of(builder)) == {(START, "a"), ("a", "c")}, broken(
        "edges_of", f"builder.edges is {lg_compat.edges_of(builder)}"
    )
    assert set(lg_compat.waiting_edges_of(builder)) == {(("b", "c"), END)}, broken(
        "waiting_edges_of", f"builder.waiting_edges is {lg_compat.waiting_edges_of(builder)}"
    )
    [branch] = lg_compat.branches_of(builder)
    assert (branch.source, branch.ends) == ("a", {"b": "b"}), broken("branches_of", f"{branch}")
    assert "items" in lg_compat.channels_of(builder), broken("channels_of", "no state channel")
    assert set(lg_compat.schema_keys(builder, Entry)) == {"items"}, broken(
        "schema_keys", "builder.schemas no longer maps a schema to its keys"
    )
    assert lg_compat.builder_of(object()) is None


def test_node_options_rebuild_each_node_and_no_node_field_is_unknown():
    from langgraph.graph._branch import BranchSpec
    from langgraph.graph._node import StateNodeSpec

    fields = {f.name for f in dataclasses.fields(StateNodeSpec)}
    [node, *_] = lg_compat.nodes_of(_builder())
    covered = {"ends" if key == "destinations" else key for key in node.options}
    missing = (covered | {"runnable", "input_schema"}) - fields
    assert not missing, broken("nodes_of", f"StateNodeSpec lost {sorted(missing)}")
    new = fields - covered - lg_compat.NODE_FIELDS_NOT_IN_OPTIONS
    assert not new, broken(
        "NODE_FIELDS_NOT_IN_OPTIONS",
        f"StateNodeSpec has new fields {sorted(new)}: should core.migrate.graph carry them?",
    )
    accepted = inspect.signature(StateGraph.add_node).parameters
    assert set(node.options) <= set(accepted), broken(
        "nodes_of", f"add_node no longer takes {sorted(set(node.options) - set(accepted))}"
    )
    assert {"path", "ends", "input_schema"} <= set(BranchSpec._fields), broken(
        "branches_of", f"BranchSpec's fields are now {BranchSpec._fields}"
    )
    assert (node.options["metadata"], node.options["retry_policy"].max_attempts) == ({"m": 1}, 2)


def test_recompile_keeps_the_graph_over_another_checkpointer():
    from langgraph.checkpoint.memory import InMemorySaver

    saver = InMemorySaver()
    bound = lg_compat.recompile(_builder().compile(), saver, interrupt_before=["c"])
    config: RunnableConfig = {"configurable": {"thread_id": "t"}}
    bound.invoke({"items": []}, config)  # stops before c (and b, in the same step)
    assert saver.get_tuple(config) is not None, broken(
        "recompile", "graph.builder.compile(checkpointer=...) no longer writes to that saver"
    )
    assert "c" in bound.get_state(config).next, broken(
        "recompile", "graph.builder.compile(..., interrupt_before=...) no longer stops there"
    )


def test_compiled_nodes_hand_out_their_runnable_and_input():
    graph = _builder().compile()
    node = graph.nodes["a"]
    for attribute in ("bound", "channels", "mapper"):
        assert hasattr(node, attribute), broken(
            "node_runnable/node_input", f"{type(node).__qualname__} has no {attribute!r}"
        )
    assert lg_compat.only_async(lg_compat.node_runnable(graph.nodes["b"])), broken(
        "node_runnable", "PregelNode.bound is no longer the node's own runnable"
    )
    seen = lg_compat.node_input(node, {"items": ["x"], "branch:to:a": None})
    assert seen == State(items=["x"]), broken(
        "node_input", f"a node reading the state schema is handed {seen!r}"
    )
    assert lg_compat.stream_channels(graph) == ["items"], broken(
        "stream_channels", f"Pregel.stream_channels_list is {lg_compat.stream_channels(graph)}"
    )


# --- the import-linter contract names every private module LangGraph has ------------------
def _langgraph_modules() -> set[str]:
    modules = set()
    for base in langgraph.__path__:
        for root, dirs, files in os.walk(base):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            relative = os.path.relpath(root, base)
            package = "langgraph" + ("" if relative == "." else "." + relative.replace(os.sep, "."))
            modules.add(package)
            modules |= {f"{package}.{f[:-3]}" for f in files if f.endswith(".py")}
    return {m.removesuffix(".__init__") for m in modules}


def test_the_import_contract_forbids_every_private_langgraph_module():
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    [contract] = [c for c in contracts["contracts"] if "lg_compat" in c["name"]]
    forbidden = set(contract["forbidden_modules"])
    private = {
        module
        for module in _langgraph_modules()
        if any(p.startswith("_") and not p.startswith("__") for p in module.split(".")[1:])
    }
    uncovered = sorted(
        m for m in private if not any(m == f or m.startswith(f"{f}.") for f in forbidden)
    )
    assert not uncovered, (
        f"LangGraph has private modules the import-linter contract does not name: {uncovered}; "
        "add them to its forbidden_modules in pyproject.toml"
    )
    gone = sorted(forbidden - _langgraph_modules())
    assert not gone, f"the import-linter contract names modules LangGraph no longer has: {gone}"
