"""The one protocol every store the playground reads implements, whatever holds it.

A SQLite file and a PostgreSQL database (`core.stores.backends.store.Store`) and a LangGraph
server (`core.stores.backends.server.RemoteStore`) differ in their SQL, their table layouts
and their API; what a reader above `backends/` needs of them is here. A job that must work
differently on each (the server's values are JSON it validated itself; a database's rows
are msgpack our serde decodes) asks `values_are_json`, or hands both its ways to `pick`:
no code outside `backends/` asks which class or `kind` a store is.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from core.stores.backends.raw import RawCheckpoint
from core.stores.backends.shards import Shard
from core.stores.backends.thread_ids import ThreadId
from core.stores.errors import StoreWarning

if TYPE_CHECKING:
    from langchain_core.runnables import RunnableConfig

    from core.stores.backends.server import RemoteStore
    from core.stores.backends.store import Store

__all__ = ["Backend"]

_T = TypeVar("_T")


@runtime_checkable
class Backend(Protocol):
    """An open store: what it is called, how its values come, its threads a page at a time,
    a thread's checkpoints and one checkpoint as stored, a fork written.

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     isinstance(store, Backend), store.values_are_json, next(store.iter_thread_ids())
        (True, False, 'clean-1')
    """

    label: str  # what the store is called on the page and in messages: never a password
    max_value_bytes: int  # a stored value larger than this is not read
    warnings: list[StoreWarning]  # what the user should change, said on the page and stderr

    @property
    def values_are_json(self) -> bool:
        """True: the store gives each state's values as JSON (a server validated and
        serialized them), so they are checked in JSON mode; False: its rows are decoded
        here by the strict serde, into Python objects."""
        ...

    def iter_thread_ids(self, shard: Shard = (0, 1)) -> Iterator[ThreadId]:
        """Every thread id in id order, only shard `(i, N)`'s: the one pager over thread
        ids, a page per query or request; a store of any size is walked, never loaded. An
        id is as stored: text, or in a crafted SQLite file a BLOB or a number
        (`core.stores.backends.thread_ids`)."""
        ...

    def count_threads(self, contains: str = "") -> int | None:
        """How many threads hold `contains` in their id (None: the store cannot say)."""
        ...

    def page_starts(self, contains: str, size: int, pages: int) -> list[str]:
        """The cursor each of the first `pages` pages of `size` threads starts after."""
        ...

    def thread_rows(self, thread_id: str) -> Iterator[RawCheckpoint]:
        """The thread's root checkpoints as stored, newest first, each with its pending
        writes: a database's rows (bytes, decoded above `backends/`), a server's JSON states
        from get_history; read in the store's own pages, never the whole thread at once
        beyond one page. Nothing for a thread the store does not hold; a server that refuses
        the history raises `ServerRefusal`."""
        ...

    def checkpoint_row(self, thread_id: str, checkpoint_id: str) -> RawCheckpoint | None:
        """One root checkpoint of the thread as stored, with its pending writes (None: no
        such checkpoint)."""
        ...

    def write_fork(
        self, thread_id: str, checkpoint_id: str, values: dict[str, Any], as_node: str | None,
        *, replaced: Collection[str] = (), graph: Any = None,
    ) -> RunnableConfig:  # fmt: skip
        """Write `values` as a new checkpoint of the thread forked from `checkpoint_id`, as
        `as_node` wrote them, each `replaced` channel replaced whole (its reducer bypassed);
        a file or a database through `graph.update_state` on LangGraph's own saver, a
        server through its own API. No row is changed; returns the new checkpoint's config."""
        ...

    def pick(self, database: Callable[[Store], _T], server: Callable[[RemoteStore], _T]) -> _T:
        """`database(self)` on a SQLite file or a Postgres database, `server(self)` on a
        LangGraph server: a job whose two ways differ names both, and the store picks."""
        ...
