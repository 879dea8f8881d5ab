"""An unbrick plan written as a fork of any store (`Backend.write_fork`), and a server's
fork checked there: the thread reads again and its new head fits the model."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from core.order.graph import CompiledGraph
from core.stores.backends.any_store import open_any
from core.stores.backends.server import RemoteStore, ServerRefusal
from core.stores.decode.serde import StrictSerializer
from core.stores.decode.state import json_state_errors
from core.stores.write.unbrick import UnbrickCode, UnbrickError, UnbrickPlan, require_writes

__all__ = ["write_fork"]


def write_fork(
    spec: str, plan: UnbrickPlan, graph: CompiledGraph | None, serde: StrictSerializer
) -> RunnableConfig:
    """Write an unbrick `plan` as a fork of `plan.checkpoint_id`, as `plan.as_node`: through
    `graph.update_state` on LangGraph's own saver for a file or a database, through the
    server's API for a server (`graph` unused), then checked there: get_state answers 200
    and the new head's values validate in JSON mode. Returns the new checkpoint's config.
    Refused unless writes are enabled; nothing else is written.
    """
    require_writes(spec)
    with open_any(spec, serde) as store:
        try:
            config = store.write_fork(
                plan.thread_id,
                plan.checkpoint_id,
                plan.values,
                plan.as_node,
                replaced=plan.replaced,
                graph=graph,
            )
        except ServerRefusal as refusal:
            raise UnbrickError(
                UnbrickCode.WRITE_FAILED,
                f"the server refused the write ({refusal.status}: {refusal.message}); nothing "
                "was changed.",
            ) from None
        store.pick(database=lambda _: None, server=lambda server: _check(server, plan))
    return config


def _check(store: RemoteStore, plan: UnbrickPlan) -> None:
    """The thread reads again through the API, and its new head fits the model."""
    try:
        state = store.state(plan.thread_id)
    except ServerRefusal as refusal:
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"written, but the server's get_state still answers {refusal.status} "
            f"({refusal.message}); read the thread again before writing more.",
        ) from None
    errors = json_state_errors(state.get("values"), plan.report.model)
    if errors:
        first = errors[0]
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"written, but the thread's new state still fails the model ({first['type']} at "
            f"{'.'.join(map(str, first['loc']))}); read the thread again before writing more.",
        )
