"""One walk over a store's threads: pages of thread ids, each page's checkpoints streamed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from typing import NamedTuple

from langgraph.checkpoint.base import CheckpointTuple

from core.stores.backends.shards import Shard
from core.stores.backends.store import PAGE, Store
from core.stores.backends.thread_ids import ThreadId
from core.stores.decode.rows import Unreadable
from core.stores.threads.pages import read_checkpoints

__all__ = ["THREADS_PER_QUERY", "ThreadsPage", "Walked", "iter_thread_ids", "walk_store"]

_PAGE = PAGE  # thread ids fetched per query (`Store.iter_thread_ids`)
THREADS_PER_QUERY = 200  # threads whose checkpoints one streamed query reads


def iter_thread_ids(store: Store, shard: Shard = (0, 1)) -> Iterator[ThreadId]:
    """Thread ids in order, one page per query, only those of shard `(i, N)`.

    Every id is read, the empty one included: the first page has no lower bound. The
    database picks the shard's ids (`Store.thread_ids`, with `shard_condition`, the SQL form
    of `shard_of`): each of N workers reads about 1/N of the ids.

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     list(iter_thread_ids(store))[:2], list(iter_thread_ids(store, (1, 3)))[:2]
        (['clean-1', 'clean-2'], ['fault-bad_status_last', 'fault-overwrite_logs'])
    """
    return store.iter_thread_ids(shard, page=_PAGE)


class Walked(NamedTuple):
    """One checkpoint of the walk, as the saver's own `list` gives it, with what a reader of
    it needs: whether it is its thread's latest (read first), and whether the strict serde
    refused anything while decoding it (False: its values need not be searched for a
    refusal; always True under a serde that does not count them)."""

    saved: CheckpointTuple
    latest: bool
    may_hold_refusals: bool


@dataclass(frozen=True)
class ThreadsPage:
    """A page of at most `THREADS_PER_QUERY` thread ids and their checkpoints, streamed by
    one query (iterate it once; a row that cannot be read is an `Unreadable`)."""

    thread_ids: list[ThreadId]
    checkpoints: Iterator[Walked | Unreadable]

    def __iter__(self) -> Iterator[Walked | Unreadable]:
        return self.checkpoints


def walk_store(
    store: Store,
    *,
    history: bool = False,
    shard: Shard = (0, 1),
    share: bool = False,
    only: ThreadId | None = None,
) -> Iterator[ThreadsPage]:
    """Each page of the store's threads, in id order (only shard `(i, N)`'s), with each
    thread's latest checkpoint (every one, newest first, with `history`).

    The audit and the migration walk a store with this: thread ids a page at a time
    (`iter_thread_ids`), the checkpoints of `THREADS_PER_QUERY` threads from one streamed
    query (`read_checkpoints`, with `share` for a reader that only reads the tuples), so
    memory does not grow with the store. A page's next query runs once its checkpoints were
    read: a reader with queries of its own makes them between pages, one query at a time.
    With `only`, just that thread (as stored), if the store holds it.

    Example:
        >>> from core.stores.demo import open_demo_store
        >>> with open_demo_store() as store:
        ...     pages = [(page.thread_ids[:1], [(w.saved.metadata["step"], w.latest)
        ...              for w in page][:2]) for page in walk_store(store, history=True)]
        >>> pages
        [(['clean-1'], [(2, True), (1, False)])]
    """
    if only is None:
        thread_ids = iter_thread_ids(store, shard)
    else:  # one thread, counted only where it has a root checkpoint
        thread_ids = iter([only] if store.checkpoint_counts([only]) else [])
    counted = [getattr(store.saver.serde, "refusals", None)]  # None: not ours, search all
    for page in iter(lambda: list(islice(thread_ids, THREADS_PER_QUERY)), []):
        yield ThreadsPage(page, _walked(store, page, history, share, counted))


def _walked(
    store: Store, page: list[ThreadId], history: bool, share: bool, counted: list[int | None]
) -> Iterator[Walked | Unreadable]:
    serde, previous = store.saver.serde, None
    for saved in read_checkpoints(store, page, latest=not history, share=share):
        if isinstance(saved, Unreadable):
            previous = saved.thread_id
            yield saved
            continue
        thread_id = saved.config["configurable"]["thread_id"]
        # a thread's rows come together, newest first: its first is its latest
        latest, previous = thread_id != previous, thread_id
        now = getattr(serde, "refusals", None)  # the serde counts each value it refused
        refusals, counted[0] = now is None or now != counted[0], now
        yield _new(Walked, (saved, latest, refusals))


_new = tuple.__new__  # a Walked without NamedTuple's Python-level __new__: one per checkpoint
