"""The old path `core.stores.unbrick`: the names of `core.stores.write.unbrick`."""

from __future__ import annotations

from core.stores.write.unbrick import (
    WRITES_ENV,
    UnbrickCode,
    UnbrickError,
    UnbrickPlan,
    plan_unbrick,
    require_writes,
    writable_saver,
    write_unbrick,
    writes_enabled,
)

__all__ = [
    "UnbrickCode",
    "UnbrickError",
    "UnbrickPlan",
    "WRITES_ENV",
    "plan_unbrick",
    "require_writes",
    "writable_saver",
    "write_unbrick",
    "writes_enabled",
]
