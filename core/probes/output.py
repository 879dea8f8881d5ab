"""Probe of what `invoke` returns: a dict or the state model, nested models or dicts."""

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.probes._model import ARTICLE_STATE, Check, article_probe, describe, outcome

__all__ = ["PROBES"]


def probe_invoke_returns_dict() -> list[Check]:
    graph = build_order_graph()
    result = graph.invoke(SEED_PAYLOAD, {"recursion_limit": 10})
    item = result["items"][0]
    v2 = graph.invoke(SEED_PAYLOAD, {"recursion_limit": 10}, version="v2")
    rebuilt, exc = outcome(lambda: AgentState(**result))
    return [
        Check(
            expected="type(graph.invoke(...)) is dict, not AgentState",
            observed=(
                f"{type(result).__name__}; amount={result['amount']!r} "
                f"(input was {SEED_PAYLOAD['amount']!r}); "
                f"invoke(..., version='v2') returns {type(v2).__name__}"
                f"(value={type(getattr(v2, 'value', None)).__name__})"
            ),
            matches=type(result) is dict,
        ),
        Check(
            expected="the nested LineItem comes back as a dict",
            observed=f"{type(item).__name__}: {item!r}",
            matches=type(item) is dict,
        ),
        Check(
            expected="AgentState(**result) rebuilds the model",
            observed=describe(exc)
            if exc
            else f"{type(rebuilt).__name__}(status={rebuilt.status!r})",
            matches=isinstance(rebuilt, AgentState),
        ),
    ]


_probe = article_probe(ARTICLE_STATE)

PROBES = (
    _probe(
        "invoke_returns_dict",
        "invoke returns a dict, not the model; nested models come back as dicts.",
        "3 invoke lifecycle, step 6; § 4.1 data path, step 6",
        probe_invoke_returns_dict,
    ),
)
