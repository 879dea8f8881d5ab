"""An open checkpoint store on a file or a database, and the real tables it must hold."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.checkpoint.base import BaseCheckpointSaver

from core.lg_compat import SAVER_TABLES, SaverTables
from core.stores.errors import StoreCode, StoreError, StoreWarning

__all__ = ["MAX_VALUE_BYTES", "TABLES", "Store", "require_tables"]

MAX_VALUE_BYTES = 16 * 1024 * 1024  # a stored value larger than this is skipped, not read
# the tables a store must hold to be read (each saver's, as core.lg_compat names them)
TABLES = {kind: tables.names for kind, tables in SAVER_TABLES.items()}


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

    def query(self, sql: str, params: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """Rows of one read-only SQL query; `sql` uses `?` placeholders on both backends."""
        if self.kind == "sqlite":
            rows: list[tuple[Any, ...]] = self.conn.execute(sql, params).fetchall()
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
        named = ", ".join(f"{name} is a {kind}" for name, kind in sorted(other.items()))
        raise StoreError(
            StoreCode.NOT_TABLES,
            f"{label}: {named}, not a plain table; the playground reads only real tables "
            "(reading a view or computed column runs whatever it was defined with).",
        )
