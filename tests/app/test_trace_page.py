"""Trace page with AppTest: run, stepping without re-running, faults, modes, fork, share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.diagram import CURRENT_FILL
from core.presets import PRESETS, SEED_TEXT
from core.share import encode_share

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "trace.py")


@pytest.fixture
def at() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=30).run()


def _run(at: AppTest) -> AppTest:
    return at.button(key="run").click().run()


def _table(at: AppTest, index: int = 0) -> list[tuple]:
    frame = at.dataframe[index].value
    return list(
        frame[["step", "node", "status", "check", "error"]].itertuples(index=False, name=None)
    )


def _highlighted(at: AppTest) -> list[str]:
    dot = at.get("graphviz_chart")[0].proto.spec
    return [line.split(" [")[0].strip() for line in dot.splitlines() if CURRENT_FILL in line]


def test_page_opens_without_running_anything(at):
    assert not at.exception
    assert [info.value for info in at.info] == ["Pick a graph and faults, then press Run."]
    assert "trace_result" not in at.session_state


def test_run_shows_the_reference_trace(at):
    _run(at)

    assert not at.exception
    assert _table(at) == [
        (0, "__start__", "pending", "✓", ""),
        (1, "validate_order", "validated", "✓", ""),
        (2, "confirm", "confirmed", "✓", ""),
    ]
    assert [s.value for s in at.success] == ["LangGraph finished the run without raising."]


def test_stepping_moves_the_highlight_and_never_reruns_the_graph(at):
    _run(at)
    trace = at.session_state["trace_result"]["trace"]
    assert _highlighted(at) == ['"__start__"']

    at.button(key="next").click().run()
    at.button(key="next").click().run()
    at.button(key="next").click().run()  # already on the last row: stays there
    assert (at.session_state["step_slider"], _highlighted(at)) == (2, ['"confirm"'])

    at.button(key="prev").click().run()
    assert (at.session_state["step_slider"], _highlighted(at)) == (1, ['"validate_order"'])
    at.select_slider(key="step_slider").set_value(0).run()
    assert _highlighted(at) == ['"__start__"']
    assert at.session_state["trace_result"]["trace"] is trace


def test_fault_toggle_shows_the_node_exception(at):
    at.multiselect(key="trace_faults").set_value(["node_exception"])
    _run(at)

    assert _table(at)[-1] == (
        2,
        "confirm",
        "validated",
        "not merged",
        "RuntimeError: payment service unavailable",
    )
    assert [e.value for e in at.error] == ["Run stopped at step 2 [node_error] — RuntimeError"]


def test_native_mode_reports_only_what_langgraph_reports(at):
    at.multiselect(key="trace_faults").set_value(["negative_amount"])
    at.radio(key="trace_mode").set_value("native")
    _run(at)

    assert _table(at) == [(0, "__start__", "pending", "not checked", ""),
                          (1, "validate_order", "validated", "not checked", "")]  # fmt: skip
    assert [w.value for w in at.warning] == []
    assert (
        "LangGraph rebuilt the state model before calling confirm and it failed: it names "
        "confirm, the reader. The write came from validate_order." in [c.value for c in at.caption]
    )


def test_checked_mode_blames_the_writer_as_well(at):
    at.multiselect(key="trace_faults").set_value(["negative_amount"])
    _run(at)

    assert _table(at)[1] == (1, "validate_order", "validated", "amount: greater_than_equal", "")
    assert [w.value for w in at.warning] == [
        "Check every step: the merged state first broke the model at step 1, blamed on "
        "validate_order — LangGraph itself does not check it."
    ]


def test_fanout_graph_shows_two_writers_in_one_step(at):
    at.radio(key="trace_graph").set_value("fanout")
    _run(at)

    assert [(row[0], row[1]) for row in _table(at)] == [
        (0, "__start__"), (1, "validate_order"), (2, "notify_email"), (2, "notify_sms"), (3, "confirm")
    ]  # fmt: skip


def test_gate_closed_shows_errors_and_no_node_rows(at):
    at.session_state["payload_text"] = PRESETS["bad_uuid"].text
    _run(at)

    assert [e.value for e in at.error] == [
        "Gate closed — 1 error(s) in the payload; the graph did not run."
    ]
    assert list(at.dataframe[0].value["type"]) == ["uuid_parsing"]
    assert len(at.get("graphviz_chart")) == 0


def test_fork_reruns_from_the_selected_step(at):
    _run(at)
    at.select_slider(key="step_slider").set_value(1).run()
    edited = json.loads(at.text_area(key="fork_text").value) | {"logs": ["edited"]}
    at.text_area(key="fork_text").set_value(json.dumps(edited, ensure_ascii=False))
    at.button(key="fork").click().run()

    fork = at.session_state["trace_fork"]
    assert [(r["step"], r["node"], r["logs"]) for r in fork.rows()] == [
        (2, "update_state", '["edited"]'),
        (3, "confirm", '["edited", "confirmed"]'),
    ]
    assert _table(at, -1) == [(2, "update_state", "validated", "✓", ""),
                              (3, "confirm", "confirmed", "✓", "")]  # fmt: skip


def test_invalid_fork_edit_shows_errors_and_keeps_the_text(at):
    _run(at)
    at.text_area(key="fork_text").set_value('{"amount": ')
    at.button(key="fork").click().run()

    assert at.text_area(key="fork_text").value == '{"amount": '
    assert "The fork did not run; your edit is kept. Fix it as described:" in [
        e.value for e in at.error
    ]
    assert "trace_fork" not in at.session_state

    at.text_area(key="fork_text").set_value('{"user_id": "x", "amount": 1}')
    at.button(key="fork").click().run()
    assert list(at.dataframe[-1].value["type"]) == ["uuid_parsing"]


def test_share_link_restores_settings_and_names_unknown_faults():
    settings = {"payload": SEED_TEXT, "graph": "seed", "mode": "native",
                "faults": ["bad_status_last", "no_such_fault"]}  # fmt: skip
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = encode_share({"page": "trace", **settings})
    at.run()

    assert at.error[0].value.startswith("[unknown_fault] The share link names fault ids")
    assert "no_such_fault" in [code.value for code in at.code]
    assert at.multiselect(key="trace_faults").value == ["bad_status_last"]
    assert at.session_state["trace_result"]["settings"]["mode"] == "native"
    assert _table(at)[-1] == (2, "confirm", "shipped", "not checked", "")


def test_exports_offer_json_and_csv(at):
    _run(at)

    labels = [button.proto.label for button in at.get("download_button")]
    assert labels == ["Trace (JSON)", "Trace (CSV)"]
