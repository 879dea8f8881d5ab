"""`migrate=` given a path: the plan there (a TOML file, as `python -m core migrate --plan`
reads it, or a folder of plans chained by `id` and `after`), as the function the guard calls
on each stored state the model rejects, from where its thread stands in the chain."""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import CheckpointTuple

from core.guard.on_read import Migrate
from core.migrate.chain import Chain, load_chain
from core.migrate.standing import RECORD_KEY

__all__ = [
    "PlanMigration",
    "Record",
    "ThreadRecords",
    "found_record",
    "migration_of",
    "plan_record",
    "record_scope",
    "thread_of",
]

Record = tuple[str, str]  # a `migration` record: (the fork's checkpoint id, the plan's id)
ThreadRecords = list[tuple[str, Record]]  # records, each with its thread's id


@dataclass(frozen=True)
class PlanMigration:
    """A chain of plans as a migration `state -> state`: each state goes through the plans
    from the newest one whose model accepts it (a plan's `model`), else through them all."""

    chain: Chain
    source: str

    def __call__(self, state: dict[str, Any], record: str | None = None) -> dict[str, Any]:
        """`state` through the plans after `record` (the plan its thread's newest `migration`
        record names), else from the newest plan whose model accepts it: the migrate
        command's own way, on one state."""
        return self.chain.migrate(state, record)

    def record_filters(self) -> list[dict[str, str]]:
        """The metadata filters a saver's `list` finds a thread's records with: one per plan
        id (a fork `--apply` wrote records the id of the last plan it applied)."""
        return [{RECORD_KEY: plan} for plan in dict.fromkeys(self.chain.ids) if plan]

    def __repr__(self) -> str:
        return f"PlanMigration({self.source!r}, plans={self.chain.ids!r})"


def migration_of(migrate: Migrate | str | PathLike[str] | None) -> Migrate | None:
    """`migrate=` as the guard calls it: a function as given; a path, the plan or the folder
    chain there, read once (`load_chain`: a plan the migrate command refuses is refused here,
    with its `PlanError` and the TOML line).

    Example:
        >>> import tempfile
        >>> from pathlib import Path
        >>> plan = Path(tempfile.mkdtemp()) / "plan.toml"
        >>> _ = plan.write_text('[[step]]\\npath = "status"\\naction = "map"\\n'
        ...                     'from = "shipped"\\nto = "fulfilled"\\n')
        >>> migration_of(str(plan))({"status": "shipped"})
        {'status': 'fulfilled'}
    """
    if isinstance(migrate, str | PathLike):
        return PlanMigration(load_chain(Path(migrate)), str(migrate))
    return migrate


def plan_record(saved: CheckpointTuple, records: ThreadRecords) -> str | None:
    """The plan `saved` stands after: the newest of its thread's `records` at or before it
    (LangGraph checkpoint ids grow with time; a fork holds its own record), None when none is.

    Example:
        >>> saved = CheckpointTuple({"configurable": {"thread_id": "t", "checkpoint_id": "1ef-2"}},
        ...                         {}, {})
        >>> plan_record(saved, [("t", ("1ef-1", "v2")), ("t", ("1ef-2", "v3")),
        ...                     ("t", ("1ef-3", "v4")), ("u", ("1ef-1", "v4"))])
        'v3'
        >>> plan_record(saved, [("t", ("1ef-3", "v4"))]) is None
        True
    """
    own, thread = str(saved.config["configurable"].get("checkpoint_id") or ""), thread_of(saved)
    before = [record for of, record in records if of == thread and record[0] <= own]
    return max(before)[1] if before else None


def thread_of(saved: CheckpointTuple) -> str:
    return str(saved.config["configurable"]["thread_id"])


def found_record(found: CheckpointTuple, plan: dict[str, str]) -> tuple[str, Record]:
    """A checkpoint a `record_filters` filter found, as its thread's record."""
    return thread_of(found), (str(found.config["configurable"]["checkpoint_id"]), plan[RECORD_KEY])


def record_scope(config: RunnableConfig | None) -> RunnableConfig | None:
    """Where a thread's records are listed: the root of the thread `config` names, or every
    thread (None, or a config naming none)."""
    configurable = (config or {}).get("configurable") or {}
    if "thread_id" not in configurable:
        return None
    return {"configurable": {"thread_id": configurable["thread_id"], "checkpoint_ns": ""}}
