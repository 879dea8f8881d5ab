"""core.tools: one contract test over every scenario preset, plus round trips and observations."""

import json

import pytest
from pydantic import BaseModel
from pydantic_core import core_schema

from core.jsontext.write import to_text
from core.tools import SCENARIOS, Observation, attempt
from core.tools.custom_type import DrawingParametersNoHook, DrawingToolNoHook, PlainColor
from core.tools.loose_strict import LooseTool
from core.tools.roundtrip import Difference, round_trip
from core.tools.v1_v2 import MyModelV2
from core.validate.report import validate_text, validate_value

PRESETS = [
    (scenario_id, kind, name)
    for scenario_id, scenario in SCENARIOS.items()
    for kind in ("valid", "invalid")
    for name in getattr(scenario, kind)
]
PRESET_IDS = ["/".join(case) for case in PRESETS]
ALL_STAGES_OK = [
    ("model_dump()", True),
    ("validate model_dump output", True),
    ("model_dump_json()", True),
    ("validate model_dump_json output", True),
]


@pytest.mark.parametrize("mode", ["json text", "python value"])
@pytest.mark.parametrize(("scenario_id", "kind", "preset"), PRESETS, ids=PRESET_IDS)
def test_every_preset_validates_round_trips_or_fails_exactly_as_declared(
    scenario_id, kind, preset, mode
):
    scenario = SCENARIOS[scenario_id]
    payload = scenario.presets[preset]
    if mode == "json text":
        report = validate_text(to_text(payload), model=scenario.model)
    else:
        report = validate_value(payload, model=scenario.model)
    assert report.syntax_error is None
    if kind == "valid":
        assert report.errors == []
        trip = round_trip(report.value)
        assert [(stage.name, stage.ok) for stage in trip.stages] == ALL_STAGES_OK
        assert trip.differences == []
        assert trip.survived
    else:
        assert [(error.type, error.path) for error in report.errors] == scenario.expected[preset]


@pytest.mark.parametrize("scenario_id", list(SCENARIOS))
def test_scenario_declares_expectations_for_exactly_its_invalid_presets(scenario_id):
    scenario = SCENARIOS[scenario_id]
    assert scenario.valid and scenario.invalid
    assert set(scenario.expected) == set(scenario.invalid)
    assert not set(scenario.valid) & set(scenario.invalid)
    assert f"class {scenario.model.__name__}(BaseModel):" in scenario.source
    assert "# Presets" not in scenario.source


def test_registry_lists_the_six_scenarios_in_page_order():
    assert list(SCENARIOS) == [
        "loose_strict",
        "custom_type",
        "unions",
        "recursive",
        "image_tool",
        "v1_v2",
    ]


def test_nan_survives_model_dump_but_json_writes_null_and_validation_fails():
    report = validate_text(
        '{"name": "x", "params": {"threshold": NaN, "extra_config": {}}}', model=LooseTool
    )
    trip = round_trip(report.value)
    assert [(stage.name, stage.ok) for stage in trip.stages] == [
        *ALL_STAGES_OK[:3],
        (ALL_STAGES_OK[3][0], False),
    ]
    assert trip.json_text == '{"name":"x","params":{"threshold":null,"extra_config":{}}}'
    assert "float_type" in trip.stages[-1].detail
    assert not trip.survived


def test_infinity_under_any_comes_back_as_none_and_the_leaf_is_named():
    report = validate_text(
        '{"name": "x", "params": {"threshold": 1, "extra_config": {"ratio": Infinity}}}',
        model=LooseTool,
    )
    trip = round_trip(report.value)
    assert trip.differences == [
        Difference(
            "model_dump_json", "params.extra_config.ratio", "Infinity (float)", "null (NoneType)"
        )
    ]
    assert not trip.survived


def test_a_type_without_eq_never_round_trips_equal():
    class Tag:
        def __init__(self, text: str) -> None:
            self.text = text

        @classmethod
        def __get_pydantic_core_schema__(cls, source, handler):
            return core_schema.no_info_plain_validator_function(
                lambda v: v if isinstance(v, cls) else cls(v),
                serialization=core_schema.plain_serializer_function_ser_schema(lambda t: t.text),
            )

    class Holder(BaseModel):
        tag: Tag

    trip = round_trip(Holder(tag="a"))
    assert [(stage.name, stage.ok) for stage in trip.stages] == ALL_STAGES_OK
    assert trip.differences == [
        Difference("model_dump", "(root)", "equal dumps", "objects compare unequal"),
        Difference("model_dump_json", "(root)", "equal dumps", "objects compare unequal"),
    ]


def test_a_custom_type_without_hooks_cannot_be_written_as_json():
    value = DrawingToolNoHook(
        name="draw",
        params=DrawingParametersNoHook(shape="circle", color=PlainColor("#FF0000"), size=1),
    )
    trip = round_trip(value)
    assert [(stage.name, stage.ok) for stage in trip.stages] == [
        *ALL_STAGES_OK[:2],
        ("model_dump_json()", False),
    ]
    assert trip.stages[-1].detail.startswith(
        "PydanticSerializationError: Unable to serialize unknown type: <class "
        "'core.tools.custom_type.PlainColor'>"
    )


def test_color_dumps_as_object_in_python_and_as_hex_text_in_json():
    report = validate_text(
        to_text(SCENARIOS["custom_type"].valid["hex colour"]), model=SCENARIOS["custom_type"].model
    )
    assert repr(report.value.model_dump()["params"]["color"]) == "Color('#FF0000')"
    assert round_trip(report.value).json_text == (
        '{"name":"draw_shape","params":{"shape":"circle","color":"#FF0000","size":10}}'
    )


def test_attempt_reports_runs_warns_and_fails():
    import warnings

    def warn() -> str:
        warnings.warn("old spelling", DeprecationWarning, stacklevel=1)
        return "done"

    assert [attempt("a", lambda: "ok"), attempt("b", warn), attempt("c", lambda: str(1 / 0))] == [
        Observation("a", "runs", "ok"),
        Observation("b", "warns", "DeprecationWarning: old spelling -> done"),
        Observation("c", "fails", "ZeroDivisionError: division by zero"),
    ]


def _observed(scenario_id, payload):
    return [(row.what, row.outcome) for row in SCENARIOS[scenario_id].observe(payload)]


def test_v1_spellings_run_warn_or_fail_on_the_installed_pydantic():
    rows = SCENARIOS["v1_v2"].observe(None)
    assert [(row.what, row.outcome) for row in rows] == [
        ("class Config: extra = 'allow'", "warns"),
        ("class Config: allow_extra = True", "warns"),
        ("@validator('value')", "warns"),
        ("@root_validator", "fails"),
        ("Config.json_encoders = {int: ...}", "warns"),
        ("MyModel.parse_obj(data)", "warns"),
        ("MyModel.parse_raw(text)", "warns"),
        ("m.dict()", "warns"),
        ("m.json()", "warns"),
        ("MyModel.schema()", "warns"),
        ("MyModel.schema_json()", "warns"),
        ("MyModel.model_json_schema(indent=2)", "fails"),
        ("MyModel.update_forward_refs()", "warns"),
        ("m.copy(update=...)", "warns"),
        ("Field(regex=...)", "fails"),
        ("note: Optional[int]  (no default)", "fails"),
        ("from pydantic.v1 import BaseModel", "runs"),
        ("__get_validators__ on a custom type", "fails"),
        ("from pydantic import BaseSettings", "fails"),
    ]
    warned = [row.detail for row in rows if row.outcome == "warns"]
    assert all(detail.startswith("PydanticDeprecatedSince20: ") for detail in warned)
    assert rows[1].detail.endswith("-> extra key silently dropped")
    schema_text = json.dumps(MyModelV2.model_json_schema())  # what schema_json() writes
    assert [rows[9].detail.split(" -> ")[-1], rows[10].detail.split(" -> ")[-1]] == [
        "2 properties",
        f"{len(schema_text):,} characters",
    ]


def test_loose_tool_accepts_the_articles_payload_and_passes_strings_on():
    payload = SCENARIOS["loose_strict"].invalid["the article's payload"]
    assert SCENARIOS["loose_strict"].observe(payload) == [
        Observation(
            "LooseTool.model_validate(payload)", "accepts", repr(LooseTool.model_validate(payload))
        ),
        Observation(
            "what the tool code receives",
            "unchecked",
            "mode='fast' (str), iterations='one hundred' (str), verbose='yes' (str)",
        ),
    ]


def test_plain_union_silently_picks_text_input_and_drops_the_path():
    payload = SCENARIOS["unions"].invalid["no kind, keys of both"]
    assert _observed("unions", payload) == [
        ("MixedInputTool.model_validate(payload)  (no discriminator)", "picks TextInput"),
        ("keys of input_source the picked member ignored", "silently dropped"),
    ]
    assert SCENARIOS["unions"].observe(payload)[1].detail == "path"


def test_custom_type_without_hooks_fails_at_definition_validation_dump_and_schema():
    payload = SCENARIOS["custom_type"].valid["hex colour"]
    rows = SCENARIOS["custom_type"].observe(payload)
    assert [(row.what, row.outcome) for row in rows] == [
        ("DrawingTool.model_validate(payload)", "accepts"),
        ("class Bare(BaseModel): color: PlainColor  (no hooks)", "fails"),
        ("DrawingToolNoHook.model_validate(payload)  (arbitrary_types_allowed)", "rejects"),
        ("DrawingToolNoHook(...).model_dump_json()", "fails"),
        ("DrawingToolNoHook.model_json_schema()", "fails"),
        ("DrawingToolNoJsonSchema.model_validate(payload)  (core hook only)", "accepts"),
        ("DrawingToolNoJsonSchema.model_json_schema()", "fails"),
    ]
    assert rows[1].detail.startswith("PydanticSchemaGenerationError: ")
    assert rows[2].detail == "is_instance_of at params.color"
    assert rows[4].detail.startswith("PydanticInvalidForJsonSchema: ")
    assert rows[6].detail.startswith("PydanticInvalidForJsonSchema: ")


def test_menu_tree_depth_and_ref_cycle_are_measured():
    payload = SCENARIOS["recursive"].valid["three levels"]
    assert SCENARIOS["recursive"].observe(payload) == [
        Observation(
            "depth of the payload's menu tree", "3 levels", "items nested through children"
        ),
        Observation(
            "$ref path from the root",
            "3 refs deep, then a cycle",
            "MenuTool -> MenuToolParams -> MenuItem -> MenuItem",
        ),
    ]


def test_the_articles_discriminator_on_a_list_field_fails_to_define():
    rows = SCENARIOS["image_tool"].observe(None)
    assert [(row.outcome, row.detail.split(":")[0]) for row in rows] == [("fails", "TypeError")]
