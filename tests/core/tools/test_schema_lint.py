"""core.tools.schema_lint: plain-words findings on the scenarios' schemas."""

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.tools import SCENARIOS
from core.tools.custom_type import DrawingToolNoHook, DrawingToolNoJsonSchema
from core.tools.loose_strict import LooseTool
from core.tools.schema_lint import lint_model, ref_paths
from core.tools.unions import MixedInputTool


def _codes(model):
    return [(finding.code, finding.where) for finding in lint_model(model)]


def test_loose_dict_is_open_untyped_and_undescribed():
    assert _codes(LooseTool) == [
        ("missing_description", "/properties/name"),
        ("missing_description", "/properties/params"),
        ("missing_description", "/$defs/LooseToolParams/properties/threshold"),
        ("missing_description", "/$defs/LooseToolParams/properties/extra_config"),
        ("open_additional_properties", "/$defs/LooseToolParams/properties/extra_config"),
        ("untyped_any", "/$defs/LooseToolParams/properties/extra_config/additionalProperties"),
    ]


def test_plain_union_is_flagged_and_the_discriminated_one_is_not():
    assert _codes(MixedInputTool) == [
        ("missing_description", "/properties/name"),
        ("missing_description", "/properties/params"),
        ("union_without_discriminator", "/$defs/MixedInputToolParams/properties/input_source"),
    ]
    assert _codes(SCENARIOS["unions"].model) == [("missing_description", "/properties/params")]


def test_recursive_menu_is_flagged_with_its_cycle():
    findings = [f for f in lint_model(SCENARIOS["recursive"].model) if f.code == "recursive_model"]
    assert [(f.where, f.message) for f in findings] == [
        (
            "/$defs/MenuItem",
            "MenuItem refers back to itself (MenuTool -> MenuToolParams -> MenuItem -> MenuItem): "
            "the schema can only be written with a $ref cycle, which some providers cannot "
            "inline.",
        )
    ]


def test_custom_types_without_a_json_schema_hook_get_one_finding():
    assert _codes(DrawingToolNoHook) == [("no_json_schema", "(model)")]
    assert _codes(DrawingToolNoJsonSchema) == [("no_json_schema", "(model)")]
    message = lint_model(DrawingToolNoJsonSchema)[0].message
    assert message.startswith(
        "Pydantic cannot describe DrawingToolNoJsonSchema as JSON Schema: Cannot generate a "
        "JsonSchema for core_schema.PlainValidatorFunctionSchema"
    )


def test_extra_allow_opens_the_object_to_any_value():
    assert _codes(SCENARIOS["v1_v2"].model) == [
        ("open_additional_properties", "/"),
        ("untyped_any", "/additionalProperties"),
    ]


def test_any_fields_and_untyped_lists_are_flagged():
    class Tool(BaseModel):
        blob: Any = Field(description="Anything.")
        rows: list = Field(description="Rows.")

    assert _codes(Tool) == [
        ("untyped_any", "/properties/blob"),
        ("untyped_any", "/properties/rows/items"),
    ]


def test_a_described_closed_model_has_no_findings():
    class Tool(BaseModel):
        model_config = ConfigDict(extra="forbid")
        name: str = Field(description="Name.")
        tags: list[str] = Field(description="Tags.")

    assert lint_model(Tool) == []


def test_ref_paths_list_every_chain_from_the_root():
    schema = SCENARIOS["image_tool"].model.model_json_schema()
    assert ref_paths(schema) == [
        ["ImageProcessingTool", "ImageProcessingToolParams", "ResizeOperation"],
        ["ImageProcessingTool", "ImageProcessingToolParams", "WatermarkOperation"],
        [
            "ImageProcessingTool",
            "ImageProcessingToolParams",
            "ApplyFilterOperation",
            "FilterParameters",
        ],
    ]
