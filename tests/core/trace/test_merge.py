"""The merge view's notes, read off real runs: super-steps and defaults never written."""

from __future__ import annotations

from core.order import SEED_PAYLOAD, build_fanout_graph, build_order_graph
from core.trace import run_trace
from core.trace.merge import merge_view, super_step, unwritten_defaults


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
