"""Any store the page and the CLI read: a SQLite file, a Postgres database or a LangGraph server."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.serde.base import SerializerProtocol
from pydantic import BaseModel

from core.order.graph import CompiledGraph
from core.stores.audit import AuditResult, audit_store
from core.stores.open import MAX_VALUE_BYTES, Store, open_store
from core.stores.serde import StrictSerializer
from core.stores.server import RemoteStore, open_server
from core.stores.server_read import audit_server, list_server_threads
from core.stores.server_timeline import server_get_state, server_timeline
from core.stores.server_unbrick import write_unbrick_server
from core.stores.shards import Shard
from core.stores.spec import parse_store_spec
from core.stores.threads import ThreadPage, list_threads
from core.stores.timeline import Timeline, langgraph_get_state, thread_timeline
from core.stores.unbrick import UnbrickPlan, write_unbrick

__all__ = [
    "AnyStore",
    "audit_any",
    "get_state_said",
    "open_any",
    "page_starts",
    "thread_page",
    "thread_total",
    "timeline_of",
    "write_fork",
]

AnyStore = Store | RemoteStore


@contextmanager
def open_any(
    spec: str,
    serde: SerializerProtocol,
    *,
    assistant: str | None = None,
    max_value_bytes: int = MAX_VALUE_BYTES,
) -> Iterator[AnyStore]:
    """`open_store` for a file or a database; `open_server` for an http(s):// URL (a LangGraph
    server read through langgraph-sdk; `assistant` keeps one graph's threads).

    Example:
        >>> from core.stores.serde import strict_serde
        >>> with open_any("http://127.0.0.1:9/", strict_serde([])):  # doctest: +ELLIPSIS
        ...     pass
        Traceback (most recent call last):
        ...
        core.stores.errors.StoreError: [store_unreachable] cannot connect to http://127.0.0.1:9 ...
    """
    parsed = parse_store_spec(spec)
    if parsed.kind == "server":
        with open_server(parsed, assistant=assistant) as server:
            server.max_value_bytes = max_value_bytes
            yield server
        return
    with open_store(spec, serde, max_value_bytes=max_value_bytes) as store:
        yield store


def thread_page(store: AnyStore, model: type[BaseModel], **filters: Any) -> ThreadPage:
    """A page of the store's threads with their statuses (`list_threads`' filters)."""
    if isinstance(store, RemoteStore):
        return list_server_threads(store, model, **filters)
    return list_threads(store, model, **filters)


def thread_total(store: AnyStore, contains: str = "") -> int | None:
    """How many threads the store holds whose id holds `contains` (None: the server cannot
    say for a filter: its search has no substring filter).

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     thread_total(store), thread_total(store, "fault-")
        (10, 6)
    """
    if isinstance(store, RemoteStore):
        return None if contains else store.count()
    if "\x00" in contains:  # no PostgreSQL text holds one: no thread matches
        return 0
    find = "instr(thread_id, ?)" if store.kind == "sqlite" else "strpos(thread_id, ?)"
    rows = store.query(
        f"SELECT COUNT(DISTINCT thread_id) FROM {store.tables.checkpoints} WHERE {find} > 0",
        (contains,),
    )
    return int(rows[0][0])


def page_starts(store: AnyStore, contains: str, size: int, pages: int) -> list[str]:
    """Where each of the list's first `pages` pages of `size` threads starts, unfiltered by
    status: the cursors `thread_page` pages from ("" for the first page, then the id of the
    thread each page continues after; a server's, the offset as text). The page's jump to a
    page number. Threads whose id holds `contains`; on a server, all (its total is known
    only then).

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     page_starts(store, "", 4, 3), page_starts(store, "fault-", 4, 9)
        (['', 'fault-negative_amount', 'fault-undeclared_key'], ['', 'fault-overwrite_logs'])
    """
    if isinstance(store, RemoteStore):
        return [""] + [str(size * index) for index in range(1, pages)]
    if "\x00" in contains or pages < 2:  # no PostgreSQL text holds a NUL: one empty page
        return [""]
    sqlite = store.kind == "sqlite"
    find = "instr(thread_id, ?)" if sqlite else "strpos(thread_id, ?)"
    last = "n % ?" if sqlite else "MOD(n, ?)"  # psycopg reads a % as a placeholder's start
    # the last thread of each whole page before page `pages`, in the list's id order
    rows = store.query(
        "SELECT thread_id FROM (SELECT thread_id, ROW_NUMBER() OVER (ORDER BY thread_id) AS n "
        f"FROM (SELECT DISTINCT thread_id FROM {store.tables.checkpoints} WHERE {find} > 0) "
        "AS ids) AS numbered "
        f"WHERE {last} = 0 AND n < ? ORDER BY n",
        (contains, size, size * pages),
    )
    return [""] + [row[0] for row in rows]


def timeline_of(store: AnyStore, thread_id: str, model: type[BaseModel]) -> Timeline | None:
    """One thread's checkpoints, each validated against `model`."""
    if isinstance(store, RemoteStore):
        return server_timeline(store, thread_id, model)
    return thread_timeline(store, thread_id, model)


def audit_any(
    store: AnyStore, model: type[BaseModel], *, history: bool = False, shard: Shard = (0, 1)
) -> AuditResult:
    """The audit (`audit_store` / `audit_server`) of every thread, or of shard `(i, N)`."""
    if isinstance(store, RemoteStore):
        return audit_server(store, model, history_too=history, shard=shard)
    return audit_store(store, model, history=history, shard=shard)


def get_state_said(store: AnyStore, graph: CompiledGraph | None, timeline: Timeline) -> str | None:
    """What LangGraph's own get_state does on the thread, run now: on a server, its own
    endpoint; on a file or database, `graph` with the store's read-only saver. None when
    it cannot be run (no graph, or a checkpoint the store could not read)."""
    if isinstance(store, RemoteStore):
        return server_get_state(store, timeline.thread_id)
    if graph is None or any(c.unreadable is not None for c in timeline.checkpoints):
        return None
    return langgraph_get_state(store, graph, timeline.thread_id)


def write_fork(
    spec: str, plan: UnbrickPlan, graph: CompiledGraph, serde: StrictSerializer
) -> RunnableConfig:
    """Write an unbrick `plan` as a fork: through `graph.update_state` on LangGraph's own
    saver for a file or a database, through the server's API (checked there) for a server."""
    if parse_store_spec(spec).kind == "server":
        return write_unbrick_server(spec, plan)
    return write_unbrick(spec, plan, graph, serde)
