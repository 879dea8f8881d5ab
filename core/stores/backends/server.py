"""A LangGraph server as a checkpoint store: opened through langgraph-sdk, its answers coded."""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Iterator, Mapping
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from langchain_core.runnables import RunnableConfig

from core.jsontext.write import clip, jsonable
from core.stores.backends.raw import RawCheckpoint, RawWrite
from core.stores.backends.shards import Shard, shard_of
from core.stores.backends.spec import StoreSpec
from core.stores.backends.store import MAX_VALUE_BYTES
from core.stores.errors import StoreCode, StoreError, StoreWarning

__all__ = [
    "API_KEY_ENVS",
    "OVERWRITE",
    "PAGE_LIMIT",
    "ServerRefusal",
    "RemoteStore",
    "open_server",
    "server_writes",
    "shard_threads",
]

API_KEY_ENVS = ("LANGGRAPH_API_KEY", "LANGSMITH_API_KEY")  # read in this order, never shown
# LangGraph's JSON form of `Overwrite` (langgraph.channels.binop reads it): a field with a
# reducer is replaced, not merged, when its update is {"__overwrite__": value}
OVERWRITE = "__overwrite__"
PAGE_LIMIT = 1000  # the server's own cap on `limit` for threads.search and get_history
_T = TypeVar("_T")


class ServerRefusal(Exception):
    """The server answered a thread's request with an error status (400 for a thread whose
    stored state fails its model): `status` and the server's message, cut to one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status}: {message}")
        self.status, self.message = status, message


@dataclass
class RemoteStore:
    """An open LangGraph server: the SDK's client, what may be said of it, its graph filter."""

    client: Any  # langgraph_sdk's SyncLangGraphClient
    label: str  # scheme://host:port/path: never a key, a password or a query
    graph_id: str | None = None  # --assistant: only this graph's threads
    kind: Literal["server"] = "server"
    max_value_bytes: int = MAX_VALUE_BYTES
    warnings: list[StoreWarning] = field(default_factory=list)

    @property
    def values_are_json(self) -> bool:
        """`Backend.values_are_json`: True, the server gives each state's values as JSON."""
        return True

    def pick(self, database: Callable[[Any], _T], server: Callable[[RemoteStore], _T]) -> _T:
        """`Backend.pick`: a server takes the `server` way."""
        return server(self)

    def call(self, request: Callable[[], _T]) -> _T:
        """One request to the server; a refusal of the store as a whole is a `StoreError`,
        a thread's own refusal (400, 404, 409, 422) a `ServerRefusal`."""
        return _called(self.label, request)

    def search(self, offset: int, limit: int) -> list[Any]:
        """Threads in id order from `offset`, with their values and status (as the server
        answers: a thread's place may hold something that is not an object)."""
        metadata = {"graph_id": self.graph_id} if self.graph_id else None
        found: list[Any] = self.call(
            lambda: self.client.threads.search(
                metadata=metadata,
                limit=limit,
                offset=offset,
                sort_by="thread_id",
                sort_order="asc",
            )
        )
        if not isinstance(found, list):
            raise _not_langgraph(self.label, "answers its thread search with no list")
        return found

    def shard_threads(
        self, shard: Shard = (0, 1), *, ahead: Executor | None = None
    ) -> Iterator[tuple[str, Any]]:
        """The threads as the search returns them, a page at a time, each with its id ("" for
        an answer that is not an object: the caller says so); with `shard=(i, N)` only those
        of shard i (the audit's and the migration's shards). With `ahead`, the next page is
        asked for there as soon as a full page arrives, so the server builds it while this
        one is read. A page longer than asked is cut to `PAGE_LIMIT`: the next page starts
        where the cut did, so each thread is read once and the loop ends; a full page
        answered again at the next offset is a `StoreError` (the server ignores the offset:
        read on, it would never end)."""
        index, shards = shard
        offset, previous = 0, None
        coming = ahead.submit(self.search, 0, PAGE_LIMIT) if ahead else None
        while True:
            batch = (coming.result() if coming else self.search(offset, PAGE_LIMIT))[:PAGE_LIMIT]
            full = len(batch) == PAGE_LIMIT
            if full and batch == previous:
                why = f"answers the same threads at offsets {offset - PAGE_LIMIT} and {offset}"
                raise _not_langgraph(self.label, why)
            offset, previous = offset + len(batch), batch
            coming = ahead.submit(self.search, offset, PAGE_LIMIT) if ahead and full else None
            for thread in batch:
                thread_id = str(thread.get("thread_id", "")) if isinstance(thread, dict) else ""
                if shards <= 1 or shard_of(thread_id, shards) == index:
                    yield thread_id, thread
            if not full:
                return

    def iter_thread_ids(self, shard: Shard = (0, 1)) -> Iterator[str]:
        """`Backend.iter_thread_ids`: every thread id in id order, only shard `(i, N)`'s."""
        return (thread_id for thread_id, _ in self.shard_threads(shard))

    def history_page(
        self, thread_id: str, limit: int, before: str | None = None
    ) -> list[dict[str, Any]]:
        """At most `limit` of a thread's root checkpoints from get_history, newest first
        (with `before`, only those older than that checkpoint id)."""
        at = {"configurable": {"checkpoint_id": before}} if before else None
        page: list[dict[str, Any]] = self.call(
            lambda: self.client.threads.get_history(thread_id, limit=limit, before=at)
        )
        return page

    def thread_rows(self, thread_id: str, *, before: str | None = None) -> Iterator[RawCheckpoint]:
        """`Backend.thread_rows`: the thread's root checkpoints from get_history, newest
        first, `PAGE_LIMIT` a request (with `before`, only those older than that checkpoint
        id). Raises `ServerRefusal` when the server refuses a page."""
        asked: set[str | None] = {before}
        while True:
            page = self.history_page(thread_id, PAGE_LIMIT, before)
            for state in page:
                yield server_row(thread_id, state)
            if len(page) < PAGE_LIMIT:
                return
            before = page[-1]["checkpoint"]["checkpoint_id"]
            if before in asked:  # the server ignores `before`: read on, it would never end
                why = f"answers thread {thread_id!r}'s history before {before} with it again"
                raise _not_langgraph(self.label, why)
            asked.add(before)

    def checkpoint_row(self, thread_id: str, checkpoint_id: str) -> RawCheckpoint | None:
        """`Backend.checkpoint_row`: the checkpoint's state from get_state at that id."""
        try:
            state: dict[str, Any] = self.call(
                lambda: self.client.threads.get_state(thread_id, checkpoint_id=checkpoint_id)
            )
        except ServerRefusal as refusal:
            if refusal.status == 404:
                return None
            raise
        found = (state.get("checkpoint") or {}).get("checkpoint_id")
        # an id the thread does not hold is answered with an empty state at that id: no
        # time, no metadata (a stored checkpoint always has both)
        held = state.get("created_at") is not None or state.get("metadata") is not None
        return server_row(thread_id, state) if held and found == checkpoint_id else None

    def failed_runs(self, thread_id: str) -> list[dict[str, Any]]:
        """The thread's runs that ended in an error, newest first."""
        runs: list[dict[str, Any]] = self.call(
            lambda: self.client.runs.list(thread_id, limit=PAGE_LIMIT, status="error")
        )
        return runs

    def thread(self, thread_id: str) -> dict[str, Any]:
        """The thread as threads.get gives it: its latest values, status and times."""
        found: dict[str, Any] = self.call(lambda: self.client.threads.get(thread_id))
        return found

    def state(self, thread_id: str) -> dict[str, Any]:
        """The thread's state as the server's own get_state computes it now."""
        found: dict[str, Any] = self.call(lambda: self.client.threads.get_state(thread_id))
        return found

    def update_state(
        self, thread_id: str, values: dict[str, Any], as_node: str | None, checkpoint_id: str
    ) -> dict[str, Any]:
        """A fork of `checkpoint_id` written by threads.update_state as `as_node`, checked
        by the server; what it answers (the new checkpoint)."""
        checkpoint = {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}
        written: dict[str, Any] = self.call(
            lambda: self.client.threads.update_state(
                thread_id, values, as_node=as_node, checkpoint=checkpoint
            )
        )
        return written

    def write_fork(
        self, thread_id: str, checkpoint_id: str, values: dict[str, Any], as_node: str | None,
        *, replaced: Collection[str] = (), graph: Any = None,
    ) -> RunnableConfig:  # fmt: skip
        """`Backend.write_fork`: through the server's threads.update_state (checked there),
        the values as JSON, each `replaced` channel as LangGraph's JSON `Overwrite`; `graph`
        is the server's own. Raises `ServerRefusal` when the server refuses it."""
        fork = {
            key: {OVERWRITE: jsonable(value)} if key in replaced else jsonable(value)
            for key, value in values.items()
        }
        written = self.update_state(thread_id, fork, as_node, checkpoint_id)
        config: RunnableConfig = {"configurable": dict(written["checkpoint"])}
        return config

    def count(self) -> int:
        """How many threads the server holds (of the graph, with --assistant)."""
        metadata = {"graph_id": self.graph_id} if self.graph_id else None
        return int(self.call(lambda: self.client.threads.count(metadata=metadata)))

    def count_threads(self, contains: str = "") -> int | None:
        """`Store.count_threads`: None for a filter (the server's search has no substring
        filter)."""
        return None if contains else self.count()

    def page_starts(self, contains: str, size: int, pages: int) -> list[str]:
        """`Store.page_starts` on a server: the offsets of all its threads' pages, as text
        (its total is known only unfiltered)."""
        return [""] + [str(size * index) for index in range(1, pages)]


def server_writes(state: dict[str, Any] | None) -> tuple[RawWrite, ...]:
    """The writes a server's checkpoint `state` holds: its tasks' results, each channel
    as a write named by the task's node, in the order the server lists the tasks."""
    tasks = (state or {}).get("tasks") or []
    return tuple(
        RawWrite(str(task.get("id", "")), str(channel), value, str(task.get("name", "")))
        for task in tasks
        if isinstance(task, dict) and isinstance(task.get("result"), dict)
        for channel, value in task["result"].items()
    )


def server_row(thread_id: str, state: dict[str, Any]) -> RawCheckpoint:
    """A server's checkpoint state (get_history's, get_state's) as a `RawCheckpoint`:
    its payload the whole state as the server gave it."""
    checkpoint = state.get("checkpoint") or {}
    parent = (state.get("parent_checkpoint") or {}).get("checkpoint_id")
    found = checkpoint["checkpoint_id"]
    if not isinstance(found, str) or not found:  # a pager on it would ask page one again
        raise TypeError("the state names no checkpoint id")
    return RawCheckpoint(
        thread_id=str(checkpoint.get("thread_id") or thread_id),
        checkpoint_ns=str(checkpoint.get("checkpoint_ns") or ""),
        checkpoint_id=found,
        parent_id=str(parent) if parent else None,
        metadata=state.get("metadata"),
        payload=state,
        writes=server_writes(state),
    )


def one_line(text: Any, limit: int = 300) -> str:
    """A server's message on one line, cut to `limit` characters.

    Example:
        >>> one_line("1 validation error\\n  lines.0.sku", 25)
        '1 validation error lines…'
    """
    said = " ".join(str(text).split())
    return clip(said, limit)


def _called(label: str, request: Callable[[], _T]) -> _T:
    import httpx
    from langgraph_sdk.errors import APIStatusError

    try:
        return request()
    except APIStatusError as error:
        raise _status_error(label, error.status_code, error.body) from None
    except httpx.TimeoutException:
        raise StoreError(
            StoreCode.TIMEOUT, f"{label} did not answer in time; check the server and retry."
        ) from None
    except (httpx.HTTPError, OSError):
        raise StoreError(
            StoreCode.UNREACHABLE,
            f"cannot connect to {label} (server down, or wrong host or port); start the "
            "server (langgraph dev) or correct the URL.",
        ) from None
    except ValueError:  # a body that is not JSON: something else answers there
        raise _not_langgraph(label, "answers with something that is not JSON") from None


def _status_error(label: str, status: int, body: Any) -> Exception:
    if status in (401, 403):
        return StoreError(
            StoreCode.LOGIN_REFUSED,
            f"{label} refused the request ({status}); set LANGGRAPH_API_KEY (or "
            "LANGSMITH_API_KEY) in the playground's environment to a key the server accepts.",
        )
    if status in (400, 404, 409, 422):
        detail = body.get("detail", body) if isinstance(body, dict) else body
        return ServerRefusal(status, one_line(detail or ""))
    if status in (405, 501):  # a web server that has no such route or method
        return _not_langgraph(label, f"answers {status} to LangGraph's API")
    return StoreError(
        StoreCode.UNREADABLE,
        f"{label} failed while being read ({status}); check the server's log and retry.",
    )


def _not_langgraph(label: str, why: str) -> StoreError:
    return StoreError(
        StoreCode.NOT_A_CHECKPOINT_STORE,
        f"{label} {why}: it is not a LangGraph server; give the URL `langgraph dev` or your "
        "deployment serves.",
    )


@contextmanager
def open_server(
    spec: StoreSpec,
    *,
    assistant: str | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float = 30.0,
) -> Iterator[RemoteStore]:
    """Open the LangGraph server `spec` names, checked to answer as one (threads.count).

    The API key is read only from LANGGRAPH_API_KEY, else LANGSMITH_API_KEY, in `env`
    (default: the process's environment), never from the URL, and never shown. `assistant`
    (an assistant's name or id, or a graph id) keeps only that graph's threads.
    """
    from langgraph_sdk import get_sync_client

    env = os.environ if env is None else env
    key = next((env[name].strip() for name in API_KEY_ENVS if env.get(name, "").strip()), None)
    client = get_sync_client(url=spec.target, api_key=key, timeout=timeout)
    store = RemoteStore(client, spec.label)
    try:
        _probe(store)
        if assistant:
            store.graph_id = _graph_of(store, assistant)
        yield store
    finally:
        client.close()


def _probe(store: RemoteStore) -> None:
    try:
        store.count()
    except ServerRefusal as refusal:
        raise _not_langgraph(store.label, f"answers {refusal.status} to threads.count") from None


def _graph_of(store: RemoteStore, assistant: str) -> str:
    """The graph id an assistant name or id names; the name itself when it is a graph id."""
    found = store.call(lambda: store.client.assistants.search(limit=PAGE_LIMIT))
    for entry in found:
        if assistant in (entry.get("name"), entry.get("assistant_id"), entry.get("graph_id")):
            return str(entry["graph_id"])
    graphs = sorted({str(entry.get("graph_id")) for entry in found})
    raise StoreError(
        StoreCode.MISSING,
        f"{store.label} has no assistant or graph named {one_line(assistant, 60)!r}; it "
        f"serves: {', '.join(graphs) or 'none'}.",
    )


def shard_threads(store: RemoteStore, shard: Shard = (0, 1)) -> Iterator[tuple[str, Any]]:
    """`RemoteStore.shard_threads`: the server's threads, only shard `(i, N)`'s."""
    return store.shard_threads(shard)
