"""views/retry.py with AppTest: presets, budgets, constraints, bad scripts, share links."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from core.retry import PRESETS
from core.share import encode_share
from tests.app._editor import editor
from tests.app.conftest import SHARE_FIELD, open_page, opened, token
from ui import keys

PAGE = str(Path(__file__).parents[2] / "views" / "retry.py")
EXHAUSTED_1 = [
    "UnexpectedModelBehavior: Exceeded maximum output retries (1)",
    "OutputRetriesExceeded: Exceeded maximum output retries (1)",
]


def _metrics(at: AppTest) -> list[tuple[str, str]]:
    return [(m.label, m.value) for m in at.metric]


def _verdicts(at: AppTest) -> list[list[str]]:
    # The two timelines come first (PydanticAI, then LangGraph); the LangGraph trace follows.
    return [list(at.dataframe[i].value["verdict"]) for i in (0, 1)]


def _outcomes(at: AppTest) -> list[str]:
    # not the model's source (python), nor an attempt's values whole under its table
    return [c.value for c in at.code if c.language not in ("python", "json", "text")]


def test_page_opens_on_the_article_run_on_both_engines():
    at = open_page(PAGE)

    assert at.selectbox(key=keys.RETRY_PRESET).value == "article"
    assert json.loads(editor(at, keys.RETRY_SCRIPT).value) == PRESETS["article"].value
    assert at.number_input(key=keys.RETRY_RETRIES).value == 1
    assert (
        _metrics(at) == [("model calls", "3"), ("retries used", "1"), ("feedback words", "11")] * 2
    )
    assert (
        _verdicts(at)
        == [["tool call: search ran", "invalid: feedback sent, retry", "valid: output accepted"]]
        * 2
    )
    answer = {
        "answer": "PostgreSQL 17.11",
        "citations": [
            {"source": "pg", "quote": "The order service stores its data in PostgreSQL 17.11."}
        ],
        "confidence": 0.8,
    }
    assert [json.loads(j.value) for j in at.json if "answer" in json.loads(j.value)] == [answer] * 2
    assert [i.value for i in at.info][0] == (
        "The article reads the validation feedback from a 'retry-prompt' part; on pydantic-ai "
        "2.68.0 this run carried it in: tool-return."
    )
    assert list(at.dataframe[0].value["message part"]) == [
        "tool-return (tool_name=search, outcome=success)",
        "tool-return (tool_name=final_result, outcome=retried)",
        "tool-return (tool_name=final_result, outcome=success)",
    ]
    assert list(at.dataframe[2].value["node"]) == [
        "__start__", "generate", "search", "generate",
        "validate", "feedback", "generate", "validate",
    ]  # fmt: skip


# preset -> model calls and outcome text on each engine (None: a valid Answer).
EXPECTED = {
    "article": (3, []),
    "always_invalid": (2, EXHAUSTED_1),
    "two_retries": (3, []),
    "plain_text": (2, []),
    "confidence": (2, []),
    "empty_citations": (2, []),
    "wrong_types": (2, []),
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_choosing_a_preset_loads_its_script_and_budget_and_runs_both_engines(name):
    at = open_page(PAGE)
    at.selectbox(key=keys.RETRY_PRESET).set_value(name).run()

    preset = PRESETS[name]
    assert not at.exception
    assert json.loads(editor(at, keys.RETRY_SCRIPT).value) == preset.value
    assert at.number_input(key=keys.RETRY_RETRIES).value == preset.options["retries"]
    calls, outcomes = EXPECTED[name]
    assert [v for label, v in _metrics(at) if label == "model calls"] == [str(calls)] * 2
    assert _outcomes(at) == outcomes


STALE = "The runs below are from the last Run; the inputs above changed since. Press Run."


def test_lowering_the_budget_makes_the_two_retry_preset_fail_and_raising_it_recovers():
    at = open_page(PAGE)
    at.selectbox(key=keys.RETRY_PRESET).set_value("two_retries").run()
    at.number_input(key=keys.RETRY_RETRIES).set_value(1).run()
    assert _metrics(at)[0] == ("model calls", "3")  # nothing re-runs until Run is pressed
    assert STALE in [i.value for i in at.info]

    at.button(key=keys.RUN_RETRY).click().run()
    assert _outcomes(at) == EXHAUSTED_1
    assert STALE not in [i.value for i in at.info]
    assert [list(at.dataframe[i].value["retries left"]) for i in (0, 1)] == [[0, 0]] * 2

    at.number_input(key=keys.RETRY_RETRIES).set_value(2).run()
    at.button(key=keys.RUN_RETRY).click().run()
    assert _outcomes(at) == []
    assert (
        _metrics(at) == [("model calls", "3"), ("retries used", "2"), ("feedback words", "20")] * 2
    )


def test_a_zero_budget_fails_on_the_first_bad_answer():
    at = open_page(PAGE)
    at.number_input(key=keys.RETRY_RETRIES).set_value(0).run()
    at.button(key=keys.RUN_RETRY).click().run()

    assert _outcomes(at) == [
        "UnexpectedModelBehavior: Exceeded maximum output retries (0)",
        "OutputRetriesExceeded: Exceeded maximum output retries (0)",
    ]
    assert [v for label, v in _metrics(at) if label == "model calls"] == ["2", "2"]


def test_tighter_constraints_reject_the_article_answer_on_both_engines():
    at = open_page(PAGE)
    at.number_input(key=keys.RETRY_MIN_CITATIONS).set_value(2).run()
    at.button(key=keys.RUN_RETRY).click().run()

    assert _outcomes(at) == EXHAUSTED_1
    assert "citations: list[Citation] = Field(min_length=2, description=" in at.code[0].value


def test_invalid_json_shows_line_and_column_and_keeps_the_text():
    at = open_page(PAGE)
    broken = '[{"text": "hi"},\n  oops]'
    editor(at, keys.RETRY_SCRIPT).set_value(broken).run()
    at.button(key=keys.RUN_RETRY).click().run()

    assert not at.exception
    assert editor(at, keys.RETRY_SCRIPT).value == broken
    assert [e.value for e in at.error] == [
        "The script was not run [retry_script_json] at line 2, column 3. Your text is kept; "
        "fix it and press Run."
    ]
    assert "invalid JSON at line 2, column 3: Expecting value" in _outcomes(at)
    assert at.dataframe.len == 0


def test_user_text_in_a_bad_script_is_shown_as_code_not_markdown():
    at = open_page(PAGE)
    editor(at, keys.RETRY_SCRIPT).set_value('[{"**bold** <b>x</b>": 1}]').run()

    assert [e.value for e in at.error] == [
        "The script was not run [retry_script_shape]. Your text is kept; fix it and press Run."
    ]
    assert any("**bold** <b>x</b>" in c for c in _outcomes(at))


def test_confidence_bounds_the_wrong_way_round_are_named_as_constraints_where_they_are_set():
    at = open_page(PAGE)
    at.number_input(key=keys.RETRY_CONFIDENCE_MIN).set_value(2.0).run()
    said = ["Nothing can run with these output model constraints [retry_constraints]."]
    why = "confidence ge must not be above le; lower ge or raise le"

    assert [e.value for e in at.error] == said  # before Run, under the constraints
    assert why in _outcomes(at)
    at.button(key=keys.RUN_RETRY).click().run()

    assert [e.value for e in at.error] == said  # said once, not again below the runs
    assert "Nothing was run: the output model constraints above do not fit together." in [
        c.value for c in at.caption
    ]
    assert at.dataframe.len == 0


def test_a_lone_surrogate_is_reported_with_its_position_and_the_text_kept():
    at = open_page(PAGE)
    text = '[{"text": "ok"},\n {"text": "\\ud800"}]'
    editor(at, keys.RETRY_SCRIPT).set_value(text).run()
    at.button(key=keys.RUN_RETRY).click().run()

    assert not at.exception
    assert editor(at, keys.RETRY_SCRIPT).value == text
    assert [e.value for e in at.error] == [
        "The script was not run [retry_script_surrogate] at line 2, column 12. Your text is "
        "kept; fix it and press Run."
    ]
    assert _outcomes(at) == [
        "A lone UTF-16 surrogate (\\ud800-\\udfff without its pair) is not a character; remove "
        "it or complete the surrogate pair."
    ]
    assert at.dataframe.len == 0


def _view(at: AppTest) -> dict:
    widgets = [keys.RETRY_PRESET, keys.RETRY_SCRIPT, keys.RETRY_RETRIES, keys.RETRY_MIN_CITATIONS]
    widgets += [keys.RETRY_CONFIDENCE_MIN, keys.RETRY_CONFIDENCE_MAX]
    return {
        "widgets": [at.session_state[key] for key in widgets],
        "metrics": _metrics(at),
        "verdicts": _verdicts(at),
        "outcomes": [c for c in _outcomes(at) if not c.startswith("?s=")],
        "model": [c.value for c in at.code if c.language == "python"],
        "warnings": [w.value for w in at.warning],
    }


def test_share_link_reopens_the_inputs_and_the_run_shown_even_with_unsubmitted_edits():
    at = open_page(PAGE)
    at.selectbox(key=keys.RETRY_PRESET).set_value("two_retries").run()
    at.number_input(key=keys.RETRY_RETRIES).set_value(1).run()
    at.number_input(key=keys.RETRY_CONFIDENCE_MAX).set_value(0.9).run()
    at.button(key=keys.RUN_RETRY).click().run()
    editor(at, keys.RETRY_SCRIPT).set_value('[{"text": "not run yet"}]').run()
    at.number_input(key=keys.RETRY_MIN_CITATIONS).set_value(2).run()
    at.button(key=keys.SHARE).click().run()
    fresh = opened(PAGE, token(at))

    assert not fresh.exception
    assert _view(fresh) == _view(at)
    assert _view(fresh)["widgets"] == ["two_retries", '[{"text": "not run yet"}]', 1, 2, 0.0, 0.9]
    assert _view(fresh)["outcomes"] == EXHAUSTED_1  # the submitted two_retries run, budget 1
    # The changed constraints are in view, as they were on the sharing screen.
    shown = [(e.label, e.proto.expanded) for e in fresh.expander if e.label.startswith("Output")]
    assert shown == [("Output model constraints (changed)", True)]


def _raw_token(raw: str) -> str:
    """A token our encoder would refuse to make (1e400 is read back as infinity)."""
    packed = base64.urlsafe_b64encode(zlib.compress(raw.encode("ascii"))).rstrip(b"=")
    return "v1." + packed.decode("ascii")


def test_a_hostile_share_link_drops_each_bad_field_by_name_and_runs_the_defaults():
    raw = (
        '{"page": "retry", "preset": ["**x**"], "script": ["\\u0000"], "retries": 99, '
        '"min_citations": true, "confidence_min": -1e400, "confidence_max": 1e400, '
        '"submitted": {"retries": "<b>3</b>", "script": 7}}'
    )
    at = opened(PAGE, _raw_token(raw))

    assert not at.exception
    expected = _view(open_page(PAGE))
    expected["warnings"] = [SHARE_FIELD]
    expected["outcomes"] = [  # the refused fields, named, then each with Pydantic's reason
        "script, retries, min_citations, confidence_min, confidence_max, preset, "
        "submitted.script, submitted.retries",
        "script: Input should be a valid string\n"
        "retries: Input should be less than or equal to 5\n"
        "min_citations: Input should be a valid integer\n"
        "confidence_min: Input should be a finite number\n"
        "confidence_max: Input should be a finite number\n"
        "preset: Input should be a valid string\n"
        "submitted.script: Input should be a valid string\n"
        "submitted.retries: Input should be a valid integer",
        *expected["outcomes"],
    ]
    assert _view(at) == expected


def test_a_share_link_whose_script_nests_too_deep_says_where_and_keeps_the_text():
    # 600 levels: a recursive walk of the parsed script used to exhaust the stack here.
    deep = '[{"answer": {"x": ' + "[" * 600 + "]" * 600 + "}}]"
    at = opened(
        PAGE, encode_share({"page": "retry", "script": deep, "submitted": {"script": deep}})
    )

    assert not at.exception
    assert editor(at, keys.RETRY_SCRIPT).value == deep
    assert [e.value for e in at.error] == [
        "The script was not run [retry_script_shape] at line 1, column 216. Your text is kept; "
        "fix it and press Run."
    ]
    assert "The script nests deeper than 200 levels; flatten it." in _outcomes(at)


def test_the_preset_summary_says_when_the_constraints_are_not_its_defaults():
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    summary = PRESETS["article"].summary
    assert summary in [c.value for c in at.caption]
    at.number_input(key=keys.RETRY_MIN_CITATIONS).set_value(2).run()
    assert summary + (
        " (The output model constraints below are not the defaults this summary assumes.)"
    ) in [c.value for c in at.caption]


def test_a_run_that_draws_on_both_counters_says_why_it_retried_past_its_budget():
    at = open_page(PAGE)
    script = [
        {"text": "hi"},
        {
            "answer": {
                "answer": "a",
                "citations": [{"source": "s", "quote": "q"}],
                "confidence": 0.5,
            }
        },
    ]
    editor(at, keys.RETRY_SCRIPT).input(json.dumps(script)).run()
    at.number_input(key=keys.RETRY_CONFIDENCE_MIN).set_value(0.9).run()
    at.button(key=keys.RUN_RETRY).click().run()
    assert not at.exception
    for i in (0, 1):  # both engines
        table = at.dataframe[i].value
        assert table[["verdict", "retries left", "on counter"]].values.tolist() == [
            ["invalid: feedback sent, retry", 0, "run"],
            ["invalid: feedback sent, retry", 0, "output tool"],
            ["invalid: budget exhausted, run ends", 0, "output tool"],
        ]
    why = (
        "2 retries on a budget of 1: 1 on the run counter, 1 on the output tool counter. Each "
        "counter has the whole budget: a plain-text answer draws on the run's, a call of the "
        "output tool on the tool's own."
    )
    assert [i.value for i in at.info].count(why) == 2


def test_a_run_within_its_budget_says_nothing_about_counters():
    at = open_page(PAGE)
    script = [
        {"text": "hi"},
        {"answer": {"answer": "a", "citations": []}},
        {"answer": {"answer": "a", "citations": [{"source": "s", "quote": "q"}], "confidence": 1}},
    ]
    editor(at, keys.RETRY_SCRIPT).input(json.dumps(script)).run()
    at.number_input(key=keys.RETRY_RETRIES).set_value(3).run()
    at.button(key=keys.RUN_RETRY).click().run()
    assert not at.exception
    assert [list(at.dataframe[i].value["on counter"]) for i in (0, 1)] == [
        ["run", "output tool", ""]
    ] * 2
    assert not [i.value for i in at.info if "on a budget of" in i.value]


def test_the_script_error_is_marked_in_the_editor_at_its_line_col():
    at = open_page(PAGE)
    assert editor(at, keys.RETRY_SCRIPT).args()["marks"] == []
    broken = '[{"text": "hi"},\n  oops]'
    editor(at, keys.RETRY_SCRIPT).input(broken).run()
    (mark,) = editor(at, keys.RETRY_SCRIPT).args()["marks"]
    assert (mark["line"], mark["col"], mark["severity"]) == (2, 3, "error")
    assert mark["message"].startswith("[retry_script_json] invalid JSON at line 2, column 3")
    assert editor(at, keys.RETRY_SCRIPT).args()["label"] == "Model script (JSON list of turns)"


def test_counts_read_in_the_singular_and_plural_their_number_needs():
    # #41 item 10: "after 1 model calls" read as written whatever the number.
    at = open_page(PAGE)
    valid = json.dumps(PRESETS["article"].value[-1])
    editor(at, keys.RETRY_SCRIPT).set_value(f"[{valid}]").run()
    at.button(key=keys.RUN_RETRY).click().run()
    assert [s.value for s in at.success if s.value.startswith("Valid")] == [
        "Valid Answer after 1 model call"
    ] * 2
    at.selectbox(key=keys.RETRY_PRESET).set_value("two_retries").run()
    assert [s.value for s in at.success if s.value.startswith("Valid")] == [
        "Valid Answer after 3 model calls"
    ] * 2
