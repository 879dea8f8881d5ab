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
from core.stores.rows import Unreadable
from core.stores.serde import StrictSerializer
from core.stores.server import RemoteStore, open_server
from core.stores.server_read import audit_server, list_server_threads
from core.stores.server_timeline import server_get_state, server_timeline
from core.stores.server_unbrick import write_unbrick_server
from core.stores.shards import Shard
from core.stores.spec import parse_store_spec
from core.stores.stored import StoredState, server_states, store_states
from core.stores.threads import ThreadPage, list_threads
from core.stores.timeline import Timeline, langgraph_get_state, thread_timeline
from core.stores.unbrick import UnbrickPlan, write_unbrick

__all__ = [
    "AnyStore",
    "audit_any",
    "get_state_said",
    "open_any",
    "page_starts",
    "stored_states",
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
    return store.count_threads(contains)


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
    return store.page_starts(contains, size, pages)


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


def stored_states(
    store: AnyStore, model: type[BaseModel], *, history_too: bool = False, shard: Shard = (0, 1)
) -> Iterator[StoredState | Unreadable]:
    """Each thread's latest stored state (every checkpoint's with `history_too`), in thread
    order (`store_states` / `server_states`); a row that cannot be read is an `Unreadable`.

    Example:
        >>> from core.order import AgentState
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     states = list(stored_states(store, AgentState, shard=(0, 3)))
        >>> [(s.thread_id, s.step, s.latest) for s in states][:2]
        [('clean-2', 6, True), ('fault-node_exception', 1, True)]
    """
    if isinstance(store, RemoteStore):
        return server_states(store, model, history_too=history_too, shard=shard)
    return store_states(store, model, history_too=history_too, shard=shard)


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
