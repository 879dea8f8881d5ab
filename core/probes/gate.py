"""Probes of the entry gate: does the Pydantic state stop bad input before the first node?"""

from typing import Any

from pydantic import ValidationError

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.probes._model import ARTICLE_STATE, Check, Probe, describe, outcome

__all__ = ["PROBES"]

# The four rejected inputs of the article's section 7, applied to its own order payload.
_BAD_INPUTS: dict[str, dict[str, Any]] = {
    'user_id="not-a-uuid"': {**SEED_PAYLOAD, "user_id": "not-a-uuid"},
    "amount=-1": {**SEED_PAYLOAD, "amount": -1},
    'sku="bad sku"': {**SEED_PAYLOAD, "items": [{"sku": "bad sku", "qty": 1, "unit_price": 1}]},
    "unknown=True (extra key)": {**SEED_PAYLOAD, "unknown": True},
}


def _nodes_reached(payload: dict[str, Any]) -> tuple[list[str], BaseException | None]:
    reached: list[str] = []

    def stream() -> None:
        graph = build_order_graph()
        for chunk in graph.stream(payload, {"recursion_limit": 10}, stream_mode="updates"):
            reached.extend(chunk)

    _, exc = outcome(stream)
    return reached, exc


def probe_gate_blocks_invalid_input() -> list[Check]:
    checks = []
    for label, payload in _BAD_INPUTS.items():
        reached, exc = _nodes_reached(payload)
        raised = describe(exc) if exc else "no exception"
        checks.append(
            Check(
                expected=f"{label}: ValidationError, no node runs",
                observed=f"{raised}\nnodes that ran: {reached}",
                matches=isinstance(exc, ValidationError) and not reached,
            )
        )
    return checks


def probe_extra_forbid_rejects_unknown_keys() -> list[Check]:
    payload = {**SEED_PAYLOAD, "unknown": True}
    result, exc = outcome(lambda: build_order_graph().invoke(payload, {"recursion_limit": 10}))
    via_graph = describe(exc) if exc else f"returned keys {sorted(result)}"
    _, direct_exc = outcome(lambda: AgentState.model_validate(payload))
    via_model = describe(direct_exc) if direct_exc else "accepted"
    return [
        Check(
            expected="graph.invoke({..., 'unknown': True}) raises extra_forbidden",
            observed=via_graph,
            matches=isinstance(exc, ValidationError),
        ),
        Check(
            expected="AgentState.model_validate({..., 'unknown': True}) raises extra_forbidden",
            observed=via_model,
            matches=isinstance(direct_exc, ValidationError),
        ),
    ]


PROBES = (
    Probe(
        id="gate_blocks_invalid_input",
        claim="The Pydantic gate runs before the first node; invalid input never reaches a node.",
        source=f"{ARTICLE_STATE} § 3 invoke lifecycle, step 2; § 7 execution trace",
        run=probe_gate_blocks_invalid_input,
    ),
    Probe(
        id="extra_forbid_rejects_unknown_keys",
        claim='Unknown input keys are rejected when the state model sets extra="forbid".',
        source=f"{ARTICLE_STATE} § 4.1 data path, step 2; § 5.7 ConfigDict",
        run=probe_extra_forbid_rejects_unknown_keys,
    ),
)
