"""An open checkpoint store on a file or a database, and the real tables it must hold.

Every difference between SQLite's SQL and Postgres's that a reader of a store meets is
here, behind the `Store`'s methods: its queries, the one pager over thread ids (the walk's,
the thread list's, the list's page starts and total), where a channel's value is kept."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Overwrite

from core.lg_compat import SAVER_TABLES, TASK_PATH, SaverTables, recompile
from core.order.graph import CompiledGraph
from core.stores.backends.page_rows import raw_checkpoints
from core.stores.backends.raw import RawCheckpoint
from core.stores.backends.shards import Shard, shard_condition
from core.stores.backends.thread_ids import ThreadId, is_utf8, sqlite_bound
from core.stores.backends.writable import open_writable
from core.stores.errors import StoreCode, StoreError, StoreWarning
from core.words import article

__all__ = ["MAX_VALUE_BYTES", "TABLES", "Store", "require_tables"]

_T = TypeVar("_T")
PAGE = 1000  # thread ids fetched per query: a store of any size is walked, never loaded
MAX_VALUE_BYTES = 16 * 1024 * 1024  # a stored value larger than this is skipped, not read
# the tables a store must hold to be read (each saver's, as core.lg_compat names them)
TABLES = {kind: tables.names for kind, tables in SAVER_TABLES.items()}

# Each dialect's SQL for: the thread id holds the `?` text; the row number `n` is a multiple
# of `?` (psycopg reads a lone % as a placeholder's start).
_HOLDS = {"sqlite": "instr(thread_id, ?) > 0", "postgres": "strpos(thread_id, ?) > 0"}
_MULTIPLE = {"sqlite": "n % ? = 0", "postgres": "MOD(n, ?) = 0"}


@dataclass
class Store:
    """An open store: LangGraph's own saver on a read-only connection, and where it is."""

    saver: BaseCheckpointSaver[Any]
    kind: Literal["sqlite", "postgres"]
    label: str  # the file path, or user@host:port/dbname; never a password
    conn: Any  # a second read-only connection for our own queries: the saver holds its
    # connection's lock while its `list` is being iterated
    has_task_path: bool = True  # stores written before LangGraph kept task paths lack it
    max_value_bytes: int = MAX_VALUE_BYTES
    warnings: list[StoreWarning] = field(default_factory=list)  # said on the page and stderr
    spec: str = field(default="", repr=False)  # what it was opened from: a fork is written there

    def write_fork(
        self, thread_id: str, checkpoint_id: str, values: dict[str, Any], as_node: str | None,
        *, replaced: Collection[str] = (), graph: CompiledGraph | None = None,
    ) -> RunnableConfig:  # fmt: skip
        """`Backend.write_fork`: through `graph.update_state` on LangGraph's own saver, on
        a connection to `spec` that may write; each `replaced` channel written as an
        `Overwrite` (its reducer bypassed). Its caller refuses first unless writes are on."""
        if graph is None:
            raise TypeError("a fork of a file or a database is written through its graph")
        fork = {k: Overwrite(v) if k in replaced else v for k, v in values.items()}
        ids = {"thread_id": thread_id, "checkpoint_ns": "", "checkpoint_id": checkpoint_id}
        with open_writable(self.spec, self.saver.serde) as saver:
            return recompile(graph, saver).update_state({"configurable": ids}, fork, as_node)

    @property
    def values_are_json(self) -> bool:
        """`Backend.values_are_json`: False, the rows are msgpack our serde decodes."""
        return False

    @property
    def whole_checkpoints(self) -> bool:
        """True: the saver keeps every channel's value inside the checkpoint's own blob
        (SqliteSaver); False: each channel's value in its own row at the checkpoint's
        version (PostgresSaver's blobs table)."""
        return self.kind == "sqlite"

    def pick(self, database: Callable[[Store], _T], server: Callable[[Any], _T]) -> _T:
        """`Backend.pick`: a file or a database takes the `database` way."""
        return database(self)

    def iter_thread_ids(self, shard: Shard = (0, 1), *, page: int = PAGE) -> Iterator[ThreadId]:
        """`Backend.iter_thread_ids`: `thread_ids` a page of `page` ids at a time, from the
        first (the empty id included), only shard `(i, N)`'s: the database picks them."""
        last: ThreadId | None = None
        while True:
            found = self.thread_ids(last, page, shard=shard)
            yield from found
            if len(found) < page:
                return
            last = found[-1]

    def thread_rows(self, thread_id: ThreadId) -> Iterator[RawCheckpoint]:
        """`Backend.thread_rows`: the thread's root checkpoint rows newest first, streamed
        (one query; a Postgres cursor fetched a batch at a time), each with its pending
        writes (read first, in one query)."""
        return raw_checkpoints(self, [thread_id], writes=True)

    def checkpoint_row(self, thread_id: ThreadId, checkpoint_id: str) -> RawCheckpoint | None:
        """`Backend.checkpoint_row`: the root checkpoint's row and its pending writes."""
        with closing(raw_checkpoints(self, [thread_id], writes=True,
                                     checkpoint_id=checkpoint_id)) as rows:  # fmt: skip
            return next(rows, None)

    def query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of one read-only SQL query; `sql` uses `?` placeholders on both backends."""
        if self.kind == "sqlite":
            rows: list[tuple[Any, ...]] = self.conn.execute(*sqlite_bound(sql, params)).fetchall()
            return rows
        with self.conn.cursor() as cur:
            cur.execute(sql.replace("?", "%s"), params)
            return [tuple(row.values()) for row in cur.fetchall()]

    @property
    def tables(self) -> SaverTables:
        """The saver's tables (`core.lg_compat.SAVER_TABLES`): our own SQL's table names."""
        return SAVER_TABLES[self.kind]

    @property
    def writes_table(self) -> str:
        """The table where the saver keeps each task's writes."""
        return self.tables.writes

    def thread_ids(
        self, after: ThreadId | None, limit: int, *, contains: str = "", shard: Shard = (0, 1)
    ) -> list[ThreadId]:
        """At most `limit` thread ids in id order after `after` (None: from the first, so
        the empty id too), only those holding `contains` and in shard `(i, N)`: the one
        pager over thread ids (the store walk's, the thread list's). An id is as stored: a
        crafted SQLite file may hold a BLOB or a number, which SQLite orders before (a
        number) or after (a BLOB) every text."""
        if "\x00" in contains:  # no PostgreSQL text holds one (psycopg refuses to send it):
            return []  # no thread matches, on either backend, and the page keeps working
        where, params = self._threads_where(after, contains, shard)
        rows = self.query(
            f"SELECT DISTINCT thread_id FROM {self.tables.checkpoints} {where}"
            "ORDER BY thread_id LIMIT ?",
            (*params, limit),
        )
        return [row[0] for row in rows]

    def count_threads(self, contains: str = "") -> int:
        """How many threads hold `contains` in their id."""
        if "\x00" in contains:  # no PostgreSQL text holds one: no thread matches
            return 0
        where, params = self._threads_where(None, contains, (0, 1))
        sql = f"SELECT COUNT(DISTINCT thread_id) FROM {self.tables.checkpoints} {where}"
        return int(self.query(sql, tuple(params))[0][0])

    def page_starts(self, contains: str, size: int, pages: int) -> list[str]:
        """The cursor each of the first `pages` pages of `size` threads holding `contains`
        starts after ("" for the first page, then the id of the last thread before it)."""
        if "\x00" in contains or pages < 2:  # no PostgreSQL text holds a NUL: one empty page
            return [""]
        where, params = self._threads_where(None, contains, (0, 1))
        rows = self.query(
            "SELECT thread_id FROM (SELECT thread_id, ROW_NUMBER() OVER (ORDER BY thread_id) AS n "
            f"FROM (SELECT DISTINCT thread_id FROM {self.tables.checkpoints} {where}) AS ids) "
            f"AS numbered WHERE {_MULTIPLE[self.kind]} AND n < ? ORDER BY n",
            (*params, size, size * pages),
        )
        return [""] + [row[0] for row in rows]

    def _threads_where(
        self, after: ThreadId | None, contains: str, shard: Shard
    ) -> tuple[str, list[ThreadId]]:
        conditions, params = list[str](), list[ThreadId]()
        if after is not None:
            conditions.append("thread_id > ?")
            params.append(after)
        if contains:
            conditions.append(_HOLDS[self.kind])
            params.append(contains)
        index, shards = shard
        if shards > 1:  # the database picks the shard's ids: each worker reads only its own
            conditions.append(shard_condition(self.kind))
            params += [shards, index]
        return (f"WHERE {' AND '.join(conditions)} " if conditions else ""), params

    def task_writes(
        self, thread_id: ThreadId, ns: str, checkpoint_id: str
    ) -> list[tuple[str, str, str]]:
        """The writes kept beside a checkpoint, without their values: (task id, task path,
        channel), in the order LangGraph applies them (the path "" in a store written
        before LangGraph kept task paths)."""
        column = TASK_PATH if self.has_task_path else "''"
        rows = self.query(
            f"SELECT task_id, {column}, channel FROM {self.writes_table} "
            "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ? "
            "ORDER BY 2, task_id, idx",
            (thread_id, ns, checkpoint_id),
        )
        return [(task, path, channel) for task, path, channel in rows]

    def checkpoint_counts(self, thread_ids: list[ThreadId]) -> dict[ThreadId, int]:
        """How many root checkpoints each of the threads holds (none: an id Postgres'
        text column cannot hold, a number, a BLOB, text with a NUL or not UTF-8, is no
        thread there rather than a query Postgres refuses)."""
        if self.kind == "postgres":
            thread_ids = [t for t in thread_ids if _postgres_text(t)]
        if not thread_ids:
            return {}
        marks = ", ".join("?" for _ in thread_ids)
        rows = self.query(
            f"SELECT thread_id, COUNT(*) FROM {self.tables.checkpoints} WHERE checkpoint_ns = '' "
            f"AND thread_id IN ({marks}) GROUP BY thread_id",
            tuple(thread_ids),
        )
        return {thread: int(count) for thread, count in rows}

    def threads_with_write(self, checkpoints: list[tuple[str, str]], channel: str) -> set[str]:
        """The threads of `checkpoints` (thread id, checkpoint id; root ones) beside which a
        task wrote `channel`."""
        if not checkpoints:
            return set()
        marks = ", ".join("(?, ?)" for _ in checkpoints)
        rows = self.query(
            f"SELECT DISTINCT thread_id FROM {self.writes_table} WHERE checkpoint_ns = '' "
            f"AND channel = ? AND (thread_id, checkpoint_id) IN (VALUES {marks})",
            (channel, *(part for pair in checkpoints for part in pair)),
        )
        return {row[0] for row in rows}

    def namespaces(self, thread_id: ThreadId) -> list[str]:
        """The subgraph namespaces the thread has checkpoints in (not the root's "")."""
        rows = self.query(
            f"SELECT DISTINCT checkpoint_ns FROM {self.tables.checkpoints} WHERE thread_id = ? "
            "AND checkpoint_ns <> '' ORDER BY checkpoint_ns",
            (thread_id,),
        )
        return [row[0] for row in rows]

    def channel_row(
        self, key: tuple[ThreadId, str, str], channel: str
    ) -> tuple[Any, Any, bool] | None:
        """Where the saver keeps `channel`'s value at the checkpoint `key` (thread id, ns,
        checkpoint id): `(type, bytes, whole)`, `whole` when the bytes are the whole
        checkpoint (SqliteSaver keeps every channel in it; PostgresSaver keeps each
        channel's blob at the checkpoint's version). None: no such row. Bytes over
        `max_value_bytes` are not read (None)."""
        tables, limit = self.tables, self.max_value_bytes
        if self.kind == "sqlite":
            rows = self.query(
                "SELECT type, CASE WHEN length(checkpoint) > ? THEN NULL ELSE checkpoint END "
                f"FROM {tables.checkpoints} "
                "WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id = ?",
                (limit, *key),
            )
        else:
            rows = self.query(
                "SELECT b.type, CASE WHEN length(b.blob) > ? THEN NULL ELSE b.blob END "
                f"FROM {tables.checkpoints} c JOIN {tables.blobs} b "
                "ON b.thread_id = c.thread_id AND b.checkpoint_ns = c.checkpoint_ns "
                "AND b.channel = ? AND b.version = c.checkpoint -> 'channel_versions' ->> ? "
                "WHERE c.thread_id = ? AND c.checkpoint_ns = ? AND c.checkpoint_id = ?",
                (limit, channel, channel, *key),
            )
        return (*rows[0], self.whole_checkpoints) if rows else None


def require_tables(label: str, kinds: dict[str, str], backend: str) -> None:
    needed = TABLES[backend]
    missing = sorted(set(needed) - set(kinds))
    if missing:
        raise StoreError(
            StoreCode.NOT_A_CHECKPOINT_STORE,
            f"{label} is a database but not a LangGraph checkpoint store (missing table: "
            f"{', '.join(missing)}); point at the store your checkpointer writes.",
        )
    other = {name: kind for name, kind in kinds.items() if kind != "table"}
    if other:
        named = ", ".join(f"{name} is {article(kind)}" for name, kind in sorted(other.items()))
        raise StoreError(
            StoreCode.NOT_TABLES,
            f"{label}: {named}, not a plain table; the playground reads only real tables "
            "(reading a view or computed column runs whatever it was defined with).",
        )


def _postgres_text(thread_id: ThreadId) -> bool:
    """Whether Postgres' text may hold `thread_id`: UTF-8 text without a NUL.

    Example:
        >>> [_postgres_text(t) for t in ["t-1", 42, b"t", "a\\x00b", "\\udcffA"]]
        [True, False, False, False, False]
    """
    return isinstance(thread_id, str) and "\x00" not in thread_id and is_utf8(thread_id)
