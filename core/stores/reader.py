"""Any store the page and the CLI read: a SQLite file, a Postgres database or a LangGraph server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from core.order.graph import CompiledGraph
from core.stores.audit.any_store import audit_any
from core.stores.backends.any_store import AnyStore, open_any
from core.stores.backends.shards import Shard
from core.stores.backends.store import Store
from core.stores.decode.rows import Unreadable
from core.stores.threads.listing import ThreadPage, list_threads
from core.stores.threads.server_list import list_server_threads
from core.stores.threads.server_timeline import server_get_state, server_timeline
from core.stores.threads.stored import StoredState, server_states, store_states
from core.stores.threads.timeline import Timeline, langgraph_get_state, thread_timeline
from core.stores.write.fork import write_fork

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


def thread_page(store: AnyStore, model: type[BaseModel], **filters: Any) -> ThreadPage:
    """A page of the store's threads with their statuses (`list_threads`' filters)."""
    return store.pick(
        database=lambda db: list_threads(db, model, **filters),
        server=lambda server: list_server_threads(server, model, **filters),
    )


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
    return store.pick(
        database=lambda db: thread_timeline(db, thread_id, model),
        server=lambda server: server_timeline(server, thread_id, model),
    )


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
    return store.pick(
        database=lambda db: store_states(db, model, history_too=history_too, shard=shard),
        server=lambda server: server_states(server, model, history_too=history_too, shard=shard),
    )


def get_state_said(store: AnyStore, graph: CompiledGraph | None, timeline: Timeline) -> str | None:
    """What LangGraph's own get_state does on the thread, run now: on a server, its own
    endpoint; on a file or database, `graph` with the store's read-only saver. None when
    it cannot be run (no graph, or a checkpoint the store could not read)."""

    def database(db: Store) -> str | None:
        if graph is None or any(c.unreadable is not None for c in timeline.checkpoints):
            return None
        return langgraph_get_state(db, graph, timeline.thread_id)

    return store.pick(database, lambda server: server_get_state(server, timeline.thread_id))
