"""Which row a run opens on, and its one headline, for every seed fault in both modes.

Every case is a real run of the seed graphs (LangGraph's error, its checkpoints, our checks).
"""

from __future__ import annotations

import pytest

from core.order import FAULTS, SEED_PAYLOAD, build_order_graph
from core.trace import run_trace
from core.trace.focus import Headline, failure_flag, headline, opened_row

_DROPPED = Headline(
    "warning",
    "LangGraph finished without raising, but step 1 lost data silently: validate_order "
    "returned totl=1, a key the state does not declare, and LangGraph discarded it.",
)
_OVERWRITTEN = Headline(
    "warning",
    "LangGraph finished without raising, but step 2 lost data silently: confirm's Overwrite "
    'replaced logs, bypassing operator.add (it held ["amount=99.0 items=1"], now ["confirmed"]).',
)
_CONCURRENT = (
    "InvalidUpdateError: At key 'status': Can receive only one value per step. Use an "
    "Annotated key to handle multiple values."
)
# fault -> (checked, native): the row opened as (step, node), and the headline.
EXPECTED = {
    None: (
        (None, Headline("success", "LangGraph finished the run without raising.")),
        (None, Headline("success", "LangGraph finished the run without raising.")),
    ),
    "negative_amount": (
        (
            (1, "validate_order"),
            Headline(
                "error",
                "LangGraph stopped at step 2 before confirm [input_invalid]: ValidationError: "
                "1 validation error for AgentState — validate_order wrote amount=-1.",
            ),
        ),
        (
            (1, "validate_order"),  # the state LangGraph refused to rebuild; nobody blamed
            Headline(
                "error",
                "LangGraph stopped at step 2 before confirm [input_invalid]: ValidationError: "
                "1 validation error for AgentState.",
            ),
        ),
    ),
    "bad_status_last": (
        (
            (2, "confirm"),
            Headline(
                "warning",
                'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".',
            ),
        ),
        (
            (2, "confirm"),
            Headline(
                "warning",
                "LangGraph finished, but its output does not validate with AgentState: "
                'status="shipped" (literal_error).',
            ),
        ),
    ),
    # A silent loss is LangGraph's own doing (read off its checkpoints): said in both modes.
    "undeclared_key": (((1, "validate_order"), _DROPPED), ((1, "validate_order"), _DROPPED)),
    "parallel_status": (
        (
            (1, "audit"),
            Headline(
                "error",
                f"LangGraph stopped at step 1 [concurrent_update]: {_CONCURRENT} — written by "
                "audit, validate_order.",
            ),
        ),
        (
            (1, "audit"),
            Headline("error", f"LangGraph stopped at step 1 [concurrent_update]: {_CONCURRENT}"),
        ),
    ),
    "overwrite_logs": (((2, "confirm"), _OVERWRITTEN), ((2, "confirm"), _OVERWRITTEN)),
    "node_exception": (
        (
            (2, "confirm"),
            Headline(
                "error",
                "LangGraph stopped at step 2 in confirm [node_error]: RuntimeError: payment "
                "service unavailable.",
            ),
        ),
        (
            (2, "confirm"),
            Headline(
                "error",
                "LangGraph stopped at step 2 in confirm [node_error]: RuntimeError: payment "
                "service unavailable.",
            ),
        ),
    ),
}


def test_every_fault_is_covered():
    assert set(EXPECTED) - {None} == set(FAULTS)


@pytest.mark.parametrize("fault", list(EXPECTED))
@pytest.mark.parametrize("checked", [True, False], ids=["checked", "native"])
def test_a_run_opens_on_its_first_failure_or_loss_under_one_headline(fault, checked):
    trace = run_trace(
        build_order_graph([fault] if fault else []), SEED_PAYLOAD, check_each_step=checked
    )
    index = opened_row(trace)
    opened = None if index is None else (trace.steps[index].step, trace.steps[index].node)
    assert (opened, headline(trace)) == EXPECTED[fault][0 if checked else 1]


def test_native_headlines_never_name_a_writer():
    for fault in FAULTS:
        trace = run_trace(build_order_graph([fault]), SEED_PAYLOAD, check_each_step=False)
        text = headline(trace).text
        assert " wrote " not in text and "written by" not in text, (fault, text)


def test_the_opened_rows_flag_blames_nobody_natively():
    flags = {}
    for fault in FAULTS:
        for checked in (True, False):
            graph = build_order_graph([fault])
            trace = run_trace(graph, SEED_PAYLOAD, check_each_step=checked)
            flags[fault, checked] = failure_flag(trace)
    assert flags == {
        ("negative_amount", True): "first failure",
        ("negative_amount", False): "state at the error",
        ("bad_status_last", True): "first failure",
        ("bad_status_last", False): "final state",
        ("undeclared_key", True): "",
        ("undeclared_key", False): "",
        ("parallel_status", True): "first failure",
        ("parallel_status", False): "raised here",
        ("overwrite_logs", True): "",
        ("overwrite_logs", False): "",
        ("node_exception", True): "first failure",
        ("node_exception", False): "raised here",
    }
