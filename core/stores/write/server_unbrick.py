"""Unbrick a thread on a LangGraph server: the fork written through its API, then checked there."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from core.jsontext.write import jsonable
from core.stores.backends.server import RemoteStore, ServerRefusal, open_server
from core.stores.backends.spec import parse_store_spec
from core.stores.decode.state import json_state_errors
from core.stores.write.unbrick import UnbrickCode, UnbrickError, UnbrickPlan, require_writes

__all__ = ["OVERWRITE", "write_unbrick_server"]

# LangGraph's JSON form of `Overwrite` (langgraph.channels.binop reads it): a field with a
# reducer is replaced, not merged, when its update is {"__overwrite__": value}
OVERWRITE = "__overwrite__"


def write_unbrick_server(spec: str, plan: UnbrickPlan) -> RunnableConfig:
    """Write `plan` with the server's threads.update_state (a fork of `plan.checkpoint_id`,
    as `plan.as_node`), then check through the API that the thread reads again: get_state
    answers 200 and the new head's values validate in JSON mode. Returns the new
    checkpoint's config. Refused unless writes are enabled; nothing else is written.
    """
    require_writes(spec)
    values = {
        key: {OVERWRITE: jsonable(value)} if key in plan.replaced else jsonable(value)
        for key, value in plan.values.items()
    }
    with open_server(parse_store_spec(spec)) as store:
        try:
            written = store.update_state(plan.thread_id, values, plan.as_node, plan.checkpoint_id)
        except ServerRefusal as refusal:
            raise UnbrickError(
                UnbrickCode.WRITE_FAILED,
                f"the server refused the write ({refusal.status}: {refusal.message}); nothing "
                "was changed.",
            ) from None
        _check(store, plan)
    config: RunnableConfig = {"configurable": dict(written["checkpoint"])}
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
