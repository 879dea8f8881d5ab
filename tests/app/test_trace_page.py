"""Trace page with AppTest: run, stepping without re-running, faults, modes, fork, share."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from streamlit.testing.v1 import AppTest

from core.order.presets import PRESETS, SEED_TEXT
from core.order.schema_options import SchemaOptions
from core.share import encode_share
from core.trace.diagram import CURRENT_FILL
from core.trace.reducers import dump_json
from tests.app._editor import editor
from tests.app.conftest import SHARE_FIELD, shared
from ui import keys
from ui.text import plain
from ui.trace_table import PHONE_ROOM, RUN_ROOM, text_width

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "trace.py")


@pytest.fixture
def at() -> AppTest:
    return AppTest.from_file(PAGE, default_timeout=30).run()


def _run(at: AppTest) -> AppTest:
    return at.button(key=keys.RUN).click().run()


def _table(at: AppTest, index: int = 0) -> list[tuple]:
    """The `index`-th trace table on the page (the run's, then a fork's original and branch)."""
    frame = [d for d in at.dataframe if "check" in d.value.columns][index].value
    return list(
        frame[["step", "node", "status", "check", "error"]].itertuples(index=False, name=None)
    )


def _opened_link(**state) -> AppTest:
    """The Trace page opened by a share link holding `state`."""
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = encode_share({"page": "trace", "payload": SEED_TEXT, **state})
    return at.run()


def _fork_step_1_with_edited_logs(at: AppTest) -> str:
    """Run, select step 1, set its logs to ["edited"] and fork; the edited text."""
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    edited = json.loads(at.session_state[keys.FORK_TEXT]) | {"logs": ["edited"]}
    text = json.dumps(edited, ensure_ascii=False)
    at.session_state[keys.FORK_TEXT] = text
    at.run()
    at.button(key=keys.FORK).click().run()
    return text


def _highlighted(at: AppTest) -> list[str]:
    dot = at.get("graphviz_chart")[0].proto.spec
    return [line.split(" [")[0].strip() for line in dot.splitlines() if CURRENT_FILL in line]


def test_page_opens_without_running_anything(at):
    assert not at.exception
    assert [info.value for info in at.info] == ["Pick a graph and faults, then press Run."]
    assert keys.TRACE_RESULT not in at.session_state


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
    trace = at.session_state[keys.TRACE_RESULT]["trace"]
    assert _highlighted(at) == ['"__start__"']
    assert (
        at.button(key=keys.step_button(keys.STEP_SLIDER, "prev")).disabled,
        at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).disabled,
    ) == (True, False)

    at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).click().run()
    at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).click().run()
    assert (at.session_state[keys.STEP_SLIDER], _highlighted(at)) == (2, ['"confirm"'])
    assert (
        at.button(key=keys.step_button(keys.STEP_SLIDER, "prev")).disabled,
        at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).disabled,
    ) == (False, True)

    at.button(key=keys.step_button(keys.STEP_SLIDER, "prev")).click().run()
    assert (at.session_state[keys.STEP_SLIDER], _highlighted(at)) == (1, ['"validate_order"'])
    at.select_slider(key=keys.STEP_SLIDER).set_value(0).run()
    assert _highlighted(at) == ['"__start__"']
    assert at.session_state[keys.TRACE_RESULT]["trace"] is trace


def test_fault_toggle_shows_the_node_exception(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["node_exception"])
    _run(at)

    assert _table(at)[-1] == (
        2,
        "confirm",
        "validated",
        "not merged",
        "RuntimeError: payment service unavailable",
    )
    assert [e.value for e in at.error] == [
        plain(
            "LangGraph stopped at step 2 in confirm [node_error]: RuntimeError: payment "
            "service unavailable."
        ),
        "LangGraph never merged this step: it raised.",  # the row opened: the failing one
    ]
    assert at.session_state[keys.STEP_SLIDER] == 2
    assert "confirm raised an exception; the state before it is shown in its row." in [
        c.value for c in at.caption
    ]


def test_native_mode_reports_only_what_langgraph_reports(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["negative_amount"])
    at.radio(key=keys.TRACE_MODE).set_value("native")
    _run(at)

    assert _table(at) == [(0, "__start__", "pending", "not checked", ""),
                          (1, "validate_order", "validated", "not checked", "")]  # fmt: skip
    assert "blame" not in at.dataframe[0].value.columns  # nobody is blamed natively
    assert [w.value for w in at.warning] == []
    assert [e.value for e in at.error] == [
        plain(
            "LangGraph stopped at step 2 before confirm [input_invalid]: ValidationError: 1 "
            "validation error for AgentState."
        )
    ]
    # The state LangGraph refused to rebuild is opened; no writer is named natively.
    assert at.session_state[keys.STEP_SLIDER] == 1
    (table,) = [d.value for d in at.dataframe if "flag" in d.value.columns]
    assert list(table["flag"]) == ["", "state at the error"]
    captions = [c.value for c in at.caption]
    assert (
        "Before running confirm, LangGraph built confirm's input from the state with your model, "
        "and the state failed it (its note names confirm)." in captions
    )
    assert not [
        text
        for text in captions + [e.value for e in at.error]
        if "validate\\_order" in text and "wrote" in text
    ]


def test_checked_mode_blames_the_writer_as_well(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["negative_amount"])
    _run(at)

    assert _table(at)[1] == (1, "validate_order", "validated", "amount: greater_than_equal", "")
    assert [e.value for e in at.error] == [
        plain(
            "LangGraph stopped at step 2 before confirm [input_invalid]: ValidationError: 1 "
            "validation error for AgentState — validate_order wrote amount=-1."
        )
    ]
    assert [w.value for w in at.warning] == [
        "The merged state breaks the model \\(blamed on validate\\_order\\)\\."
    ]
    assert at.session_state[keys.STEP_SLIDER] == 1  # the blamed row is opened


def test_a_steps_violations_table_has_the_error_tables_columns_but_no_line_col(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["negative_amount"])
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()

    violations = [d for d in at.dataframe if "ctx" in d.value.columns]
    assert [list(d.proto.column_order) for d in violations] == [
        ["path", "message", "type", "input", "ctx", "docs", "pointer"]
    ]
    assert violations[0].value[["path", "type", "input"]].values.tolist() == [
        ["amount", "greater_than_equal", "-1"]
    ]


def test_the_trace_preset_picker_replaces_the_payload_and_shows_what_is_loaded(at):
    at.selectbox(key=keys.TRACE_PRESET).select("bad_sku").run()
    assert at.selectbox(key=keys.TRACE_PRESET).value == "bad_sku"  # the box says it
    assert editor(at, keys.PAYLOAD).args()["text"] == PRESETS["bad_sku"].value
    assert [s.value for s in at.success if "preset" in s.value] == []  # no line under it
    assert list(at.toast) == []
    _run(at)  # kept
    assert at.selectbox(key=keys.TRACE_PRESET).value == "bad_sku"
    editor(at, keys.PAYLOAD).input("{}").run()  # the text is the user's now
    assert at.selectbox(key=keys.TRACE_PRESET).value is None


def test_a_states_error_tables_fit_a_phone_with_the_message_wrapped(at):
    # The step's violations and the output the state model refuses: path (96 px) and the
    # message (250 px, rows tall enough to wrap it) fit a phone's 356 px of grid.
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["bad_status_last"])
    _run(at)

    tables = [d for d in at.dataframe if "ctx" in d.value.columns]
    shapes = [
        (
            list(d.proto.column_order),
            d.proto.row_height,
            {name: column.get("width") for name, column in json.loads(d.proto.columns).items()
             if name in ("path", "message")},
        )
        for d in tables
    ]  # fmt: skip
    order = ["path", "message", "type", "input", "ctx", "docs", "pointer"]
    assert shapes == [(order, 100, {"path": 96, "message": 250})] * 2


@pytest.mark.parametrize(
    ("fault", "widths", "error"),
    [
        ("bad_status_last", {"step": 43, "node": 75, "check": 59, "flag": 81, "blame": 64}, 47),
        ("negative_amount", {"step": 43, "node": 55, "check": 86, "flag": 81, "blame": 55}, 47),
        ("node_exception", {"step": 43, "node": 80, "check": 63, "flag": 81, "blame": 55}, 170),
    ],
)
def test_the_step_tables_columns_are_as_wide_as_their_words_within_a_phones_grid(
    at, fault: str, widths: dict[str, int], error: int
):
    # Issue 41, item 6: check was 72 px ("greater_t / han_equa / l") beside an empty 180 px
    # error column. Now an empty error column is as wide as its header, one with an error
    # takes the rest of the table's room at 1400 px; step, node, check, flag and blame fit
    # a phone's 322 px of grid (wrapping there), and at 1400 px the room Streamlit spreads
    # over the columns but step (pinned) makes each as wide as its longest word.
    at.multiselect(key=keys.TRACE_FAULTS).set_value([fault])
    _run(at)

    (table,) = [d for d in at.dataframe if "flag" in d.value.columns]
    drawn = {name: column.get("width") for name, column in json.loads(table.proto.columns).items()}
    shown = list(table.proto.column_order)
    assert (shown, {name: drawn[name] for name in shown}, table.proto.row_height) == (
        [*widths, "error"],
        widths | {"error": error},
        82,
    )
    assert sum(widths.values()) <= PHONE_ROOM
    spread = (RUN_ROOM - sum(widths.values()) - error) // 5
    words = {
        name: max(
            (text_width(word) for text in table.value[name] for word in str(text).split()),
            default=0,
        )
        for name in ("node", "check", "blame")
    }
    assert all(widths[name] + spread >= words[name] for name in words), (spread, words)


def test_the_input_panel_says_why_a_row_has_no_node_input(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["node_exception"]).run()
    _run(at)
    said = {}
    for index in range(len(at.dataframe[0].value)):
        at.select_slider(key=keys.STEP_SLIDER).set_value(index).run()
        said[at.dataframe[0].value["node"][index]] = [
            c.value for c in at.caption if c.value.startswith("None:")
        ]

    assert said == {
        "__start__": ["None: no node ran; this row is LangGraph writing the payload to the state."],
        "validate_order": [],
        "confirm": [],  # it was called, and raised: its input is shown
    }


def _tinted(table) -> list[int]:
    """The rows of a styled step table drawn with a background tint."""
    styles = table.proto.arrow_data.styler.styles
    return sorted({int(row) for row in re.findall(r"_row(\d+)_col\d+", styles)})


# fault -> the loss's step row, its headline, its merge row (field, before, after, why).
LOSSES = {
    "overwrite_logs": (
        2,
        "confirm",
        "LangGraph finished without raising, but step 2 lost data silently: confirm's Overwrite "
        'replaced logs, bypassing operator.add (it held ["amount=99.0 items=1"], now '
        '["confirmed"]).',
        [
            "logs",
            '["amount=99.0 items=1"]',
            '["confirmed"]',
            'Overwrite bypassed operator.add. Was there: ["amount=99.0 items=1"]. Remains: '
            '["confirmed"]. Lost: "amount=99.0 items=1".',
        ],
    ),
    "undeclared_key": (
        1,
        "validate_order",
        "LangGraph finished without raising, but step 1 lost data silently: validate_order "
        "returned totl=1, a key the state does not declare, and LangGraph discarded it.",
        [
            "totl",
            "(unset)",
            "(not a state field: discarded)",
            "not a state field: LangGraph discarded the write. Was there: 1, in the node's "
            "update. Remains: nothing (the state has no totl).",
        ],
    ),
}


@pytest.mark.parametrize("fault", list(LOSSES))
def test_a_silent_loss_is_headlined_opened_flagged_tinted_and_its_why_filled(at, fault):
    at.multiselect(key=keys.TRACE_FAULTS).set_value([fault])
    _run(at)
    step, node, said, merge = LOSSES[fault]

    assert [s.value for s in at.success] == []
    assert [w.value for w in at.warning] == [
        plain(said),
        "LangGraph lost data at this step without raising:",  # the opened row's detail
    ]
    assert at.session_state[keys.STEP_SLIDER] == step
    (table,) = [d for d in at.dataframe if "flag" in d.value.columns]
    assert table.key == f"trace__table_{step}"  # drawn with the loss's row selected
    assert list(table.value["flag"]) == ["data lost" if i == step else "" for i in range(3)]
    assert _tinted(table) == [step]
    assert f"**Step {step} · {plain(node)}**" in [m.value for m in at.markdown]
    assert f"{merge[0]}: {merge[3]}" in [c.value for c in at.code]
    assert [[row[0], row[1], row[4], row[5]] for row in _frame(at, "field")][-1:] == [
        merge[:1] + merge[1:]
    ]
    assert _highlighted(at) == [f'"{node}"']


def test_a_loss_beside_a_failure_is_a_note_under_the_failures_headline(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["undeclared_key", "bad_status_last"])
    _run(at)

    assert at.session_state[keys.STEP_SLIDER] == 2  # the failure is opened first
    (table,) = [d for d in at.dataframe if "flag" in d.value.columns]
    assert list(table.value["flag"]) == ["", "data lost", "first failure"]
    assert _tinted(table) == [1, 2]
    assert [w.value for w in at.warning] == [
        plain(
            'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".'
        ),
        plain(
            "Step 1: validate_order returned totl=1, a key the state does not declare, and "
            "LangGraph discarded it."
        ),
        plain("The merged state breaks the model (blamed on confirm)."),
        "LangGraph finished without raising, yet the raw output does not validate with the "
        "state model: the last write to the failing field(s) came from confirm (step 2), and "
        "no node ran after it, so LangGraph never rebuilt the model.",  # the output panel's
    ]


def test_fanout_graph_shows_two_writers_in_one_step(at):
    at.radio(key=keys.TRACE_GRAPH).set_value("fanout")
    _run(at)

    assert [(row[0], row[1]) for row in _table(at)] == [
        (0, "__start__"), (1, "validate_order"), (2, "notify_email"), (2, "notify_sms"), (3, "confirm")
    ]  # fmt: skip


def test_gate_closed_shows_errors_and_no_node_rows(at):
    at.session_state[keys.PAYLOAD_TEXT] = PRESETS["bad_uuid"].value
    _run(at)

    assert [e.value for e in at.error] == [
        "Gate closed — 1 error in the payload; the graph did not run. Fix the payload in the "
        "editor above (each error is marked at its line:col), then press Run again."
    ]
    gate = at.dataframe[0].value
    # placed in the payload text, as on the Validate page
    assert gate[["path", "line:col", "type"]].values.tolist() == [
        ["user_id", "2:14", "uuid_parsing"]
    ]
    # The table's cells stop at their column's edge; each error is whole under it, wrapped.
    assert [x.label for x in at.expander] == ["Each error in full"]
    whole = at.expander[0].code[0]
    assert (whole.value, whole.proto.wrap_lines) == (
        "user_id\nInput should be a valid UUID, invalid character: found `n` at 0\n\n"
        'type\n  uuid_parsing\ninput\n  "not-a-uuid"\n'
        'ctx\n  {"error": "invalid character: found `n` at 0"}\npointer\n  /user_id',
        True,
    )
    assert len(at.get("graphviz_chart")) == 0


def test_fork_reruns_from_the_selected_step(at):
    _fork_step_1_with_edited_logs(at)

    fork = at.session_state[keys.TRACE_FORK]
    assert [(r["step"], r["node"], r["logs"]) for r in fork.rows()] == [
        (2, "update_state", '["edited"]'),
        (3, "confirm", '["edited", "confirmed"]'),
    ]
    assert _table(at, -1) == [(2, "update_state", "validated", "✓", ""),
                              (3, "confirm", "confirmed", "✓", "")]  # fmt: skip


def test_invalid_fork_edit_shows_errors_and_keeps_the_text(at):
    _run(at)
    at.session_state[keys.FORK_TEXT] = '{"amount": '
    at.button(key=keys.FORK).click().run()

    assert at.session_state[keys.FORK_TEXT] == '{"amount": '
    assert "The fork did not run; your edit is kept. Fix it as described:" in [
        e.value for e in at.error
    ]
    assert keys.TRACE_FORK not in at.session_state

    at.session_state[keys.FORK_TEXT] = '{\n  "user_id": "x",\n  "amount": 1\n}'
    at.button(key=keys.FORK).click().run()
    assert at.dataframe[-1].value[["path", "line:col", "type"]].values.tolist() == [
        ["user_id", "2:14", "uuid_parsing"]
    ]
    assert at.error[-1].value == (
        "Gate closed — 1 error in the edited state; the graph did not run. "
        "Fix the state in the editor and fork again."
    )


def test_share_link_restores_settings_and_names_unknown_faults():
    settings = {"payload": SEED_TEXT, "graph": "seed", "mode": "native",
                "faults": ["bad_status_last", "no_such_fault"]}  # fmt: skip
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = encode_share({"page": "trace", **settings})
    at.run()

    assert at.error[0].value.startswith("[unknown_fault] The share link names fault ids")
    assert "no_such_fault" in [code.value for code in at.code]
    assert at.multiselect(key=keys.TRACE_FAULTS).value == ["bad_status_last"]
    assert at.session_state[keys.TRACE_RESULT]["settings"]["mode"] == "native"
    assert _table(at)[-1] == (2, "confirm", "shipped", "not checked", "")


def test_exports_offer_json_and_csv(at):
    _run(at)

    labels = [button.proto.label for button in at.get("download_button")]
    assert labels == ["Trace (JSON)", "Trace (CSV)"]


SEED_SETTINGS = {
    "payload": SEED_TEXT,
    "graph": "seed",
    "faults": [],
    "mode": "checked",
    "options": SchemaOptions().to_dict(),  # the Validate page's, shaping the seed state model
}


def _open_shared(state: dict) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.query_params["s"] = encode_share({"page": "trace", **state})
    return at.run()


def _shared_link(at: AppTest) -> dict:
    at.button(key=keys.SHARE).click().run()
    return shared(at)


@pytest.mark.parametrize(
    ("hostile", "ignored"),
    [
        ({"graph": ["seed"]}, "graph"),
        ({"graph": {"seed": 1}}, "graph"),
        ({"graph": "nowhere"}, "graph"),
        ({"mode": ["native"]}, "mode"),
        ({"mode": {"native": True}}, "mode"),
        ({"faults": 5}, "faults"),
        ({"faults": True}, "faults"),
        ({"faults": None}, "faults"),
        ({"faults": {"negative_amount": 1}}, "faults"),
        ({"faults": "negative_amount"}, "faults"),
        ({"faults": ["negative_amount", 3]}, "faults"),
        ({"payload": 5}, "payload"),
        ({"payload": {"amount": 1}}, "payload"),
        ({"step": "1"}, "step"),
        ({"step": True}, "step"),
        ({"step": -1}, "step"),
        ({"options": 5}, "options"),
        ({"options": ["strict"]}, "options"),
        ({"options": {"amount_le": "100"}}, "options"),
        ({"options": {"amount_le": True}}, "options"),
        ({"options": {"amount_ge": 5.0, "amount_le": 1.0}}, "options"),
        ({"run_anyway": "yes"}, "run_anyway"),
        ({"run_anyway": 1}, "run_anyway"),
    ],
)
def test_share_fields_of_the_wrong_type_are_named_dropped_and_defaulted(hostile, ignored):
    at = _open_shared(SEED_SETTINGS | {"mode": "native"} | hostile)

    assert not at.exception
    assert [w.value for w in at.warning] == [SHARE_FIELD]
    assert ignored in [code.value for code in at.code]
    assert at.session_state[keys.TRACE_RESULT]["settings"] == SEED_SETTINGS | {
        "mode": "checked" if ignored == "mode" else "native"
    }
    assert _table(at)[-1][:2] == (2, "confirm")


def test_every_ignored_share_field_is_named_once_without_its_value():
    hostile = {"payload": ["x"], "graph": 1, "mode": 2.5, "faults": "negative_amount", "step": {}}
    at = _open_shared(hostile)

    assert [w.value for w in at.warning] == [SHARE_FIELD]
    assert "payload, graph, mode, faults, step" in [code.value for code in at.code]
    assert not [c.value for c in at.code if "negative_amount" in c.value]
    assert at.session_state[keys.TRACE_RESULT]["settings"] == SEED_SETTINGS


def test_shared_project_graph_without_a_configured_graph_says_so():
    at = _open_shared(SEED_SETTINGS | {"graph": "project"})

    assert not at.exception
    assert [w.value for w in at.warning] == [
        "[share_no_project] The share link runs the server's own graph, but this server has no "
        "project graph configured, so the first graph listed is used. Configure one with "
        "--graph, playground.toml or PLAYGROUND_GRAPH, or pick a graph below."
    ]
    assert at.radio(key=keys.TRACE_GRAPH).value == "seed"


def test_share_link_reopens_the_selected_step():
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["bad_status_last"])
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    link = _shared_link(at)
    assert link == {"page": "trace", **SEED_SETTINGS, "faults": ["bad_status_last"], "step": 1}

    reopened = _open_shared({k: v for k, v in link.items() if k != "page"})
    assert not reopened.exception
    assert reopened.select_slider(key=keys.STEP_SLIDER).value == 1
    assert _highlighted(reopened) == ['"validate_order"']


def test_a_shared_step_on_a_run_the_gate_stopped_is_not_warned_about():
    at = _open_shared(SEED_SETTINGS | {"payload": '{"amount": -1}', "step": 2})
    assert not at.warning
    assert at.error[0].value.startswith("Gate closed")


def test_shared_step_beyond_the_run_says_so_and_shows_the_first_row():
    at = _open_shared(SEED_SETTINGS | {"step": 9})

    assert [w.value for w in at.warning] == [
        "[share_step] The share link selects a row this run does not have (the payload or graph "
        "differs from the shared run); the first row is shown."
    ]
    assert at.select_slider(key=keys.STEP_SLIDER).value == 0


def test_nothing_to_export_or_share_is_offered_before_a_run(at):
    at.radio(key=keys.TRACE_MODE).set_value("native").run()

    # The payload editor's own Format JSON and Reset, and Run.
    assert [b.key for b in at.button] == ["payload__format", "payload__reset", "run"]
    assert [b.proto.label for b in at.get("download_button")] == []
    assert [h.value for h in at.subheader] == []
    assert [i.value for i in at.info] == ["Pick a graph and faults, then press Run."]


def test_a_link_made_before_any_run_still_opens_its_settings_without_a_run():
    # Earlier versions offered Share link before a run: such links carry `ran: false`.
    reopened = _open_shared(SEED_SETTINGS | {"mode": "native", "ran": False})
    assert not reopened.exception and not reopened.warning
    assert reopened.radio(key=keys.TRACE_MODE).value == "native"
    assert keys.TRACE_RESULT not in reopened.session_state
    assert [i.value for i in reopened.info] == ["Pick a graph and faults, then press Run."]


def test_share_is_offered_after_a_syntax_error_run(at):
    at.session_state[keys.PAYLOAD_TEXT] = '{"amount": '
    _run(at)

    assert at.error[0].value.startswith("The payload is not valid JSON, so nothing ran.")
    assert _shared_link(at) == {"page": "trace", **SEED_SETTINGS, "payload": '{"amount": '}
    assert [b.proto.label for b in at.get("download_button")] == []


def test_fork_editor_follows_the_run_even_when_python_reuses_an_object_id(at):
    _run(at)
    at.session_state[keys.FORK_TEXT] = '{"edited": true}'
    at.run()
    result = at.session_state[keys.TRACE_RESULT]
    # A later run whose trace lands at the old trace's address: same id(), new run number.
    at.session_state[keys.TRACE_RESULT] = result | {"run": result["run"] + 1}
    at.run()

    fresh = dump_json(result["trace"].steps[0].state, indent=2)
    assert at.session_state[keys.FORK_TEXT] == fresh


def test_runs_are_numbered_per_session(at):
    _run(at)
    _run(at)

    assert (at.session_state[keys.TRACE_RUNS], at.session_state[keys.TRACE_RESULT]["run"]) == (2, 2)


def test_output_escaping_a_check_is_said_only_when_the_run_did_not_raise(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["bad_status_last"])
    at.radio(key=keys.TRACE_MODE).set_value("native")
    _run(at)

    # One severity for one verdict, and natively no writer is named.
    assert [e.value for e in at.error] == []
    assert [w.value for w in at.warning] == [
        plain(
            "LangGraph finished, but its output does not validate with AgentState: "
            'status="shipped" (literal_error).'
        ),
        "LangGraph finished without raising, yet the raw output does not validate with the "
        "state model: no node ran after the last write to the failing field(s), so LangGraph "
        "never rebuilt the model.",
    ]
    assert at.session_state[keys.STEP_SLIDER] == 2
    assert "**Validated with the state model** — AgentState" in [m.value for m in at.markdown]
    assert not [m.value for m in at.markdown if "v2" in m.value]


def test_a_valid_output_claims_no_escape(at):
    _run(at)

    assert [e.value for e in at.error] == []
    assert "**Validated with the state model** — AgentState" in [m.value for m in at.markdown]
    assert plain('AgentState(**output), as invoke(version="v2") builds it.') in [
        c.value for c in at.caption
    ]


def test_a_concurrent_update_says_langgraph_named_no_node_because_its_error_has_no_note(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["parallel_status"])
    _run(at)

    error = at.session_state[keys.TRACE_RESULT]["trace"].error
    assert (error.code, error.node) == ("concurrent_update", "")
    assert (
        "Nodes of one step wrote a field that has no reducer; LangGraph's error carries no "
        f"node name; the writers, read from the checkpoint, were {plain(error.writers)}."
        in [c.value for c in at.caption]
    )


NODE = "**bold**_x_ [link](e.test) <b>#$x$ `c` \\ {a} +-.!~\nline"
EVIL_GRAPH = f"""
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, Field

NODE = {NODE!r}


class Evil_State_(BaseModel):
    n: int = Field(default=0, ge=0)


def write(state: Evil_State_) -> dict:
    return {{"n": -1}}


builder = StateGraph(Evil_State_)
builder.add_node(NODE, write)
builder.add_edge(START, NODE)
builder.add_edge(NODE, END)
graph = builder.compile()
"""


def test_graph_and_model_names_reach_markdown_only_escaped(monkeypatch, tmp_path):
    (tmp_path / "evil_names_graph.py").write_text(EVIL_GRAPH)
    monkeypatch.setattr(sys, "argv", ["app.py"])
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    monkeypatch.setenv("PLAYGROUND_GRAPH", "evil_names_graph:graph")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    at.session_state[keys.PAYLOAD_TEXT] = '{"n": 1}'
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()

    assert not at.exception
    assert [w.value for w in at.warning] == [
        plain(f"LangGraph finished, but the final state is invalid: {NODE} wrote n=-1."),
        plain(f"The merged state breaks the model (blamed on {NODE})."),
        "LangGraph finished without raising, yet the raw output does not validate with the "
        f"state model: the last write to the failing field(s) came from {plain(NODE)} "
        "(step 1), and no node ran after it, so LangGraph never rebuilt the model.",
    ]
    assert [e.value for e in at.error] == []
    captions = [c.value for c in at.caption]
    assert f"Step 1, node {plain(NODE)}; the state shown is the merged state after it." in captions
    markdown = [m.value for m in at.markdown]
    assert f"**Violations in the merged state** — blamed on: {plain(NODE)}" in markdown
    assert "**Validated with the state model** — Evil\\_State\\_" in markdown
    shown = captions + markdown + [a.value for a in (*at.warning, *at.error, *at.info)]
    assert not [text for text in shown if "**bold**" in text or "\n" in text]


def test_a_fork_edit_stays_with_its_step_while_stepping_and_the_branch_names_its_step(at):
    text = _fork_step_1_with_edited_logs(at)

    at.select_slider(key=keys.STEP_SLIDER).set_value(0).run()
    step0 = dump_json(at.session_state[keys.TRACE_RESULT]["trace"].steps[0].state, indent=2)
    assert at.session_state[keys.FORK_TEXT] == step0
    assert "**Forked branch**, from step 1 (validate\\_order)" in [m.value for m in at.markdown]

    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    assert at.session_state[keys.FORK_TEXT] == text
    assert "Edited: the edit stays with this step while you step through the run." in [
        c.value for c in at.caption
    ]


def test_a_fork_edit_survives_a_visit_to_an_error_row(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["node_exception"]).run()
    _run(at)
    assert _table(at)[-1][:2] == (2, "confirm")  # the error row
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    at.session_state[keys.FORK_TEXT] = '{"edited": 1}'
    at.run()
    at.select_slider(key=keys.STEP_SLIDER).set_value(2).run()
    # An error row has no fork editor (the payload's editor is the page's own).
    assert [e.key for e in _editors(at)] == [keys.editor(keys.PAYLOAD)]
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    assert at.session_state[keys.FORK_TEXT] == '{"edited": 1}'


def test_share_link_reopens_the_fork_its_edited_state_and_the_selected_step(at):
    text = _fork_step_1_with_edited_logs(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(2).run()  # the link selects another row
    at.button(key=keys.SHARE).click().run()
    branch = _table(at, -1)

    fresh = AppTest.from_file(PAGE, default_timeout=30)
    fresh.query_params["s"] = at.query_params["s"]
    fresh.run()
    assert not fresh.exception and not fresh.warning
    assert fresh.select_slider(key=keys.STEP_SLIDER).value == 2
    assert _table(fresh, -1) == branch
    assert "**Forked branch**, from step 1 (validate\\_order)" in [m.value for m in fresh.markdown]
    fresh.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    assert fresh.session_state[keys.FORK_TEXT] == text


@pytest.mark.parametrize("fork", [{"row": True, "state": "{}"}, {"row": 1}, [1, "{}"]])
def test_a_share_link_fork_of_the_wrong_shape_is_ignored_by_name(fork):
    at = _opened_link(fork=fork)
    assert not at.exception
    assert [w.value for w in at.warning] == [
        "[share_field] These fields of the share link have the wrong type or value and were "
        "ignored; their defaults are used. Make a fresh link with Share link."
    ]
    assert [c.value for c in at.code].count("fork") == 1  # the ignored fields, named
    assert keys.TRACE_FORK not in at.session_state


def test_a_share_link_fork_whose_edit_does_not_parse_shows_why_in_the_editor_at_its_row():
    at = _opened_link(fork={"row": 1, "state": '{"a": '})
    assert not at.warning and not at.error  # the link selects row 0: nothing of row 1 shows
    assert keys.TRACE_FORK not in at.session_state
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    assert at.session_state[keys.FORK_TEXT] == '{"a": '
    assert [e.value for e in at.error] == [
        "The fork did not run; your edit is kept. Fix it as described:"
    ]
    assert at.code[-1].value.startswith("line 1, column 7: Invalid JSON: Expecting value")


def test_a_failed_fork_hides_the_earlier_branch_and_its_reason_stays_through_clicks(at):
    _fork_step_1_with_edited_logs(at)
    at.session_state[keys.FORK_TEXT] = '{"amount": '
    at.run()
    at.button(key=keys.FORK).click().run()
    at.button(key=keys.SHARE).click().run()  # any other click

    failed = [e.value for e in at.error]
    assert failed == ["The fork did not run; your edit is kept. Fix it as described:"]
    assert keys.TRACE_FORK not in at.session_state
    assert "**Forked branch**" not in " ".join(m.value for m in at.markdown)
    link = shared(at)
    assert link["fork"] == {"row": 1, "state": '{"amount": '} and "edit" not in link

    reopened = _open_shared({k: v for k, v in link.items() if k != "page"})
    assert [e.value for e in reopened.error] == failed
    assert reopened.session_state[keys.FORK_TEXT] == '{"amount": '


@pytest.mark.parametrize("fork_text", ['{"amount": ', None], ids=["refused", "run"])
def test_reset_at_a_forks_row_is_in_the_share_link(at, fork_text):
    # The link's fork fills the editor at its row: a reset text there must travel too.
    text = _fork_step_1_with_edited_logs(at)
    if fork_text is not None:
        at.session_state[keys.FORK_TEXT] = fork_text
        at.run()
        at.button(key=keys.FORK).click().run()
    at.button(key=keys.part(keys.FORK_TEXT, "reset")).click().run()
    unedited = at.session_state[keys.FORK_TEXT]
    shown = ([e.value for e in at.error], keys.TRACE_FORK in at.session_state)

    link = _shared_link(at)
    assert link["fork"] == {"row": 1, "state": fork_text or text}
    assert link["edit"] == {"row": 1, "state": unedited}
    reopened = _open_shared({k: v for k, v in link.items() if k != "page"})
    assert reopened.session_state[keys.FORK_TEXT] == unedited
    assert ([e.value for e in reopened.error], keys.TRACE_FORK in reopened.session_state) == shown


def test_an_edit_not_forked_is_in_the_share_link_and_back_in_the_editor(at):
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    text = at.session_state[keys.FORK_TEXT].replace('"amount": 99,', '"amount": 7,')
    at.session_state[keys.FORK_TEXT] = text
    at.run()

    link = _shared_link(at)
    assert link["edit"] == {"row": 1, "state": text} and "fork" not in link
    reopened = _open_shared({k: v for k, v in link.items() if k != "page"})
    assert not reopened.warning
    assert reopened.session_state[keys.FORK_TEXT] == text
    assert keys.TRACE_FORK not in reopened.session_state


def test_the_fork_editors_reset_puts_the_steps_state_back_and_an_empty_state_says_so(at):
    _run(at)
    unedited = at.session_state[keys.FORK_TEXT]
    at.session_state[keys.FORK_TEXT] = ""
    at.run()
    at.button(key=keys.FORK).click().run()
    assert at.code[-1].value == (
        "line 1, column 1: The state is empty: paste a JSON object, or press Reset for this "
        "step's state."
    )
    at.button(key=keys.part(keys.FORK_TEXT, "reset")).click().run()
    assert at.session_state[keys.FORK_TEXT] == unedited
    assert not at.error


def test_a_share_link_fork_of_a_row_this_run_lacks_is_named_and_the_run_shown():
    at = _opened_link(fork={"row": 9, "state": "{}"})
    assert [w.value for w in at.warning] == [
        "[share_fork] The share link forks a row this run cannot fork from (the payload or "
        "graph differs from the shared run); the run is shown without the fork."
    ]
    assert [row[1] for row in _table(at)] == ["__start__", "validate_order", "confirm"]


def test_a_share_link_edit_of_a_row_this_run_lacks_is_named_and_the_run_shown():
    at = _opened_link(edit={"row": 9, "state": "{}"})
    assert [w.value for w in at.warning] == [
        "[share_edit] The share link holds an edited state for a row this run cannot fork "
        "from (the payload or graph differs from the shared run); the edit is left out."
    ]
    assert [row[1] for row in _table(at)] == ["__start__", "validate_order", "confirm"]


def test_native_mode_runs_what_our_gate_refuses_and_shows_langgraphs_own_error(at):
    at.session_state[keys.PAYLOAD_TEXT] = PRESETS["bad_uuid"].value
    at.radio(key=keys.TRACE_MODE).set_value("native")
    _run(at)

    trace = at.session_state[keys.TRACE_RESULT]["trace"]
    assert (trace.ran, trace.gate_errors, trace.error.code) == (True, [], "input_invalid")
    assert _table(at) == [(0, "__start__", "pending", "not checked", "")]
    assert [e.value for e in at.error] == [
        plain(
            "LangGraph stopped at step 1 before validate_order [input_invalid]: "
            "ValidationError: 1 validation error for AgentState."
        )
    ]
    assert not [e for e in at.error if e.value.startswith("Gate closed")]
    assert keys.RUN_ANYWAY not in [b.key for b in at.button]


def test_run_anyway_shows_what_our_model_says_above_what_langgraph_did(at):
    at.session_state[keys.PAYLOAD_TEXT] = PRESETS["bad_uuid"].value
    _run(at)
    assert at.error[0].value.startswith("Gate closed — 1 error in the payload")

    at.button(key=keys.RUN_ANYWAY).click().run()

    result = at.session_state[keys.TRACE_RESULT]
    assert (result["run_anyway"], result["trace"].ran) == (True, True)
    assert [w.value for w in at.warning] == [
        "Our model alone refuses the payload (1 error); it ran anyway. What LangGraph itself "
        "did with it follows the errors.",
        # the per-step check sees the same field in the entry state, written by the payload
        plain("The merged state breaks the model (blamed on __start__)."),
    ]
    assert at.dataframe[0].value[["path", "line:col", "type"]].values.tolist() == [
        ["user_id", "2:14", "uuid_parsing"]
    ]
    assert _table(at) == [(0, "__start__", "pending", "user_id: uuid_parsing", "")]
    assert [e.value for e in at.error] == [
        plain(
            "LangGraph stopped at step 1 before validate_order [input_invalid]: "
            "ValidationError: 1 validation error for AgentState — the input set "
            'user_id="not-a-uuid".'
        )
    ]
    assert "run_anyway" not in [b.key for b in at.button]


def test_a_run_anyway_share_link_reopens_the_run_past_the_gate(at):
    at.session_state[keys.PAYLOAD_TEXT] = PRESETS["bad_uuid"].value
    _run(at)
    at.button(key=keys.RUN_ANYWAY).click().run()

    link = _shared_link(at)
    assert link["run_anyway"] is True
    reopened = _open_shared({k: v for k, v in link.items() if k != "page"})
    assert not reopened.exception
    assert [w.value for w in reopened.warning] == [w.value for w in at.warning]  # no share_field
    assert reopened.session_state[keys.TRACE_RESULT]["trace"].ran
    assert _table(reopened) == _table(at)


# Each output is what the graph's own invoke() (ainvoke() for the async one) returns.
OUTPUT_SCHEMA_GRAPHS = [
    ("corpus.fanout_join:graph", {"destination": "  york ", "traveller": {"name": "Ada", "rail_card": True}},
     {"summary": "Ada: 4 ways to York (with rail card)",
      "options": ["flight 07:10", "flight 18:45", "train 09:02", "train to York (with rail card)"]},
     "TripPlan"),
    ("corpus.async_fanout:graph", {"station": " kew "},
     {"report": "KEW/calibrated: 3 readings, mean 12.58 C", "readings": [11.0, 12.5, 14.25]},
     "StationReport"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("graph", "payload", "output", "model"),
    OUTPUT_SCHEMA_GRAPHS,
    ids=[graph for graph, *_ in OUTPUT_SCHEMA_GRAPHS],
)
def test_a_corpus_graph_with_an_output_schema_shows_invokes_value_and_its_model(
    monkeypatch, graph, payload, output, model
):
    monkeypatch.setattr(sys, "argv", ["app.py"])
    monkeypatch.delenv("PLAYGROUND_MODEL", raising=False)
    monkeypatch.setenv("PLAYGROUND_GRAPH", graph)
    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    monkeypatch.syspath_prepend(str(fixtures))
    monkeypatch.chdir(fixtures)
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    at.session_state[keys.PAYLOAD_TEXT] = json.dumps(payload)
    at.radio(key=keys.TRACE_MODE).set_value("native")
    _run(at)

    assert not at.exception
    trace = at.session_state[keys.TRACE_RESULT]["trace"]
    assert trace.error is None
    shown = [c.value for c in at.code]
    assert dump_json(output, indent=2) in shown  # invoke() returns: the output schema's keys
    assert f"**Validated with the output model** — {model}" in [m.value for m in at.markdown]


def _frame(at: AppTest, *columns: str) -> list[list]:
    """The rows of the one table whose first columns are `columns`."""
    n = len(columns)
    (frame,) = [d.value for d in at.dataframe if tuple(d.value.columns)[:n] == columns]
    return frame.values.tolist()


def test_a_fault_run_opens_on_the_failing_row_flagged_selected_and_detailed_beside_it(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["bad_status_last"])
    _run(at)

    assert at.session_state[keys.STEP_SLIDER] == 2
    (table,) = [d for d in at.dataframe if "flag" in d.value.columns]
    assert table.value[["flag", "step", "node", "check"]].values.tolist() == [
        ["", 0, "__start__", "✓"],
        ["", 1, "validate_order", "✓"],
        ["first failure", 2, "confirm", "status: literal_error"],
    ]
    assert list(table.proto.column_order) == ["step", "node", "check", "flag", "blame", "error"]
    assert table.key == "trace__table_2"  # drawn with the stepper's row selected
    assert "**Step 2 · confirm**" in [m.value for m in at.markdown]
    assert [w.value for w in at.warning][:2] == [
        plain(
            'LangGraph finished, but the final state is invalid: confirm wrote status="shipped".'
        ),
        plain("The merged state breaks the model (blamed on confirm)."),
    ]
    assert (
        "status: literal_error — Input should be 'pending', 'validated' or 'confirmed' "
        '(input "shipped")' in [c.value for c in at.code]
    )
    assert _highlighted(at) == ['"confirm"']


def test_stepping_moves_the_tables_selection_and_the_detail(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["bad_status_last"])
    _run(at)
    at.button(key=keys.step_button(keys.STEP_SLIDER, "prev")).click().run()

    (table,) = [d for d in at.dataframe if "flag" in d.value.columns]
    assert (table.key, at.session_state[keys.STEP_SLIDER]) == ("trace__table_1", 1)
    assert "**Step 1 · validate\\_order**" in [m.value for m in at.markdown]
    assert "✓ The merged state is valid." in [c.value for c in at.caption]


def test_a_share_link_naming_step_0_of_a_failing_run_reopens_step_0():
    link = {**SEED_SETTINGS, "faults": ["bad_status_last"], "step": 0}
    assert _open_shared(link).session_state[keys.STEP_SLIDER] == 0
    assert _open_shared({**link, "step": 1}).session_state[keys.STEP_SLIDER] == 1


def test_the_merge_view_explains_a_super_step_and_a_default_never_written(at):
    at.radio(key=keys.TRACE_GRAPH).set_value("fanout")
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()  # validate_order
    captions = [c.value for c in at.caption]
    assert (
        plain(
            "Never written to the state before this step: status. LangGraph's channel holds no "
            "value; the input model filled in its default, so the node sees it, and Merge shows "
            "it as (unset)."
        )
        in captions
    )
    assert [row[0::5] for row in _frame(at, "field")] == [
        ["status", "never written to the channel before; the node's input showed the model's "
         'default "pending"'],
        ["logs", ""],
        ["messages", ""],
    ]  # fmt: skip

    at.select_slider(key=keys.STEP_SLIDER).set_value(2).run()  # notify_email
    rows = _frame(at, "field")
    assert [(row[0], row[4], row[5]) for row in rows] == [
        ("logs", '["amount=99.0 items=1", "email sent", "sms sent"]',
         "merged in super-step 2 with the write of notify_sms"),
        ("messages", rows[1][4], "merged in super-step 2 with the write of notify_sms"),
    ]  # fmt: skip
    assert plain(
        "Step 2 is one super-step: notify_email, notify_sms ran together and LangGraph merged "
        "all their writes at once, each field by its reducer. So after holds every node's "
        "write of the step, not only this node's."
    ) in [c.value for c in at.caption]


def test_a_forked_branch_shows_its_edited_fields_and_is_stepped_like_the_run(at):
    _fork_step_1_with_edited_logs(at)

    assert _frame(at, "path", "original", "edited") == [
        ["logs[0]", '"amount=99.0 items=1"', '"edited"']
    ]
    assert at.session_state[keys.FORK_STEP_SLIDER] == 0
    assert "**Step 2 · update\\_state**" in [m.value for m in at.markdown]
    assert at.button(key=keys.step_button(keys.FORK_STEP_SLIDER, "prev")).disabled
    at.button(key=keys.step_button(keys.FORK_STEP_SLIDER, "next")).click().run()
    assert at.session_state[keys.FORK_STEP_SLIDER] == 1
    assert "**Step 3 · confirm**" in [m.value for m in at.markdown]
    assert "Step 3, node confirm; the state shown is the merged state after it." in [
        c.value for c in at.caption
    ]
    assert at.session_state[keys.STEP_SLIDER] == 1  # the run's own stepper stays where it was


def _editors(at: AppTest) -> list:
    """The code editors drawn (ui/editor/json_editor.py): the payload's, then the fork's."""
    return [
        SimpleNamespace(key=json.loads(e.proto.json_args)["key"], element=e)
        for e in at.get("component_instance")
    ]


def _editor(at: AppTest) -> dict:
    """What the fork's code editor (ui/editor/json_editor.py) is sent: its text and marks."""
    (element,) = [e.element for e in _editors(at) if e.key == keys.editor(keys.FORK_TEXT)]
    args = json.loads(element.proto.json_args)
    return {name: args[name] for name in ("text", "marks", "label", "key")}


def test_the_fork_editor_is_the_code_editor_with_each_error_marked_where_it_is(at):
    _run(at)
    at.select_slider(key=keys.STEP_SLIDER).set_value(1).run()
    state = at.session_state[keys.FORK_TEXT]
    assert _editor(at) == {
        "text": state,
        "marks": [],
        "label": "State (JSON)",
        "key": "fork_text_editor",
    }

    edited = state.replace('"amount": 99,', '"amount": -1,').replace('"validated"', '"shipped"')
    at.session_state[keys.FORK_TEXT] = edited
    at.run()
    lines = edited.split("\n")
    amount = next(i for i, line in enumerate(lines, 1) if '"amount"' in line)
    status = next(i for i, line in enumerate(lines, 1) if '"status"' in line)
    assert _editor(at)["marks"] == [
        {"line": amount, "col": 13, "message": "amount: Input should be greater than or equal to 0",
         "severity": "error"},
        {"line": status, "col": 13,
         "message": "status: Input should be 'pending', 'validated' or 'confirmed'",
         "severity": "error"},
    ]  # fmt: skip

    at.session_state[keys.FORK_TEXT] = '{"amount": '
    at.run()
    assert [(m["line"], m["col"]) for m in _editor(at)["marks"]] == [(1, 12)]


def test_a_merge_row_is_as_tall_as_its_longest_value_wrapped_in_its_column() -> None:
    from ui.trace.view import merge_row_height

    short = {"field": "status", "before": '"pending"', "update": '"validated"', "why": ""}
    assert merge_row_height([short]) == 35  # one line each: Streamlit's own rows
    why = {**short, "why": "merged in super-step 2 with the write of notify_sms"}  # 51 > 29
    assert 64 < merge_row_height([why]) < merge_row_height([why, {"after": "x" * 212}])
    assert merge_row_height([{"after": "x" * 10_000}]) == 12 * 21 + 16  # at most 12 lines


def test_the_payload_is_edited_in_the_trace_pages_own_editor_and_run_in_one_click(at):
    # Issue 41, item 7: the payload was shown read-only ("edit it on the Validate page").
    # The page draws the Validate page's editor on the same session text, marks what the
    # model refuses as it is typed, and one click on Run runs the edited text.
    _run(at)
    text = SEED_TEXT.replace('"amount": 99', '"amount": -1')
    editor(at, keys.PAYLOAD).input(text).run()

    assert at.session_state[keys.PAYLOAD_TEXT] == text  # the Validate page's text too
    args = editor(at, keys.PAYLOAD).args()
    assert (args["text"], [(m["line"], m["col"]) for m in args["marks"]]) == (text, [(3, 13)])
    assert [w.value for w in at.warning][:1] == [
        "The settings or payload changed since this run; press Run to see them."
    ]
    _run(at)
    assert [e.value for e in at.error] == [
        "Gate closed — 1 error in the payload; the graph did not run. Fix the payload in the "
        "editor above (each error is marked at its line:col), then press Run again."
    ]
    gate = at.dataframe[0].value
    assert gate[["path", "line:col", "type"]].values.tolist() == [
        ["amount", "3:13", "greater_than_equal"]
    ]


def _guarded_run(at: AppTest, faults: list[str]) -> AppTest:
    at.multiselect(key=keys.TRACE_FAULTS).set_value(faults)
    at.toggle(key=keys.TRACE_GUARD).set_value(True).run()
    return _run(at)


def _guard_panel(at: AppTest) -> dict:
    """What the Guard panel says: its verdicts, its error rows and the guard's message."""
    tables = [d.value for d in at.dataframe if list(d.value.columns) == GUARD_COLUMNS]
    return {
        "error": [e.value for e in at.error if "the guard" in e.value],
        "success": [s.value for s in at.success if "guard" in s.value or "history" in s.value],
        "rows": [t.to_dict("records") for t in tables],
    }


GUARD_COLUMNS = ["path", "message", "type", "input"]


def test_the_guard_switch_shows_where_the_guard_stops_the_run_and_the_history_read_back(at):
    _guarded_run(at, ["negative_amount"])

    assert not at.exception
    assert _guard_panel(at) == {
        "error": [
            plain(
                "In production the guard stops this run at step 1, written by validate_order: "
                "that state fails AgentState, and nothing of it is stored."
            )
        ],
        "success": [
            "The thread stays readable: get_state_history after the run read 2 checkpoints "
            "(steps -1, 0)."
        ],
        "rows": [
            [
                {
                    "path": "amount",
                    "message": "Input should be greater than or equal to 0",
                    "type": "greater_than_equal",
                    "input": "-1",
                }
            ]
        ],
    }
    assert (
        "Here LangGraph raised its own ValidationError first (the run's error below): under its "
        'default durability, "async", it builds the next node\'s input while the guard checks '
        'the save in the background. Run the graph with durability="sync" to get '
        "InvalidStateError itself."
    ) in [c.value for c in at.caption]
    message = next(c.value for c in at.code if c.value.startswith("[state_invalid]"))
    assert message.startswith(
        "[state_invalid] Thread 'trace': the state at step 1 fails AgentState (amount: Input "
        "should be greater than or equal to 0 [greater_than_equal]), written by validate_order."
    )


def test_with_the_guard_a_valid_run_is_stored_whole_and_its_trace_is_the_same(at):
    _run(at)
    unguarded = _table(at)
    _guarded_run(at, [])

    assert _guard_panel(at)["success"] == [
        "The guard stored every state of this run: the model accepts each one.",
        "The thread stays readable: get_state_history after the run read 4 checkpoints "
        "(steps -1, 0, 1, 2).",
    ]
    assert _guard_panel(at)["rows"] == []
    assert _table(at) == unguarded


def test_without_the_guard_there_is_no_guard_panel_and_the_link_carries_no_guard(at):
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["negative_amount"])
    _run(at)

    assert _guard_panel(at)["rows"] == []
    assert not [s for s in at.success if "get_state_history" in s.value]
    assert "guard" not in _shared_link(at)


def test_the_guard_switch_is_in_the_share_link_and_a_link_reopens_the_guarded_run(at):
    _guarded_run(at, ["negative_amount"])
    state = _shared_link(at)
    assert state["guard"] is True

    opened = _open_shared({k: v for k, v in state.items() if k != "page"})
    assert not opened.exception
    assert opened.toggle(key=keys.TRACE_GUARD).value is True
    assert _guard_panel(opened) == _guard_panel(at)


def test_a_payload_the_guard_refuses_as_input_run_anyway_says_so_and_draws_no_empty_table(at):
    # The walk (issue 41): "read 0 checkpoints (steps )", an empty grid under "The table
    # below is what LangGraph itself did", and the guard's step -1 left unexplained.
    at.session_state[keys.PAYLOAD_TEXT] = PRESETS["negative_amount"].value
    at.toggle(key=keys.TRACE_GUARD).set_value(True).run()
    _run(at)
    at.button(key=keys.RUN_ANYWAY).click().run()

    assert not at.exception
    assert (at.session_state[keys.TRACE_RESULT]["trace"].steps, _guard_panel(at)) == (
        [],
        {
            "error": [
                plain(
                    "In production the guard stops this run at step -1 (the run's input): that "
                    "state fails AgentState, and nothing of it is stored."
                )
            ],
            "success": [
                "The thread stays readable: get_state_history after the run read no "
                "checkpoint, as the guard stored none."
            ],
            "rows": [
                [
                    {
                        "path": "amount",
                        "message": "Input should be greater than or equal to 0",
                        "type": "greater_than_equal",
                        "input": "-1",
                    }
                ]
            ],
        },
    )
    # the gate's error table and the guard's, no empty grid for the steps no node made
    assert [d.value.shape[0] for d in at.dataframe] == [1, 1]
    assert "No node ran, so the run has no step to list." in [c.value for c in at.caption]
