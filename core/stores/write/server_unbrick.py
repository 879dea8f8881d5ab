"""Unbrick a thread on a LangGraph server: the fork written through its API, then checked there."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from core.stores.backends.server import OVERWRITE
from core.stores.decode.serde import strict_serde
from core.stores.write.fork import write_fork
from core.stores.write.unbrick import UnbrickPlan

__all__ = ["OVERWRITE", "write_unbrick_server"]


def write_unbrick_server(spec: str, plan: UnbrickPlan) -> RunnableConfig:
    """Write `plan` with the server's threads.update_state (a fork of `plan.checkpoint_id`,
    as `plan.as_node`), then check through the API that the thread reads again
    (`write.fork.write_fork`). Returns the new checkpoint's config. Refused unless writes
    are enabled; nothing else is written.
    """
    return write_fork(spec, plan, None, strict_serde([]))
