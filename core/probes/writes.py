"""Probes of node writes: are they validated, do bad ones reach the end, do errors name a node?"""

from typing import Any

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError, model_validator

from core.order import SEED_PAYLOAD, build_order_graph
from core.probes._model import ARTICLE_STATE, Check, Probe, describe, outcome

__all__ = ["PROBES"]

_LIMITS = {"recursion_limit": 10}


def _run_faulty(fault: str) -> tuple[dict[str, Any] | None, BaseException | None]:
    return outcome(lambda: build_order_graph([fault]).invoke(SEED_PAYLOAD, _LIMITS))


def _error_text(exc: BaseException | None) -> str:
    return "" if exc is None else describe(exc)


def probe_only_first_input_validated() -> list[Check]:
    events: list[str] = []

    class Counter(BaseModel):
        n: int = 0

        @model_validator(mode="before")
        @classmethod
        def record(cls, data: Any) -> Any:
            events.append("validate")
            return data

    def node(name: str) -> Any:
        def write(state: Counter) -> dict[str, int]:
            events.append(name)
            return {"n": state.n + 1}

        return write

    builder = StateGraph(Counter)
    for name in ("a", "b", "c"):
        builder.add_node(name, node(name))
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    builder.add_edge("c", END)
    builder.compile().invoke({"n": 0}, _LIMITS)
    _, exc = _run_faulty("negative_amount")
    return [
        Check(
            expected="the state model validates once, before the first node (a -> b -> c)",
            observed=f"validator and node calls in order: {events}",
            matches=events.count("validate") == 1,
        ),
        Check(
            expected="validate_order's write amount=-1 passes unchecked into confirm",
            observed=_error_text(exc) or "no exception: confirm ran on amount=-1",
            matches=exc is None,
        ),
    ]


def probe_invalid_write_reaches_final_state() -> list[Check]:
    middle, middle_exc = _run_faulty("negative_amount")
    last, last_exc = _run_faulty("bad_status_last")
    return [
        Check(
            expected="validate_order (not last) writes amount=-1; the final state has amount=-1",
            observed=_error_text(middle_exc) or f"final amount={(middle or {})['amount']!r}",
            matches=middle is not None and middle.get("amount") == -1,
        ),
        Check(
            expected='confirm (last node) writes status="shipped"; the final state has it',
            observed=_error_text(last_exc) or f"final status={(last or {})['status']!r}",
            matches=last is not None and last.get("status") == "shipped",
        ),
    ]


def _named_nodes(exc: BaseException | None, nodes: tuple[str, ...]) -> list[str]:
    text = _error_text(exc)
    return [node for node in nodes if f"'{node}'" in text]


def probe_errors_do_not_name_node() -> list[Check]:
    nodes = ("validate_order", "confirm")
    _, gate_exc = outcome(
        lambda: build_order_graph().invoke({**SEED_PAYLOAD, "amount": -1}, _LIMITS)
    )
    _, write_exc = _run_faulty("negative_amount")
    gate_named = _named_nodes(gate_exc, nodes)
    write_named = _named_nodes(write_exc, nodes)
    return [
        Check(
            expected="the gate error (input amount=-1) names no node",
            observed=f"nodes named: {gate_named}\n{_error_text(gate_exc)}",
            matches=isinstance(gate_exc, ValidationError) and not gate_named,
        ),
        Check(
            expected="the error for validate_order's bad write names no node",
            observed=f"nodes named: {write_named}\n{_error_text(write_exc)}",
            matches=isinstance(write_exc, ValidationError) and not write_named,
        ),
        Check(
            expected="the writer of the bad value (validate_order) is not named",
            observed=f"nodes named: {write_named}",
            matches="validate_order" not in write_named,
        ),
    ]


PROBES = (
    Probe(
        id="only_first_input_validated",
        claim="Only the first node's input is validated; later node writes are not checked.",
        source=f"{ARTICLE_STATE} § 4.1 data path, step 5;"
        " § 4.2 limits: 'only the first node's input is validated'",
        run=probe_only_first_input_validated,
    ),
    Probe(
        id="invalid_write_reaches_final_state",
        claim="A node that writes an invalid value silently reaches the final state.",
        source=f"{ARTICLE_STATE} § 4.1 ('mistaking step 2 for a check at every step');"
        " § 8 pitfall 2",
        run=probe_invalid_write_reaches_final_state,
    ),
    Probe(
        id="errors_do_not_name_node",
        claim="Validation errors do not name the node; the trace only mentions the schema.",
        source=f"{ARTICLE_STATE} § 4.2 limits: 'errors do not name the node'",
        run=probe_errors_do_not_name_node,
    ),
)
