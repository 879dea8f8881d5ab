"""run_trace against real LangGraph runs: the reference table, every fault, bounds, forks."""

from __future__ import annotations

import json
import operator
import re
import time
import tomllib
from pathlib import Path
from typing import Annotated, TypedDict

import pytest
from langgraph.graph import END, START, StateGraph

from core.order import SEED_PAYLOAD, AgentState, build_fanout_graph, build_order_graph
from core.trace import TraceError, run_trace
from core.trace.diagram import CURRENT_FILL
from core.trace.fork import ForkError, fork_trace
from core.trace.reducers import dump_json

ROOT = Path(__file__).resolve().parents[3]
START_ROW = {
    "step": 0, "node": "__start__", "status": "pending", "logs": "[]", "messages": 1,
    "changed": "user_id, amount, items, messages",
    "reducers": "user_id: last value, amount: last value, items: last value, messages: add_messages",
    "check": "✓", "blame": "", "error": "",
}  # fmt: skip
VALIDATED_ROW = {
    "step": 1, "node": "validate_order", "status": "validated",
    "logs": '["amount=99.0 items=1"]', "messages": 2, "changed": "status, logs, messages",
    "reducers": "status: last value, logs: operator.add, messages: add_messages",
    "check": "✓", "blame": "", "error": "",
}  # fmt: skip
CONFIRMED_ROW = {
    "step": 2, "node": "confirm", "status": "confirmed",
    "logs": '["amount=99.0 items=1", "confirmed"]', "messages": 2, "changed": "status, logs",
    "reducers": "status: last value, logs: operator.add", "check": "✓", "blame": "", "error": "",
}  # fmt: skip
NEGATIVE_MESSAGE = (
    "1 validation error for AgentState\namount\n  Input should be greater than or equal to 0 "
    "[type=greater_than_equal, input_value=-1, input_type=int]\n"
    "    For further information visit https://errors.pydantic.dev/2.14/v/greater_than_equal"
)
CONCURRENT_MESSAGE = (
    "At key 'status': Can receive only one value per step. Use an Annotated key to handle "
    "multiple values.\nFor troubleshooting, visit: "
    "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CONCURRENT_GRAPH_UPDATE"
)


def _ids(n: int) -> str:
    return f"msg-{n}"


def _trace(faults: tuple[str, ...] = (), **options):
    return run_trace(build_order_graph(faults), SEED_PAYLOAD, message_ids=_ids, **options)


def _native(row: dict) -> dict:
    # LangGraph native checks nothing and blames nobody: no blame column at all.
    return {k: v for k, v in row.items() if k != "blame"} | {"check": "not checked"}


def _stable(values: list) -> str:
    # LangGraph's message ids are uuid4s: rename them in order of first appearance.
    text, names = dump_json(values), {}
    return re.sub(
        r'"id": "([0-9a-f-]{36})"',
        lambda m: f'"id": "m{names.setdefault(m.group(1), len(names) + 1)}"',
        text,
    )


def test_valid_seed_reproduces_the_reference_table():
    trace = _trace()

    assert (trace.gate_errors, trace.error) == ([], None)
    assert trace.rows() == [START_ROW, VALIDATED_ROW, CONFIRMED_ROW]
    assert trace.steps[1].merges() == [
        {"field": "status", "before": "(unset)", "update": '"validated"',
         "reducer": "last value", "after": '"validated"'},
        {"field": "logs", "before": "[]", "update": '["amount=99.0 items=1"]',
         "reducer": "operator.add", "after": '["amount=99.0 items=1"]'},
        {"field": "messages",
         "before": '[{"type": "human", "content": "Order, please", "id": "msg-1"}]',
         "update": '[{"type": "ai", "content": "Order validated", "id": "msg-2"}]',
         "reducer": "add_messages",
         "after": '[{"type": "human", "content": "Order, please", "id": "msg-1"}, '
                  '{"type": "ai", "content": "Order validated", "id": "msg-2"}]'},
    ]  # fmt: skip


@pytest.mark.parametrize("build", [build_order_graph, build_fanout_graph])
def test_step_states_equal_langgraph_stream_values(build):
    expected = list(build().stream(SEED_PAYLOAD, stream_mode="values"))

    trace = run_trace(build(), SEED_PAYLOAD)

    states = {step.step: step.state for step in trace.steps}  # parallel rows share a state
    assert _stable(list(states.values())) == _stable(expected)
    assert _stable(trace.output) == _stable(expected[-1])


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"user_id": "not-a-uuid"}, [("uuid_parsing", "user_id")]),
        ({"amount": -1}, [("greater_than_equal", "amount")]),
        (
            {"items": [{"sku": "bad sku", "qty": 2, "unit_price": 49.5}]},
            [("string_pattern_mismatch", "items[0].sku")],
        ),
        ({"coupon": "WELCOME10"}, [("extra_forbidden", "coupon")]),
    ],
)
def test_closed_gate_means_the_graph_never_runs(change, expected):
    trace = run_trace(build_order_graph(), {**SEED_PAYLOAD, **change})

    assert [(e.type, e.path) for e in trace.gate_errors] == expected
    assert (trace.steps, trace.graph, trace.output, trace.rows()) == ([], None, None, [])


def test_unknown_key_is_rejected_even_though_langgraph_drops_it():
    payload = {**SEED_PAYLOAD, "coupon": "WELCOME10"}

    output = build_order_graph().invoke(payload)  # LangGraph: no error, key silently gone

    assert "coupon" not in output and output["status"] == "confirmed"
    assert [e.type for e in run_trace(build_order_graph(), payload).gate_errors] == [
        "extra_forbidden"
    ]


def test_negative_amount_is_caught_at_validate_order_but_langgraph_names_confirm():
    checked, native = (
        _trace(("negative_amount",)),
        _trace(("negative_amount",), check_each_step=False),
    )

    bad_write = VALIDATED_ROW | {
        "changed": "status, logs, messages, amount",
        "reducers": "status: last value, logs: operator.add, messages: add_messages, amount: last value",
    }  # fmt: skip
    assert checked.rows() == [
        START_ROW,
        bad_write | {"check": "amount: greater_than_equal", "blame": "validate_order"},
    ]
    assert native.rows() == [_native(START_ROW), _native(bad_write)]
    error = TraceError(
        "input_invalid", 2, "confirm", "validate_order", "ValidationError", NEGATIVE_MESSAGE
    )
    assert (checked.error, native.error, checked.output) == (error, error, None)


def test_bad_status_from_the_last_node_succeeds_natively_and_is_flagged_when_checked():
    checked, native = (
        _trace(("bad_status_last",)),
        _trace(("bad_status_last",), check_each_step=False),
    )

    shipped = CONFIRMED_ROW | {"status": "shipped"}
    assert native.rows() == [_native(START_ROW), _native(VALIDATED_ROW), _native(shipped)]
    assert checked.rows() == [
        START_ROW,
        VALIDATED_ROW,
        shipped | {"check": "status: literal_error", "blame": "confirm"},
    ]
    assert (native.error, checked.error) == (None, None)
    assert json.loads(dump_json(native.output)) == {
        "user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 99, "status": "shipped",
        "items": [{"sku": "SKU-01", "qty": 2, "unit_price": 49.5}],
        "logs": ["amount=99.0 items=1", "confirmed"],
        "messages": [{"type": "human", "content": "Order, please", "id": "msg-1"},
                     {"type": "ai", "content": "Order validated", "id": "msg-2"}],
    }  # fmt: skip


def test_undeclared_key_write_is_shown_as_silently_dropped():
    trace = _trace(("undeclared_key",))

    dropped = VALIDATED_ROW | {"reducers": VALIDATED_ROW["reducers"] + ", totl: dropped"}
    assert trace.rows() == [START_ROW, dropped, CONFIRMED_ROW]
    step = trace.steps[1]
    assert (step.update["totl"], "totl" in step.state, trace.error) == (1, False, None)
    assert step.merges()[-1] == {
        "field": "totl", "before": "(unset)", "update": "1", "reducer": "dropped",
        "after": "(not a state field: discarded)",
    }  # fmt: skip


def test_parallel_status_writes_name_both_writers():
    trace = _trace(("parallel_status",))

    unmerged = {"status": "pending", "logs": "[]", "messages": 1, "check": "not merged",
                "blame": "", "error": "InvalidUpdateError: " + CONCURRENT_MESSAGE.splitlines()[0]}  # fmt: skip
    assert trace.rows() == [
        START_ROW,
        unmerged | {"step": 1, "node": "audit", "changed": "status", "reducers": "status: last value"},
        unmerged | {"step": 1, "node": "validate_order", "changed": VALIDATED_ROW["changed"],
                    "reducers": VALIDATED_ROW["reducers"]},
    ]  # fmt: skip
    assert trace.error == TraceError(
        "concurrent_update",
        1,
        "",
        "audit, validate_order",
        "InvalidUpdateError",
        CONCURRENT_MESSAGE,
    )
    assert [step.update for step in trace.steps[1:]][0] == {"status": "pending"}


def test_overwrite_bypasses_the_logs_reducer_in_the_merge_view():
    trace = _trace(("overwrite_logs",))

    overwritten = CONFIRMED_ROW | {
        "logs": '["confirmed"]',
        "reducers": "status: last value, logs: Overwrite",
    }
    assert trace.rows() == [START_ROW, VALIDATED_ROW, overwritten]
    assert trace.steps[2].merges()[1] == {
        "field": "logs", "before": '["amount=99.0 items=1"]', "update": '{"Overwrite": ["confirmed"]}',
        "reducer": "Overwrite", "after": '["confirmed"]',
    }  # fmt: skip


def test_node_exception_shows_the_node_the_exception_and_the_state_before_it():
    trace = _trace(("node_exception",))

    failed = VALIDATED_ROW | {"step": 2, "node": "confirm", "changed": "", "reducers": "",
                              "check": "not merged", "error": "RuntimeError: payment service unavailable"}  # fmt: skip
    assert trace.rows() == [START_ROW, VALIDATED_ROW, failed]
    assert trace.error == TraceError(
        "node_error", 2, "confirm", "confirm", "RuntimeError", "payment service unavailable"
    )
    step = trace.steps[2]
    assert (step.state, step.update, step.committed) == (trace.steps[1].state, None, False)
    assert isinstance(step.input, AgentState) and step.input.status == "validated"


def test_an_exception_without_a_message_still_makes_a_trace():
    def check(state: AgentState) -> dict:
        raise ValueError()  # as a bare `assert` does: str(exc) == ""

    builder = StateGraph(AgentState)
    builder.add_node("check", check)
    builder.add_edge(START, "check")
    builder.add_edge("check", END)
    trace = run_trace(builder.compile(), SEED_PAYLOAD, message_ids=_ids)

    failed = START_ROW | {"step": 1, "node": "check", "changed": "", "reducers": "",
                          "check": "not merged", "error": "ValueError: "}  # fmt: skip
    assert trace.rows() == [START_ROW, failed]
    assert trace.error == TraceError("node_error", 1, "check", "check", "ValueError", "")
    assert str(trace.error) == "[node_error] step 1, node check: ValueError: "


def test_fanout_merges_two_simultaneous_appends():
    trace = run_trace(build_fanout_graph(), SEED_PAYLOAD, message_ids=_ids)

    merged = {"step": 2, "status": "validated", "messages": 4, "changed": "logs, messages",
              "logs": '["amount=99.0 items=1", "email sent", "sms sent"]',
              "reducers": "logs: operator.add, messages: add_messages", "check": "✓", "blame": "", "error": ""}  # fmt: skip
    assert trace.rows() == [
        START_ROW,
        VALIDATED_ROW,
        merged | {"node": "notify_email"},
        merged | {"node": "notify_sms"},
        CONFIRMED_ROW | {"step": 3, "messages": 4,
                         "logs": '["amount=99.0 items=1", "email sent", "sms sent", "confirmed"]'},
    ]  # fmt: skip
    assert trace.steps[3].merges()[0] == {
        "field": "logs", "before": '["amount=99.0 items=1"]', "update": '["sms sent"]',
        "reducer": "operator.add", "after": '["amount=99.0 items=1", "email sent", "sms sent"]',
    }  # fmt: skip


def _looping_graph(pause: float = 0.0):
    class Counter(TypedDict):
        n: Annotated[int, operator.add]

    def tick(state: Counter) -> dict:
        time.sleep(pause)
        return {"n": 1}

    builder = StateGraph(Counter)
    builder.add_node("tick", tick)
    builder.add_edge(START, "tick")
    builder.add_conditional_edges("tick", lambda s: "tick" if s["n"] < 1000 else END)
    return builder.compile()


def test_runs_are_bounded_by_recursion_limit_and_wall_clock():
    looped = run_trace(_looping_graph(), {"n": 0}, recursion_limit=5)
    started = time.perf_counter()
    slow = run_trace(_looping_graph(pause=0.02), {"n": 0}, timeout_s=0.05)
    elapsed = time.perf_counter() - started

    assert (looped.error.code, looped.error.type, len(looped.steps)) == (
        "recursion_limit",
        "GraphRecursionError",
        6,
    )
    assert (slow.error.code, slow.error.type) == ("trace_timeout", "TraceTimeout")
    # 1,000 ticks of 20 ms would take 20 s; the guard stops the run after a few ticks
    # (how many depends on the machine's load, so only the bound is asserted).
    assert slow.steps[0].node == "__start__" and {s.node for s in slow.steps[1:]} <= {"tick"}
    assert elapsed < 5


def test_typed_dict_state_runs_without_gate_or_checks():
    trace = run_trace(_looping_graph(), {"n": 998})

    assert [(s.node, s.state, s.reducers, s.violations) for s in trace.steps] == [
        ("__start__", {"n": 998}, {"n": "operator.add"}, []),
        ("tick", {"n": 999}, {"n": "operator.add"}, []),
        ("tick", {"n": 1000}, {"n": "operator.add"}, []),
    ]
    assert trace.output == {"n": 1000}


@pytest.mark.parametrize(
    ("payload", "error"),
    [
        ([1], ("input_not_object", 0, "__start__", "InvalidUpdateError", "Expected dict, got [1]")),
        ("x", ("input_not_object", 0, "__start__", "InvalidUpdateError", "Expected dict, got x")),
        # LangGraph reads a None input as "resume": a fresh thread has nothing to resume.
        (None, ("input_not_object", 0, "", "EmptyInputError", "Received no input for __start__")),
    ],
)
def test_a_typed_dict_graph_given_no_object_says_what_langgraph_raised(payload, error):
    trace = run_trace(_looping_graph(), payload)  # no model, so no gate: LangGraph decides

    assert (trace.error.code, trace.error.step, trace.error.node) == error[:3]
    assert (trace.error.type, trace.error.headline) == error[3:]
    assert [s.node for s in trace.steps] == (["__start__"] if payload is not None else [])
    assert trace.output is None


def test_exports_are_deterministic_with_injected_message_ids():
    first, second = _trace(), _trace()

    assert first.to_json() == second.to_json()
    assert json.loads(first.to_json())["steps"][2]["update"] == {
        "status": "confirmed",
        "logs": ["confirmed"],
    }
    assert first.to_csv().splitlines()[:2] == [
        "step,node,status,logs,messages,changed,reducers,check,blame,error",
        '0,__start__,pending,[],1,"user_id, amount, items, messages",'
        '"user_id: last value, amount: last value, items: last value, messages: add_messages",✓,,',
    ]


def _edited(trace, index: int, **change) -> dict:
    return json.loads(dump_json(trace.steps[index].state)) | change


def test_fork_replaces_the_state_and_reruns_the_rest():
    trace = _trace()

    fork = fork_trace(trace, 1, _edited(trace, 1, logs=["edited"]))

    assert fork.rows() == [
        VALIDATED_ROW | {"step": 2, "node": "update_state", "logs": '["edited"]',
                         "changed": "user_id, amount, status, items, logs, messages",
                         "reducers": "user_id: last value, amount: last value, status: last value, "
                                     "items: last value, logs: Overwrite, messages: Overwrite"},
        CONFIRMED_ROW | {"step": 3, "logs": '["edited", "confirmed"]'},
    ]  # fmt: skip
    assert trace.rows() == [START_ROW, VALIDATED_ROW, CONFIRMED_ROW]  # the original is intact


def test_fork_validates_the_edit_first():
    trace = _trace()

    fork = fork_trace(trace, 1, _edited(trace, 1, amount=-5, extra=1))

    assert [(e.type, e.path) for e in fork.gate_errors] == [
        ("greater_than_equal", "amount"),
        ("extra_forbidden", "extra"),
    ]
    assert fork.steps == []


def test_fork_can_repair_a_step_langgraph_itself_cannot_rebuild():
    trace = _trace(("negative_amount",))

    fork = fork_trace(trace, 1, _edited(trace, 1, amount=7))

    assert [(row["node"], row["status"], row["check"]) for row in fork.rows()] == [
        ("update_state", "validated", "✓"),
        ("confirm", "confirmed", "✓"),
    ]
    assert (fork.error, fork.output["amount"]) == (None, 7)


def test_fork_of_a_step_langgraph_never_merged_is_refused():
    trace = _trace(("parallel_status",))

    with pytest.raises(ForkError, match=r"\[fork_step\] step 1 has no merged state"):
        fork_trace(trace, 1, _edited(trace, 0))


def test_injected_ids_never_reuse_an_id_the_payload_chose():
    payload = {
        **SEED_PAYLOAD,
        "messages": [{"type": "human", "content": "Order, please", "id": "msg-1"}],
    }

    trace = run_trace(build_fanout_graph(), payload, message_ids=_ids)

    ids = [m.id for m in trace.output["messages"]]
    assert ids == ["msg-1", "msg-2", "msg-3", "msg-4"]


def test_summary_columns_appear_only_for_states_that_have_those_fields():
    rows = run_trace(_looping_graph(), {"n": 998}).rows()
    assert [list(row) for row in rows][0] == [
        "step",
        "node",
        "changed",
        "reducers",
        "check",
        "blame",
        "error",
    ]
    assert [row["node"] for row in rows] == ["__start__", "tick", "tick"]


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return round((high + 0.05) / (low + 0.05), 1)


def test_current_node_fill_is_the_theme_primary_not_the_red_of_a_failed_node():
    theme = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["theme"]
    # The diagram's comment states these numbers: white labels, then the dark background.
    primaries = (theme["light"]["primaryColor"], theme["dark"]["primaryColor"])
    assert (CURRENT_FILL, *primaries) == ("#2563eb", "#2563eb", "#2563eb")
    assert (_contrast(CURRENT_FILL, "#ffffff"), _contrast(CURRENT_FILL, "#0e1117")) == (5.2, 3.7)
