"""core.trace.from_text: the Trace page's run in one call (pick, build, parse, run, place)."""

from __future__ import annotations

from core.jsontext.payload import PayloadError, parse
from core.order.presets import SEED_TEXT
from core.project import Project
from core.trace.from_text import SEED_GRAPHS, TextRun, trace_text
from tests.core.validate.test_entry_run import chat_graph


def _rows(run: TextRun) -> list[tuple]:
    assert run.trace is not None
    return [(s.step, s.node, s.status, s.logs, s.message_count) for s in run.trace.steps]


def test_the_seed_graph_gives_the_reference_trace_with_stable_message_ids():
    run = trace_text(SEED_TEXT, graph="seed")

    assert (run.syntax, run.json_accepts) == (None, None)
    assert _rows(run) == [
        (0, "__start__", "pending", [], 1),
        (1, "validate_order", "validated", ["amount=99.0 items=1"], 2),
        (2, "confirm", "confirmed", ["amount=99.0 items=1", "confirmed"], 2),
    ]
    assert [m.id for m in run.trace.steps[-1].state["messages"]] == ["msg-1", "msg-2"]


def test_text_that_is_not_json_runs_nothing_and_says_where():
    try:
        parse("{")
    except PayloadError as exc:
        expected = str(exc)
    assert trace_text("{", graph="seed") == TextRun(syntax=expected)


def test_gate_errors_are_placed_at_their_line_and_column_in_the_text():
    text = '{\n  "user_id": "not-a-uuid",\n  "amount": -1\n}'
    run = trace_text(text, graph="seed")

    assert run.trace is not None and not run.trace.steps
    assert [(e.path, e.type, e.line, e.col) for e in run.trace.gate_errors] == [
        ("user_id", "uuid_parsing", 2, 14),
        ("amount", "greater_than_equal", 3, 13),
    ]
    assert run.json_accepts is False


def test_strict_options_refuse_in_python_mode_what_json_mode_accepts():
    run = trace_text(SEED_TEXT, graph="seed", options={"strict": True})

    assert run.trace is not None
    assert [(e.path, e.type) for e in run.trace.gate_errors] == [("user_id", "is_instance_of")]
    assert run.json_accepts is True


def test_faults_apply_to_the_seed_graph_and_native_mode_skips_the_gate():
    native = trace_text('{"amount": -1}', graph="seed", checked=False)
    faulty = trace_text(SEED_TEXT, graph="seed", faults=["node_exception"], checked=False)

    assert native.trace is not None and native.trace.gate_errors == []
    assert str(native.trace.error).startswith("[input_invalid] step 1, node validate_order")
    assert faulty.trace is not None
    assert str(faulty.trace.error) == (
        "[node_error] step 2, node confirm: RuntimeError: payment service unavailable"
    )


def test_the_fanout_graph_runs_two_notifiers_in_one_step():
    run = trace_text(SEED_TEXT, graph="fanout")

    assert [(s.step, s.node) for s in run.trace.steps] == [
        (0, "__start__"),
        (1, "validate_order"),
        (2, "notify_email"),
        (2, "notify_sms"),
        (3, "confirm"),
    ]
    assert list(SEED_GRAPHS) == ["seed", "fanout"]


def test_run_anyway_runs_the_graph_past_our_gates_refusal():
    run = trace_text('{"amount": -1}', graph="seed", checked=True, run_anyway=True)

    assert run.trace is not None
    assert [e.path for e in run.trace.gate_errors] == ["user_id", "amount"]
    assert run.trace.ran


def test_a_projects_graph_is_gated_by_its_own_model_and_runs_natively():
    project = Project(model=None, graph=chat_graph())
    text = '{"messages": [{"role": "user", "content": "hi"}]}'
    gated = trace_text(text, graph="project", project=project)
    native = trace_text(text, graph="project", project=project, checked=False)

    assert gated.trace is not None and not gated.trace.ran
    assert [(e.path, e.type, e.line, e.col) for e in gated.trace.gate_errors] == [
        ("messages[0]", "validator_exception", 1, 15),
        ("topic", "missing", 1, 1),
        ("docs", "missing", 1, 1),
    ]
    assert native.trace is not None and native.trace.ran and native.trace.gate_errors == []
