"""core.retry: both engines on the article's scripts, compared as whole attempt timelines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.retry import (
    PRESETS,
    Answer,
    AnswerConstraints,
    Citation,
    RetryInputError,
    RunError,
    answer_model,
    answer_source,
    check_script,
    load_script,
    run_script,
)
from core.retry.timeline import left_out


def _js(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _compact(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


QUOTE = "The order service stores its data in PostgreSQL 17.11."
VALID = {
    "answer": "PostgreSQL 17.11",
    "citations": [{"source": "pg", "quote": QUOTE}],
    "confidence": 0.8,
}
EMPTY = {"answer": "17.11", "citations": [], "confidence": 0.9}
TOO_SHORT = {
    "type": "too_short",
    "loc": ["citations"],
    "msg": "List should have at least 1 item after validation, not 0",
    "input": [],
}
TOO_SHORT_EXTRA = {
    "ctx": {"field_type": "List", "min_length": 1, "actual_length": 0},
    "url": "https://errors.pydantic.dev/2.14/v/too_short",
}
MISSING_CONFIDENCE = {
    "type": "missing",
    "loc": ["confidence"],
    "msg": "Field required",
    "input": {"answer": "x", "citations": []},
}
ANSWER_OBJECT = Answer(
    answer="PostgreSQL 17.11", citations=[Citation(source="pg", quote=QUOTE)], confidence=0.8
)
# The columns both engines must agree on; sent_back and part are each engine's own wire format.
SHARED = ("attempt", "returned", "verdict", "errors", "left_out", "retries_left")


def _row(attempt, returned, verdict, errors="", sent_back="", part="", left="", retries_left=0):
    return {
        "attempt": attempt,
        "returned": returned,
        "verdict": verdict,
        "errors": errors,
        "sent_back": sent_back,
        "part": part,
        "left_out": left,
        "retries_left": retries_left,
    }


def _shared(run):
    return [{k: row[k] for k in SHARED} for row in run.rows()]


def test_article_script_makes_three_calls_and_returns_an_answer_on_pydantic_ai():
    run = run_script(PRESETS["article"].value, engine="pydantic_ai")

    assert (run.calls, run.output, run.error) == (3, ANSWER_OBJECT, None)
    assert run.rows() == [
        _row(
            1,
            _js({"tool": "search", "args": {"query": "postgres"}}),
            "tool call: search ran",
            sent_back=_compact([QUOTE_CHUNK]),
            part="tool-return (tool_name=search, outcome=success)",
            retries_left=1,
        ),
        _row(
            2,
            _js({"tool": "final_result", "args": EMPTY}),
            "invalid: feedback sent, retry",
            errors=_js([TOO_SHORT]),
            sent_back=_compact({"error": [TOO_SHORT]}),
            part="tool-return (tool_name=final_result, outcome=retried)",
            left=_js({"citations.too_short": TOO_SHORT_EXTRA}),
            retries_left=0,
        ),
        _row(
            3,
            _js({"tool": "final_result", "args": VALID}),
            "valid: output accepted",
            sent_back="Final result processed.",
            part="tool-return (tool_name=final_result, outcome=success)",
            retries_left=0,
        ),
    ]
    assert (run.retries_used, run.feedback_words) == (1, 11)


QUOTE_CHUNK = "[pg] " + QUOTE


def test_article_script_makes_three_calls_and_returns_an_answer_on_langgraph():
    run = run_script(PRESETS["article"].value, engine="langgraph")

    assert (run.calls, run.output, run.error) == (3, ANSWER_OBJECT, None)
    assert run.rows() == [
        _row(
            1,
            _js({"tool": "search", "args": {"query": "postgres"}}),
            "tool call: search ran",
            sent_back=_compact([QUOTE_CHUNK]),
            part="ToolMessage (name=search, status=success)",
            retries_left=1,
        ),
        _row(
            2,
            _js({"tool": "final_result", "args": EMPTY}),
            "invalid: feedback sent, retry",
            errors=_js([TOO_SHORT]),
            sent_back=_compact({"error": [TOO_SHORT]}),
            part="ToolMessage (name=final_result, status=error)",
            left=_js({"citations.too_short": TOO_SHORT_EXTRA}),
            retries_left=0,
        ),
        _row(3, _js({"tool": "final_result", "args": VALID}), "valid: output accepted"),
    ]
    assert [s.node for s in run.trace.steps] == [
        "__start__",
        "generate",
        "search",
        "generate",
        "validate",
        "feedback",
        "generate",
        "validate",
    ]


def test_always_invalid_exhausts_the_default_budget_after_two_calls_on_both_engines():
    script = PRESETS["always_invalid"].value
    pydantic_ai = run_script(script, engine="pydantic_ai")
    langgraph = run_script(script, engine="langgraph")

    errors = [TOO_SHORT, MISSING_CONFIDENCE]
    left = _js(
        {
            "citations.too_short": TOO_SHORT_EXTRA,
            "confidence.missing": {"url": "https://errors.pydantic.dev/2.14/v/missing"},
        }
    )
    returned = _js({"tool": "final_result", "args": {"answer": "x", "citations": []}})
    assert pydantic_ai.rows() == [
        _row(
            1,
            returned,
            "invalid: feedback sent, retry",
            _js(errors),
            _compact({"error": errors}),
            "tool-return (tool_name=final_result, outcome=retried)",
            left,
            0,
        ),
        _row(2, returned, "invalid: budget exhausted, run ends", _js(errors), left=left),
    ]
    assert langgraph.rows() == [
        _row(
            1,
            returned,
            "invalid: feedback sent, retry",
            _js(errors),
            _compact({"error": errors}),
            "ToolMessage (name=final_result, status=error)",
            left,
            0,
        ),
        _row(2, returned, "invalid: budget exhausted, run ends", _js(errors), left=left),
    ]
    message = "Exceeded maximum output retries (1)"
    assert (pydantic_ai.calls, pydantic_ai.output, pydantic_ai.error) == (
        2,
        None,
        RunError("UnexpectedModelBehavior", message),
    )
    assert (langgraph.calls, langgraph.output, langgraph.error) == (
        2,
        None,
        RunError("OutputRetriesExceeded", message),
    )


# preset -> (model calls, valid Answer?, error message) with the preset's own budget.
OUTCOMES = {
    "article": (3, True, None),
    "always_invalid": (2, False, "Exceeded maximum output retries (1)"),
    "two_retries": (3, True, None),
    "plain_text": (2, True, None),
    "confidence": (2, True, None),
    "empty_citations": (2, True, None),
    "wrong_types": (2, True, None),
}


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_gives_the_same_timeline_on_both_engines(name):
    preset = PRESETS[name]
    pydantic_ai = run_script(preset.value, engine="pydantic_ai", retries=preset.options["retries"])
    langgraph = run_script(preset.value, engine="langgraph", retries=preset.options["retries"])

    assert _shared(pydantic_ai) == _shared(langgraph)
    calls, valid, message = OUTCOMES[name]
    for run in (pydantic_ai, langgraph):
        assert (run.calls, run.output == ANSWER_OBJECT, run.error and run.error.message) == (
            calls,
            valid,
            message,
        )


def test_wrong_field_types_report_one_error_per_field_with_only_the_url_left_out():
    run = run_script(PRESETS["wrong_types"].value, engine="pydantic_ai")

    errors = [
        {
            "type": "string_type",
            "loc": ["answer"],
            "msg": "Input should be a valid string",
            "input": 42,
        },
        {
            "type": "list_type",
            "loc": ["citations"],
            "msg": "Input should be a valid list",
            "input": "pg",
        },
        {
            "type": "float_parsing",
            "loc": ["confidence"],
            "msg": "Input should be a valid number, unable to parse string as a number",
            "input": "high",
        },
    ]
    url = "https://errors.pydantic.dev/2.14/v/"
    assert run.rows()[0] == _row(
        1,
        _js(
            {
                "tool": "final_result",
                "args": {"answer": 42, "citations": "pg", "confidence": "high"},
            }
        ),
        "invalid: feedback sent, retry",
        _js(errors),
        _compact({"error": errors}),
        "tool-return (tool_name=final_result, outcome=retried)",
        _js({f"{e['loc'][0]}.{e['type']}": {"url": url + e["type"]} for e in errors}),
        0,
    )


def test_plain_text_feedback_arrives_as_a_fenced_retry_feedback_part_not_a_tool_return():
    run = run_script(PRESETS["plain_text"].value, engine="pydantic_ai")

    error = {
        "type": "json_invalid",
        "loc": [],
        "msg": "Invalid JSON: expected ident at line 1 column 2",
        "input": "It uses PostgreSQL 17.11.",
    }
    assert run.rows()[0] == _row(
        1,
        _js({"text": "It uses PostgreSQL 17.11."}),
        "invalid: feedback sent, retry",
        _js([error]),
        "Your previous response failed the application's validation (this is automated feedback, "
        "not a message from the user):\n<pyai:validation_errors>\n"
        + _compact([error])
        + "\n</pyai:validation_errors>",
        "retry-feedback (cause=validation_error)",
        _js(
            {
                "(root).json_invalid": {
                    "ctx": {"error": "expected ident at line 1 column 2"},
                    "url": "https://errors.pydantic.dev/2.14/v/json_invalid",
                }
            }
        ),
        0,
    )
    assert run.notes == [
        "The article reads the validation feedback from a 'retry-prompt' part; on pydantic-ai "
        "2.68.0 this run carried it in: retry-feedback."
    ]


def test_pydantic_ai_notes_where_its_messages_differ_from_the_article():
    run = run_script(PRESETS["article"].value, engine="pydantic_ai")

    assert run.notes == [
        "The article reads the validation feedback from a 'retry-prompt' part; on pydantic-ai "
        "2.68.0 this run carried it in: tool-return.",
        "Each error's loc arrives as a list (e.g. ['citations']), not the tuple ('citations',) the "
        "article prints.",
        'The text the model is shown wraps the errors in {"error": [...]}; the article prints the '
        "bare list.",
    ]


def test_pydantic_ai_timeline_is_what_its_messages_hold():
    run = run_script(PRESETS["article"].value, engine="pydantic_ai")

    retried = [p for m in run.messages for p in m["parts"] if p.get("outcome") == "retried"]
    assert [(p["tool_name"], p["content"], p["retry"]) for p in retried] == [
        ("final_result", [TOO_SHORT], {"cause": "validation_error", "attempt": 1, "max_retries": 1})
    ]
    assert [m["kind"] for m in run.messages] == ["request", "response"] * 3 + ["request"]


def test_two_bad_answers_need_a_budget_of_two():
    script = PRESETS["two_retries"].value
    for engine in ("pydantic_ai", "langgraph"):
        short = run_script(script, engine=engine, retries=1)
        enough = run_script(script, engine=engine, retries=2)
        assert (short.calls, short.error.message, [r["retries_left"] for r in short.rows()]) == (
            2,
            "Exceeded maximum output retries (1)",
            [0, 0],
        )
        assert (enough.calls, enough.output, [r["retries_left"] for r in enough.rows()]) == (
            3,
            ANSWER_OBJECT,
            [1, 0, 0],
        )


def test_text_after_a_bad_tool_answer_draws_on_the_run_budget_the_tool_call_already_spent():
    script = [{"answer": EMPTY}, {"text": "hello"}, {"answer": VALID}]
    runs = [run_script(script, engine=e) for e in ("pydantic_ai", "langgraph")]

    assert _shared(runs[0]) == _shared(runs[1])
    assert [(r.calls, r.error.message, [a["verdict"] for a in r.rows()]) for r in runs] == [
        (
            2,
            "Exceeded maximum output retries (1)",
            ["invalid: feedback sent, retry", "invalid: budget exhausted, run ends"],
        )
    ] * 2


def test_an_empty_text_gets_pydantic_ais_no_output_reply_with_no_errors_sent():
    # PydanticAI answers an empty text with a sentence, not validation errors: nothing was
    # sent to the model, so nothing can be left out of it either.
    run = run_script(
        [{"tool": "search", "args": {"query": "pg"}}, {"text": ""}], engine="pydantic_ai"
    )

    assert (run.calls, run.error.message) == (3, "Exceeded maximum output retries (1)")
    assert [a.__dict__ for a in run.attempts] == [
        _row(
            1,
            '{"tool": "search", "args": {"query": "pg"}}',
            "tool call: search ran",
            sent_back=f'["[pg] {QUOTE}"]',
            part="tool-return (tool_name=search, outcome=success)",
            retries_left=1,
        ),
        _row(
            2,
            '{"text": ""}',
            "invalid: feedback sent, retry",
            sent_back="Please return text or include your response in a tool call.",
            part="retry-feedback (cause=no_output)",
        ),
        _row(3, '{"text": ""}', "invalid: budget exhausted, run ends"),
    ]


def test_zero_budget_fails_on_the_first_bad_answer():
    runs = [
        run_script([{"answer": EMPTY}], engine=e, retries=0) for e in ("pydantic_ai", "langgraph")
    ]

    assert [(r.calls, r.error.message, r.retries_used) for r in runs] == [
        (1, "Exceeded maximum output retries (0)", 0)
    ] * 2


def test_a_script_that_only_searches_stops_at_the_call_limit():
    script = [{"tool": "search", "args": {"query": "pg"}}]
    pydantic_ai = run_script(script, engine="pydantic_ai")
    langgraph = run_script(script, engine="langgraph")

    assert _shared(pydantic_ai) == _shared(langgraph)
    assert (pydantic_ai.calls, pydantic_ai.error.type) == (10, "UsageLimitExceeded")
    assert pydantic_ai.error.message.startswith(
        "The next request would exceed the request_limit of 10"
    )
    assert (langgraph.calls, langgraph.error) == (
        10,
        RunError("CallLimitExceeded", "The next request would exceed the request_limit of 10"),
    )


def test_text_holding_valid_answer_json_is_accepted_as_the_output():
    script = [{"text": json.dumps(VALID)}]
    runs = [run_script(script, engine=e) for e in ("pydantic_ai", "langgraph")]

    assert [(r.calls, r.output, _shared(r)[0]["verdict"]) for r in runs] == [
        (1, ANSWER_OBJECT, "valid: output accepted")
    ] * 2


def test_tighter_constraints_reject_the_article_answer_and_name_the_new_bound():
    tight = AnswerConstraints(min_citations=2, confidence_max=0.5)
    runs = [
        run_script([{"answer": VALID}], engine=e, constraints=tight)
        for e in ("pydantic_ai", "langgraph")
    ]

    assert _shared(runs[0]) == _shared(runs[1])
    assert [json.loads(r["errors"]) for r in runs[0].rows()] == [
        [
            {
                "type": "too_short",
                "loc": ["citations"],
                "msg": "List should have at least 2 items after validation, not 1",
                "input": VALID["citations"],
            },
            {
                "type": "less_than_equal",
                "loc": ["confidence"],
                "msg": "Input should be less than or equal to 0.5",
                "input": 0.8,
            },
        ]
    ] * 2


def test_left_out_lists_only_the_keys_missing_from_what_was_sent():
    sent = [{"type": "missing", "loc": ["a"], "msg": "Field required"}]
    full = [{**sent[0], "url": "u"}, {"type": "too_long", "loc": [], "ctx": {"max_length": 1}}]

    assert left_out(sent, full) == _js(
        {
            "a.missing": {"url": "u"},
            "(root).too_long": {"type": "too_long", "loc": [], "ctx": {"max_length": 1}},
        }
    )
    assert left_out(sent, sent) == ""


@pytest.mark.parametrize(
    ("text", "code", "line", "col", "message"),
    [
        (
            '[{"text": "a"},\n  oops]',
            "retry_script_json",
            2,
            3,
            "invalid JSON at line 2, column 3: Expecting value",
        ),
        (
            '{"text": "a"}',
            "retry_script_shape",
            None,
            None,
            "the script must be a JSON list of 1 to 20 turns",
        ),
        (
            '[{"tool": "delete", "args": {}}]',
            "retry_script_shape",
            None,
            None,
            'turn 1: the only tool is "search"',
        ),
        (
            '[{"text": "a"}, {"answer": {"confidence": NaN}}]',
            "retry_script_json",
            1,
            43,
            "invalid JSON at line 1, column 43: NaN is not JSON; write a number such as 0.5",
        ),
        (
            '[{"text": "NaN -Infinity"},\n {"answer": {"confidence": -Infinity}}]',
            "retry_script_json",
            2,
            28,
            "invalid JSON at line 2, column 28: -Infinity is not JSON; write a number such as 0.5",
        ),
        (  # json.loads reads it as inf: "numbers must be finite" came without a position
            '[{"text": "1e400"},\n {"answer": {"confidence": -2.5E+999}}]',
            "retry_script_number",
            2,
            28,
            "a number at line 2, column 28 is too large for a float and would become Infinity; "
            "write a smaller one",
        ),
        (
            " \n ",
            "retry_script_json",
            None,
            None,
            "the script is empty; write a JSON list of turns or pick a preset",
        ),
        (
            '[{"answer": {"n": ' + "1" * 4301 + "}}]",
            "retry_script_number",
            1,
            19,
            "An integer has 4,301 digits; the limit is 4,300. Shorten it or send it as a string.",
        ),
        (
            '[{"text": "a", "answer": {}}]',
            "retry_script_shape",
            None,
            None,
            'turn 1: unexpected keys [\'answer\', \'text\']; use {"tool": "search", "args": '
            '{"query": "..."}}, {"answer": {...}} or {"text": "..."}',
        ),
        (
            '\ufeff[{"text": "a"}]',
            "retry_script_json",
            1,
            1,
            "invalid JSON at line 1, column 1: the text starts with an invisible byte-order "
            "mark (U+FEFF); delete it",
        ),
        (
            '[{"answer": {"x": ' + "[" * 205 + "]" * 205 + "}}]",
            "retry_script_shape",
            1,
            216,
            "The script nests deeper than 200 levels; flatten it.",
        ),
        (  # deep enough to exhaust the stack of a recursive walk: refused before any walks it
            '[{"answer": {"x": ' + "[" * 600 + "]" * 600 + "}}]",
            "retry_script_shape",
            1,
            216,
            "The script nests deeper than 200 levels; flatten it.",
        ),
        (
            "[" * 5000,
            "retry_script_shape",
            1,
            201,
            "The script nests deeper than 200 levels; flatten it.",
        ),
    ],
)
def test_bad_scripts_are_rejected_with_a_code_and_position(text, code, line, col, message):
    with pytest.raises(RetryInputError) as caught:
        load_script(text)

    assert (caught.value.code, caught.value.line, caught.value.col, caught.value.message) == (
        code,
        line,
        col,
        message,
    )


SURROGATE = (
    "A lone UTF-16 surrogate (\\ud800-\\udfff without its pair) is not a character; remove it "
    "or complete the surrogate pair."
)


@pytest.mark.parametrize(
    ("text", "line", "col"),
    [
        ('[{"text": "\\ud800"}]', 1, 12),  # the JSON escape, as typed
        ('[{"answer": {"answer": "x\\udc00", "citations": []}}]', 1, 26),
        ('[{"text": "ok"},\n {"tool": "search", "args": {"query": "a\udc00"}}]', 2, 41),  # raw
    ],
)
def test_a_lone_surrogate_is_rejected_with_its_position_before_any_engine_runs(text, line, col):
    # Unchecked, PydanticAI raised PydanticSerializationError and LangGraph UnicodeEncodeError.
    with pytest.raises(RetryInputError) as caught:
        load_script(text)

    assert (caught.value.code, caught.value.line, caught.value.col, caught.value.message) == (
        "retry_script_surrogate",
        line,
        col,
        SURROGATE,
    )


def test_a_complete_surrogate_pair_is_a_character_and_runs_on_both_engines():
    pair = "\\ud83d\\ude00"
    text = (
        f'[{{"text": "{pair}"}}, {{"answer": {{"answer": "{pair}", '
        '"citations": [{"source": "pg", "quote": "q"}], "confidence": 0.5}}]'
    )
    script = load_script(text)
    runs = [run_script(script, engine=engine) for engine in ("pydantic_ai", "langgraph")]

    assert script[0] == {"text": "\U0001f600"}
    assert [(run.calls, run.output) for run in runs] == [
        (
            2,
            Answer(
                answer="\U0001f600", citations=[Citation(source="pg", quote="q")], confidence=0.5
            ),
        )
    ] * 2


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"engine": "openai"}, "retry_engine"),
        ({"engine": "langgraph", "retries": 6}, "retry_budget"),
        (
            {"engine": "langgraph", "constraints": AnswerConstraints(confidence_min=2)},
            "retry_constraints",
        ),
    ],
)
def test_bad_run_options_are_rejected_with_a_stable_code(kwargs, code):
    with pytest.raises(RetryInputError) as caught:
        run_script([{"text": "x"}], **kwargs)

    assert caught.value.code == code


def test_pydantic_ai_engine_runs_with_the_network_blocked():
    code = (
        "import socket\n"
        "def blocked(*args, **kwargs):\n"
        "    raise OSError('network disabled by the test')\n"
        "socket.socket.connect = socket.create_connection = socket.getaddrinfo = blocked\n"
        "from core.retry import PRESETS, run_script\n"
        "run = run_script(PRESETS['article'].value, engine='pydantic_ai')\n"
        "print(run.calls, type(run.output).__name__, run.error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[3],
    )

    assert done.stdout.split() == ["3", "Answer", "None"]


def test_the_model_source_shows_every_digit_of_the_bounds_it_uses():
    source = answer_source(AnswerConstraints(confidence_min=0.123456789, confidence_max=1.0))
    assert source.splitlines()[-1] == (
        "    confidence: float = Field("
        'ge=0.123456789, le=1, description="How sure the answer is, from 0 to 1")'
    )


@pytest.mark.parametrize(
    "constraints",
    [
        AnswerConstraints(),
        AnswerConstraints(min_citations=3),
        AnswerConstraints(min_citations=0, confidence_min=0.25, confidence_max=0.75),
    ],
    ids=["article", "three-citations", "bounds"],
)
def test_the_shown_source_builds_the_model_the_lab_validates_with(constraints):
    # Both come from the one Answer class: exec'ing what the page shows gives the same model.
    namespace: dict = {}
    header = "from pydantic import BaseModel, Field\n\n\n"
    exec(
        compile(header + answer_source(constraints), "<answer_source>", "exec", dont_inherit=True),
        namespace,
    )
    shown = namespace["Answer"].model_json_schema()
    assert json.dumps(shown, sort_keys=True) == json.dumps(
        answer_model(constraints).model_json_schema(), sort_keys=True
    )


def test_the_variant_rebuilt_from_the_class_reads_like_the_class():
    from pydantic import create_model

    from core.order.variants import model_fields

    rebuilt = create_model("Answer", **model_fields(Answer))
    assert rebuilt.model_json_schema() == Answer.model_json_schema()


_leaf = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(-2, 2) | st.text(max_size=6)
_turn = st.one_of(
    st.fixed_dictionaries({"text": st.text(max_size=12) | st.just(json.dumps(VALID))}),
    st.fixed_dictionaries(
        {"tool": st.just("search"), "args": st.fixed_dictionaries({"query": st.text(max_size=8)})}
    ),
    st.fixed_dictionaries(
        {
            "answer": st.dictionaries(
                st.sampled_from(["answer", "citations", "confidence", "extra"]),
                _leaf | st.lists(_leaf, max_size=2),
            )
        }
    ),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_turn, min_size=1, max_size=4), st.integers(0, 2))
def test_any_script_in_the_documented_shape_runs_on_both_engines(script, retries):
    # An empty text turn crashed the PydanticAI side (its reply there is a sentence).
    for engine in ("pydantic_ai", "langgraph"):
        run = run_script(check_script(script), engine=engine, retries=retries)
        assert run.calls >= 1 and run.attempts
        assert (run.output is None) != (run.error is None)
