"""Which row a run opens on, its one headline, super-steps, unwritten defaults, fork diffs.

Every case is a real run of the seed graphs (LangGraph's error, its checkpoints, our checks).
"""

from __future__ import annotations

import pytest

from core.order import FAULTS, SEED_PAYLOAD, build_fanout_graph, build_order_graph
from core.trace import run_trace
from core.trace.focus import Headline, first_failure, headline
from core.trace.fork import fork_diff, fork_trace
from core.trace.merge import merge_view, super_step, unwritten_defaults

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
    "undeclared_key": (
        (None, Headline("success", "LangGraph finished the run without raising.")),
        (None, Headline("success", "LangGraph finished the run without raising.")),
    ),
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
    "overwrite_logs": (
        (None, Headline("success", "LangGraph finished the run without raising.")),
        (None, Headline("success", "LangGraph finished the run without raising.")),
    ),
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
def test_a_run_opens_on_its_first_failure_under_one_headline(fault, checked):
    trace = run_trace(
        build_order_graph([fault] if fault else []), SEED_PAYLOAD, check_each_step=checked
    )
    index = first_failure(trace)
    opened = None if index is None else (trace.steps[index].step, trace.steps[index].node)
    assert (opened, headline(trace)) == EXPECTED[fault][0 if checked else 1]


def test_native_headlines_never_name_a_writer():
    for fault in FAULTS:
        trace = run_trace(build_order_graph([fault]), SEED_PAYLOAD, check_each_step=False)
        text = headline(trace).text
        assert " wrote " not in text and "written by" not in text, (fault, text)


def test_a_fan_out_step_is_one_super_step_and_its_merge_says_whose_writes_it_holds():
    trace = run_trace(build_fanout_graph(), SEED_PAYLOAD)
    assert [super_step(trace, i) for i in range(len(trace.steps))] == [
        ["__start__"],
        ["validate_order"],
        ["notify_email", "notify_sms"],
        ["notify_email", "notify_sms"],
        ["confirm"],
    ]
    email = merge_view(trace, 2)
    assert [(row["field"], row["update"], row["why"]) for row in email] == [
        ("logs", '["email sent"]', "merged in super-step 2 with the write of notify_sms"),
        ("messages", email[1]["update"], "merged in super-step 2 with the write of notify_sms"),
    ]
    # after holds both writes: that is why notify_email's row already shows "sms sent"
    assert email[0]["after"] == '["amount=99.0 items=1", "email sent", "sms sent"]'
    assert [row["why"] for row in merge_view(trace, 4)] == ["", ""]


def test_a_default_never_written_to_a_channel_is_named_with_the_value_the_node_saw():
    trace = run_trace(build_order_graph(), SEED_PAYLOAD)
    assert [unwritten_defaults(trace, i) for i in range(3)] == [
        {"status": "pending", "items": []},  # the model's defaults: no node input yet
        {"status": "pending"},  # validate_order's real input
        {},
    ]
    status = merge_view(trace, 1)[0]
    assert status == {
        "field": "status",
        "before": "(unset)",
        "update": '"validated"',
        "reducer": "last value",
        "after": '"validated"',
        "why": "never written to the channel before; the node's input showed the model's "
        'default "pending"',
    }
    assert trace.steps[1].input.status == "pending"  # what the node really saw
    assert "status" not in trace.steps[1].before  # and LangGraph's channel never held


def test_a_fork_diff_lists_each_edited_leaf_and_nothing_else():
    trace = run_trace(build_order_graph(), SEED_PAYLOAD)
    state = trace.steps[1].state
    edited = {**state, "status": "pending", "logs": [*state["logs"], "x"], "amount": 5}
    edited["items"] = [{**state["items"][0], "qty": 3}]
    assert fork_diff(state, edited) == [
        {"path": "amount", "original": "99", "edited": "5"},
        {"path": "status", "original": '"validated"', "edited": '"pending"'},
        {"path": "items[0].qty", "original": "2", "edited": "3"},
        {"path": "logs[1]", "original": "(absent)", "edited": '"x"'},
    ]
    assert fork_diff(state, state) == []
    fork = fork_trace(trace, 1, edited)  # the same edit, forked for real: it runs
    assert [(s.node, s.status) for s in fork.steps] == [
        ("update_state", "pending"),
        ("confirm", "confirmed"),
    ]
