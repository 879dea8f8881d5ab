"""views/tools.py with AppTest: scenarios, presets, editing, round trip, schemas, lint, share."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

import pytest
from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Block

from core.jsontext.write import to_text
from core.tools import SCENARIOS
from core.tools.loose_strict import LooseTool
from core.tools.provider_schema import REWRITE_MEANINGS
from core.validate.report import validate_text
from tests.app._editor import editor
from tests.app.conftest import SHARE_FIELD, open_page, opened, token
from ui import keys

PAGE = str(Path(__file__).parents[2] / "views" / "tools.py")
TABS = ["Pydantic", "OpenAI (strict)", "Google Gemini", "Google Live (OpenAPI subset)"]


def _errors(at: AppTest) -> list[tuple[str, str]]:
    tables = [d.value for d in at.dataframe if "pointer" in d.value.columns]
    return [] if not tables else list(zip(tables[0]["type"], tables[0]["path"], strict=True))


def _tab(at: AppTest, label: str):
    """Choose a schema view (the segmented control) and return the block that shows it."""
    at.button_group(key=keys.SCHEMA_TAB).set_value(label).run()
    assert not at.exception
    view = _block(at.main, keys.SCHEMA_VIEW)
    assert view is not None, "no container keyed schema_view on the page"
    return view


def _block(block: Block, key: str) -> Block | None:
    """The container `st.container(key=key)` inside `block` (its id ends with the key)."""
    for child in block.children.values():
        if isinstance(child, Block):
            # Columns and tabs hold their own proto kind, without the block's id.
            if getattr(child.proto, "id", "").endswith(f"-{key}"):
                return child
            found = _block(child, key)
            if found is not None:
                return found
    return None


def _lint(at: AppTest) -> list[tuple[str, str]]:
    table = next(d.value for d in at.dataframe if "fix" in d.value.columns)
    return list(zip(table["code"], table["where"], strict=True))


def test_page_opens_on_the_first_scenario_with_its_first_valid_preset():
    at = open_page(PAGE)
    scenario = SCENARIOS["loose_strict"]
    assert at.selectbox(key=keys.SCENARIO).value == "loose_strict"
    assert at.selectbox(key=keys.TOOL_PRESET).options == [
        "valid · typed config",
        "invalid · words for numbers (expects int_parsing at params.extra_config.iterations, "
        "bool_parsing at params.extra_config.verbose)",
        "invalid · the article's payload (expects int_parsing at params.extra_config.iterations)",
        "invalid · unknown mode, zero iterations (expects literal_error at "
        "params.extra_config.mode, greater_than_equal at params.extra_config.iterations)",
    ]
    assert editor(at, keys.TOOL_PAYLOAD).value == to_text(scenario.valid["typed config"])
    assert _errors(at) == []
    assert _lint(at) == [
        ("missing_description", "/properties/params"),
        ("missing_description", "/$defs/StrictToolParams/properties/extra_config"),
    ]
    assert "Survived: model_dump and model_dump_json both validate back to an equal value." in [
        s.value for s in at.success
    ]
    assert [c.value for c in at.code if c.language == "python"] == [scenario.source]


def test_choosing_an_invalid_preset_loads_it_and_lists_exactly_its_errors():
    at = open_page(PAGE)
    at.selectbox(key=keys.TOOL_PRESET).set_value("words for numbers").run()
    assert editor(at, keys.TOOL_PAYLOAD).value == to_text(
        SCENARIOS["loose_strict"].invalid["words for numbers"]
    )
    assert _errors(at) == SCENARIOS["loose_strict"].expected["words for numbers"]
    assert at.error[0].value == "Invalid — 2 errors; the tool would not receive this call."
    model = SCENARIOS["loose_strict"].model.__name__.replace("_", "\\_")
    assert f"Validated against {model}, the tool's parameters." in [c.value for c in at.caption]
    table = next(d for d in at.dataframe if "line:col" in d.value.columns)
    # Where and what in the table (the message wraps); the rest of the row beside it.
    assert list(table.proto.column_order) == ["path", "line:col", "message"]
    assert list(table.value.columns) == [
        "path", "pointer", "line:col", "type", "message", "input", "ctx", "docs",
    ]  # fmt: skip
    assert "The round trip starts from a valid value: fix the errors above first." in [
        i.value for i in at.info
    ]
    observed = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    assert list(observed["outcome"]) == ["accepts", "unchecked"]


def test_switching_scenario_resets_preset_payload_and_schema_model():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCHEMA_MODEL).set_value("LooseTool").run()
    at.selectbox(key=keys.SCENARIO).set_value("unions").run()
    assert not at.exception
    assert at.selectbox(key=keys.TOOL_PRESET).value == "text input"
    assert at.selectbox(key=keys.SCHEMA_MODEL).value == "MixedInputToolDisc"
    assert editor(at, keys.TOOL_PAYLOAD).value == to_text(SCENARIOS["unions"].valid["text input"])
    at.selectbox(key=keys.TOOL_PRESET).set_value("unknown kind").run()
    assert _errors(at) == [("union_tag_invalid", "params.input_source")]


def test_editing_the_payload_revalidates_without_touching_the_order_payload():
    at = open_page(PAGE)
    config = '{"mode": "fast", "iterations": 1, "verbose": true}'
    text = f'{{"name": "x", "params": {{"threshold": NaN, "extra_config": {config}}}}}'
    editor(at, keys.TOOL_PAYLOAD).set_value(text).run()
    assert _errors(at) == []
    assert "Did not survive: a dump failed, did not validate again, or came back different." in [
        e.value for e in at.error
    ]
    stages = next(d.value for d in at.dataframe if "name" in d.value.columns)
    assert list(stages["ok"]) == ["yes", "yes", "yes", "no"]
    assert keys.PAYLOAD_TEXT not in at.session_state
    editor(at, keys.TOOL_PAYLOAD).set_value('{"name": 1').run()
    assert not at.exception
    assert editor(at, keys.TOOL_PAYLOAD).value == '{"name": 1'
    assert at.error[0].value == "Invalid — the text is not JSON we can validate; fix it as shown."


def test_schema_views_show_pydantic_and_the_transformers_real_output():
    at = open_page(PAGE)
    assert at.button_group(key=keys.SCHEMA_TAB).value == TABS[0]
    assert [option.content for option in at.button_group(key=keys.SCHEMA_TAB).proto.options] == TABS
    schema = SCENARIOS["loose_strict"].model.model_json_schema()
    assert json.loads(_tab(at, "Pydantic").json[0].value) == schema
    assert json.loads(_tab(at, "OpenAI (strict)").json[0].value) == (
        OpenAIJsonSchemaTransformer(schema, strict=True).walk()
    )
    assert json.loads(_tab(at, "Google Gemini").json[0].value) == (
        GoogleJsonSchemaTransformer(schema).walk()
    )
    summary = _tab(at, "OpenAI (strict)").dataframe[0].value
    assert dict(zip(summary["rewrite"], summary["count"], strict=True)) == {
        "title_dropped": 8,
        "additional_properties_closed": 3,
    }


def test_contrast_model_shows_its_own_schema_rewrites_and_lint():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCHEMA_MODEL).set_value("LooseTool").run()
    assert json.loads(_tab(at, "Pydantic").json[0].value) == LooseTool.model_json_schema()
    rewrites = _tab(at, "OpenAI (strict)").dataframe[1].value
    closed = rewrites[rewrites["where"] == "/$defs/LooseToolParams/properties/extra_config"]
    assert list(closed["kind"]) == [
        "additional_properties_closed",
        "properties_added",
        "required_added",
        "title_dropped",
    ]
    assert ("open_additional_properties", "/$defs/LooseToolParams/properties/extra_config") in (
        _lint(at)
    )


def test_recursive_model_is_refused_by_google_live_on_the_page():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCENARIO).set_value("recursive").run()
    live = _tab(at, "Google Live (OpenAPI subset)")
    assert [e.value for e in live.error] == [
        "PydanticAI's transformer refused this schema: the tool cannot be sent."
    ]
    assert [c.value for c in live.code] == [
        "UserError: Recursive `$ref`s in JSON Schema are not supported by Gemini: #/$defs/MenuItem"
    ]
    assert ("recursive_model", "/$defs/MenuItem") in _lint(at)


def test_a_model_without_json_schema_says_so_in_every_view():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCENARIO).set_value("custom_type").run()
    at.selectbox(key=keys.SCHEMA_MODEL).set_value("DrawingToolNoHook (no hooks)").run()
    assert not at.exception
    assert [e.value for e in _tab(at, "Pydantic").error] == [
        "Pydantic cannot generate a JSON Schema for this model."
    ]
    assert [i.value for i in _tab(at, "OpenAI (strict)").info] == [
        "There is no Pydantic schema to transform."
    ]
    assert _lint(at) == [("no_json_schema", "(model)")]


def test_v1_scenario_lists_every_spelling_with_its_replacement():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCENARIO).set_value("v1_v2").run()
    observed = next(d.value for d in at.dataframe if "instead" in d.value.columns)
    assert len(observed) == 19
    assert set(observed["outcome"]) == {"runs", "warns", "fails"}


def test_rewrite_meanings_come_from_core_for_every_kind_shown():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCHEMA_MODEL).set_value("LooseTool").run()
    summary = _tab(at, "OpenAI (strict)").dataframe[0].value

    assert dict(zip(summary["rewrite"], summary["meaning"], strict=True)) == {
        kind: REWRITE_MEANINGS[kind] for kind in summary["rewrite"]
    }
    assert "properties_added" in set(summary["rewrite"])


def _view(at: AppTest) -> dict:
    return {
        "widgets": [
            at.selectbox(key=k).value for k in ("scenario", keys.TOOL_PRESET, keys.SCHEMA_MODEL)
        ],
        "payload": editor(at, keys.TOOL_PAYLOAD).value,
        "tab": at.session_state[keys.SCHEMA_TAB],
        "errors": _errors(at),
        "lint": _lint(at),
        "warnings": [w.value for w in at.warning],
    }


def test_share_link_reopens_scenario_preset_edited_payload_schema_model_and_tab():
    at = open_page(PAGE)
    at.selectbox(key=keys.SCENARIO).set_value("unions").run()
    at.selectbox(key=keys.TOOL_PRESET).set_value("unknown kind").run()
    edited = editor(at, keys.TOOL_PAYLOAD).value.replace("{", '{"extra": 1, ', 1)
    editor(at, keys.TOOL_PAYLOAD).set_value(edited).run()
    at.selectbox(key=keys.SCHEMA_MODEL).set_value("MixedInputTool (no discriminator)").run()
    at.button_group(key=keys.SCHEMA_TAB).set_value("Google Gemini").run()
    at.button(key=keys.SHARE).click().run()
    fresh = opened(PAGE, token(at))

    assert not fresh.exception
    assert _view(fresh) == _view(at)
    assert _view(fresh)["widgets"] == [
        "unions",
        "unknown kind",
        "MixedInputTool (no discriminator)",
    ]
    assert (_view(fresh)["payload"], _view(fresh)["tab"]) == (edited, "Google Gemini")


def _raw_token(state: dict) -> str:
    """Like encode_share, but ASCII JSON, so a lone surrogate survives as a \\ud800 escape."""
    packed = zlib.compress(json.dumps(state).encode("ascii"))
    return "v1." + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


@pytest.mark.parametrize("payload", [{"<b>": 1}, ["not", "text"]])
def test_a_hostile_share_link_drops_each_bad_field_by_name_and_opens_the_defaults(payload):
    state = {
        "page": "tools",
        "scenario": "**nope**",
        "preset": ["typed config"],
        "payload": payload,
        "schema_model": 7,
        "schema_tab": "<img src=x onerror=alert(1)>",
    }
    at = opened(PAGE, _raw_token(state))

    assert not at.exception
    assert [w.value for w in at.warning] == [SHARE_FIELD]
    codes = [c.value for c in at.code]
    assert "scenario, preset, schema_model, schema_tab, payload" in codes
    assert (
        "scenario: Value error, not a scenario of this page\n"
        "preset: Input should be a valid string\n"
        "schema_model: Input should be a valid string\n"
        "schema_tab: Value error, not one of the schema views\n"
        "payload: Input should be a valid string"
    ) in codes
    assert _view(at) | {"warnings": []} == _view(open_page(PAGE))


def test_an_edited_payload_says_it_no_longer_is_the_preset():
    at = AppTest.from_file(PAGE, default_timeout=30).run()
    edited = "Edited since the preset was loaded; picking a preset replaces the text."
    assert edited not in [c.value for c in at.caption]
    editor(at, keys.TOOL_PAYLOAD).input("{}").run()
    assert edited in [c.value for c in at.caption]


def test_the_tool_editor_marks_each_error_and_a_selected_row_moves_its_caret():
    at = open_page(PAGE)
    at.selectbox(key=keys.TOOL_PRESET).set_value("words for numbers").run()
    text = editor(at, keys.TOOL_PAYLOAD).value
    report = validate_text(text, model=SCENARIOS["loose_strict"].model)
    assert len(report.errors) == 2
    assert editor(at, keys.TOOL_PAYLOAD).args()["marks"] == [
        {
            "line": e.line,
            "col": e.col,
            "message": f"{e.path}: {e.msg} [{e.type}]",
            "severity": "error",
        }
        for e in report.errors
    ]
    assert editor(at, keys.TOOL_PAYLOAD).args()["label"] == "Tool call arguments (JSON)"
    at.session_state[keys.table(keys.TOOL_ERRORS)] = {"selection": {"rows": [1], "columns": []}}
    at.run()
    second = report.errors[1]
    assert editor(at, keys.TOOL_PAYLOAD).args()["goto"] == {
        "line": second.line,
        "col": second.col,
        "nonce": 1,
    }
    assert f"Selected error at {second.line}:{second.col}" in [c.value for c in at.caption]
