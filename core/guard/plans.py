"""`migrate=` given a path: the plan there (a TOML file, as `python -m core migrate --plan`
reads it, or a folder of plans chained by `id` and `after`), as the function the guard calls
on each stored state the model rejects."""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from core.guard.on_read import Migrate
from core.migrate.chain import Chain, load_chain

__all__ = ["PlanMigration", "migration_of"]


@dataclass(frozen=True)
class PlanMigration:
    """A chain of plans as a migration `state -> state`: each state goes through the plans
    from the newest one whose model accepts it (a plan's `model`), else through them all."""

    chain: Chain
    source: str

    def __call__(self, state: dict[str, Any]) -> dict[str, Any]:
        return self.chain.migrate(state)  # the migrate command's own, on one state

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
