"""A fork's edit: the diff of what it changed, and where its text fails (real runs)."""

from __future__ import annotations

from core.order import SEED_PAYLOAD, AgentState, build_order_graph
from core.trace import run_trace
from core.trace.fork import edit_errors, fork_diff, fork_trace


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


def test_an_edit_is_checked_where_it_is_typed_syntax_first_then_the_model():
    text = '{\n  "user_id": "x",\n  "amount": -1\n}'
    assert edit_errors(text, AgentState) == [
        (2, 14, "user_id: Input should be a valid UUID, invalid character: found `x` at 0"),
        (3, 13, "amount: Input should be greater than or equal to 0"),
    ]  # fmt: skip
    assert edit_errors('{"amount": 1,}', AgentState)[0][:2] == (1, 13)  # at the comma
    assert edit_errors('{"amount": "x"}', None) == []  # no model: only the syntax is checked
