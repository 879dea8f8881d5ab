"""A visit to another page and back keeps every input a page holds, and the shown results."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.schema_options import SchemaOptions, model_source
from tests.app._editor import editor
from tests.app.conftest import options_open
from ui import keys
from ui.errors.view import PYTHON_MODE_NOTE

APP = str(Path(__file__).parents[2] / "app.py")
EDITED = to_text({**SEED_PAYLOAD, "amount": -1})


def _open(page: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception
    return at


def _away_and_back(at: AppTest, page: str, kept: list[str]) -> tuple[dict, dict]:
    before = {key: at.session_state[key] for key in kept}
    at.switch_page("views/behaviour.py" if page != "behaviour" else "views/validate.py").run()
    at.switch_page(f"views/{page}.py").run()
    assert not at.exception
    return before, {key: at.session_state[key] for key in kept}


def test_validate_keeps_its_text_view_editor_and_schema_options():
    at = _open("validate")
    editor(at, keys.PAYLOAD).input(EDITED).run()
    at.button_group(key=keys.VALIDATE_VIEW).set_value("Model source").run()
    options_open(at).toggle(key=keys.option("strict")).set_value(True).run()
    options_open(at).number_input(key=keys.option("amount_le")).set_value(500.0).run()

    before, after = _away_and_back(
        at,
        "validate",
        [keys.PAYLOAD, keys.VALIDATE_VIEW, keys.option("strict"), keys.option("amount_le")],
    )
    assert (
        before
        == after
        == {
            keys.PAYLOAD: EDITED,
            keys.VALIDATE_VIEW: "Model source",
            keys.option("strict"): True,
            keys.option("amount_le"): 500.0,
        }
    )
    # the model source shown is the changed model's
    assert (
        at.main.code[-1].value == model_source(SchemaOptions(strict=True, amount_le=500.0)).strip()
    )


def test_trace_keeps_its_graph_mode_faults_and_step():
    at = _open("trace")
    at.multiselect(key=keys.TRACE_FAULTS).set_value(["negative_amount"]).run()
    at.radio(key=keys.TRACE_MODE).set_value("native").run()

    before, after = _away_and_back(
        at, "trace", [keys.TRACE_GRAPH, keys.TRACE_FAULTS, keys.TRACE_MODE]
    )
    assert (
        before
        == after
        == {
            keys.TRACE_GRAPH: "seed",
            keys.TRACE_FAULTS: ["negative_amount"],
            keys.TRACE_MODE: "native",
        }
    )


def test_trace_keeps_the_fork_editor_text_of_the_step_shown():
    at = _open("trace")
    at.button(key=keys.RUN).click().run()
    at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).click().run()
    state = at.session_state[keys.FORK_TEXT]
    assert json.loads(state)["status"] == "validated"  # the state after step 1, unedited

    _, after = _away_and_back(at, "trace", [keys.FORK_TEXT])
    assert after == {keys.FORK_TEXT: state}
    assert not [c.value for c in at.caption if c.value.startswith("Edited")]

    edited = state.replace('"validated"', '"confirmed"')
    at.session_state[keys.FORK_TEXT] = edited
    at.run()
    _, after = _away_and_back(at, "trace", [keys.FORK_TEXT])
    assert after == {keys.FORK_TEXT: edited}


def test_behaviour_keeps_its_filters():
    at = _open("behaviour")
    at.multiselect(key=keys.VERDICT_FILTER).set_value(["differs"]).run()

    before, after = _away_and_back(at, "behaviour", [keys.VERDICT_FILTER, keys.SOURCE_FILTER])
    assert before == after
    assert after[keys.VERDICT_FILTER] == ["differs"]


def test_tools_keeps_its_scenario_preset_text_and_schema_view():
    at = _open("tools")
    at.selectbox(key=keys.SCENARIO).set_value("custom_type").run()
    editor(at, keys.TOOL_PAYLOAD).input('{"my": "edited text"}').run()
    at.button_group(key=keys.SCHEMA_TAB).set_value("Google Gemini").run()

    kept = [keys.SCENARIO, keys.TOOL_PRESET, keys.TOOL_PAYLOAD, keys.SCHEMA_TAB]
    before, after = _away_and_back(at, "tools", kept)
    assert before == after
    assert (after[keys.SCENARIO], after[keys.TOOL_PAYLOAD], after[keys.SCHEMA_TAB]) == (
        "custom_type",
        '{"my": "edited text"}',
        "Google Gemini",
    )


def test_retry_keeps_its_script_budget_and_results_together():
    at = _open("retry")
    script = '[{"text": "my edited script"}]'
    editor(at, keys.RETRY_SCRIPT).input(script).run()
    at.number_input(key=keys.RETRY_RETRIES).set_value(3).run()
    at.button(key=keys.RUN_RETRY).click().run()
    shown = [m.value for m in at.metric]

    kept = [keys.RETRY_PRESET, keys.RETRY_SCRIPT, keys.RETRY_RETRIES, keys.RETRY_CONFIDENCE_MIN]
    before, after = _away_and_back(at, "retry", kept)
    assert before == after
    assert (after[keys.RETRY_SCRIPT], after[keys.RETRY_RETRIES]) == (script, 3)
    assert [m.value for m in at.metric] == shown  # the results still belong to these inputs


def test_trace_runs_the_model_the_validate_pages_schema_options_make():
    at = _open("validate")
    editor(at, keys.PAYLOAD).input(to_text({**SEED_PAYLOAD, "amount": 500})).run()
    options_open(at).number_input(key=keys.option("amount_le")).set_value(100.0).run()
    assert [e.value for e in at.error] == [
        "LangGraph raises before the first node runs: the graph would not run. "
        "1 error, listed below, that both LangGraph and your model reject."
    ]

    at.switch_page("views/trace.py").run()
    assert [i.value for i in at.info] == [
        "The schema options set on the Validate page apply here too: the graph's state is "
        "the order model with these options (change them there).",
        "Pick a graph and faults, then press Run.",
    ]
    assert "amount_le = 100.0" in [c.value for c in at.code]
    at.button(key=keys.RUN).click().run()
    assert not at.exception
    gate = at.dataframe[0].value
    assert gate.to_dict("records") == [
        {
            "path": "amount",
            "pointer": "/amount",
            "line:col": "3:13",
            "type": "less_than_equal",
            "message": "Input should be less than or equal to 100",
            "input": "500",
            "ctx": '{"le": 100.0}',
            "docs": "https://errors.pydantic.dev/2.14/v/less_than_equal",
        }
    ]


def test_a_trace_share_link_carries_the_schema_options_to_a_fresh_session():
    at = _open("validate")
    editor(at, keys.PAYLOAD).input(to_text({**SEED_PAYLOAD, "amount": 500})).run()
    options_open(at).number_input(key=keys.option("amount_le")).set_value(100.0).run()
    at.switch_page("views/trace.py").run()
    at.button(key=keys.RUN).click().run()  # a link made before a run reopens without one
    at.button(key=keys.SHARE).click().run()
    token = at.query_params["s"]

    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params["s"] = token
    fresh.run()
    fresh.switch_page("views/trace.py").run()
    assert not fresh.exception
    assert fresh.session_state[keys.TRACE_RESULT]["settings"]["options"]["amount_le"] == 100.0
    assert fresh.dataframe[0].value[["path", "type"]].values.tolist() == [
        ["amount", "less_than_equal"]
    ]
    fresh.switch_page("views/validate.py").run()  # the options reach the Validate page too
    assert options_open(fresh).number_input(key=keys.option("amount_le")).value == 100.0


def test_in_strict_mode_validate_and_trace_agree_the_python_mode_gate_is_closed():
    # Validate used to say "Gate open — the graph would run" (its JSON-mode check passes)
    # while Trace's gate, on the parsed dict in Python mode, refused the same text. LangGraph
    # itself builds the first node's input in Python mode: its entry refuses it too.
    at = _open("validate")
    options_open(at).toggle(key=keys.option("strict")).set_value(True).run()
    row = [["user_id", "2:14", "is_instance_of"]]
    assert [e.value for e in at.error] == [
        "LangGraph raises before the first node runs: the graph would not run. "
        "1 error, listed below, that only LangGraph rejects. Your model alone accepts it."
    ]
    assert at.dataframe[0].value[["path", "line:col", "type", "rejected by"]].values.tolist() == [
        [*row[0], "LangGraph"]
    ]
    assert [i.value for i in at.info] == [PYTHON_MODE_NOTE]
    assert not at.success

    at.switch_page("views/trace.py").run()
    at.button(key=keys.RUN).click().run()
    assert not at.exception
    assert at.dataframe[0].value[["path", "line:col", "type"]].values.tolist() == row
    assert [i.value for i in at.info][-1] == PYTHON_MODE_NOTE


def test_a_share_link_opened_on_another_page_opens_the_page_it_was_made_on():
    at = _open("validate")
    editor(at, keys.PAYLOAD).input(EDITED).run()
    at.button(key=keys.SHARE).click().run()
    token = at.query_params["s"]

    fresh = AppTest.from_file(APP, default_timeout=60)
    fresh.query_params["s"] = token
    fresh.switch_page("views/trace.py").run()  # the address edited from / to /trace
    assert not fresh.exception
    assert [t.value for t in fresh.title] == ["Validate"]
    assert editor(fresh, keys.PAYLOAD).value == EDITED
    assert fresh.query_params["s"] == token
