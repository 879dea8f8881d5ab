"""Scenario: a custom `Color` type with Pydantic hooks, next to the same class without them."""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, PydanticCustomError, core_schema

from core.tools import Observation, Scenario, attempt, models_source, validate_with

__all__ = [
    "SCENARIO",
    "Color",
    "ColorWithoutJsonSchema",
    "DrawingTool",
    "DrawingToolNoHook",
    "DrawingToolNoJsonSchema",
    "PlainColor",
]

_HEX = re.compile(r"^#[0-9A-Fa-f]{6}$")


class PlainColor:
    """An RGB colour written `#RRGGBB`, with no Pydantic hooks at all."""

    def __init__(self, hex_code: str) -> None:
        if not isinstance(hex_code, str) or not _HEX.match(hex_code):
            raise ValueError(f"{hex_code!r} is not a #RRGGBB hex colour")
        self.hex_code = hex_code

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.hex_code!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlainColor) and self.hex_code == other.hex_code

    def __hash__(self) -> int:
        return hash(self.hex_code)


class Color(PlainColor):
    """The same colour, taught to Pydantic: how to validate, serialize and describe it."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.no_info_plain_validator_function(
            cls._coerce,
            # Python dumps keep the object; JSON dumps write the hex text back.
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda color: color.hex_code, when_used="json-unless-none"
            ),
        )

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {"type": "string", "pattern": _HEX.pattern, "description": "Hex colour #RRGGBB."}

    @classmethod
    def _coerce(cls, value: Any) -> Color:
        if isinstance(value, cls):
            return value
        try:
            return cls(value)
        except ValueError:
            raise PydanticCustomError(
                "color_format",
                "Colour must be a #RRGGBB hex string, e.g. #FF0000; got {value}",
                {"value": repr(value)},
            ) from None


class ColorWithoutJsonSchema(Color):
    """The core-schema hook alone: validates, but Pydantic cannot describe it."""

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return handler(schema)  # Pydantic's default for a plain validator: no schema


class DrawingParameters(BaseModel):
    shape: str
    color: Color
    size: int


class DrawingTool(BaseModel):
    name: str
    params: DrawingParameters


class DrawingParametersNoJsonSchema(BaseModel):
    shape: str
    color: ColorWithoutJsonSchema
    size: int


class DrawingToolNoJsonSchema(BaseModel):
    name: str
    params: DrawingParametersNoJsonSchema


class DrawingParametersNoHook(BaseModel):
    # Without this, the class statement itself fails (see the observations).
    model_config = ConfigDict(arbitrary_types_allowed=True)

    shape: str
    color: PlainColor
    size: int


class DrawingToolNoHook(BaseModel):
    name: str
    params: DrawingParametersNoHook


def _define_without_arbitrary_types() -> str:
    class Bare(BaseModel):
        color: PlainColor

    return repr(Bare)


def _observe(payload: Any) -> list[Observation]:
    sample = DrawingToolNoHook(
        name="draw_shape",
        params=DrawingParametersNoHook(shape="circle", color=PlainColor("#FF0000"), size=10),
    )
    return [
        validate_with("DrawingTool.model_validate(payload)", DrawingTool, payload)[0],
        attempt(
            "class Bare(BaseModel): color: PlainColor  (no hooks)",
            _define_without_arbitrary_types,
        ),
        validate_with(
            "DrawingToolNoHook.model_validate(payload)  (arbitrary_types_allowed)",
            DrawingToolNoHook,
            payload,
        )[0],
        attempt("DrawingToolNoHook(...).model_dump_json()", sample.model_dump_json),
        attempt(
            "DrawingToolNoHook.model_json_schema()",
            lambda: str(DrawingToolNoHook.model_json_schema()),
        ),
        validate_with(
            "DrawingToolNoJsonSchema.model_validate(payload)  (core hook only)",
            DrawingToolNoJsonSchema,
            payload,
        )[0],
        attempt(
            "DrawingToolNoJsonSchema.model_json_schema()",
            lambda: str(DrawingToolNoJsonSchema.model_json_schema()),
        ),
    ]


# Presets
def _drawing(color: Any) -> dict[str, Any]:
    return {"name": "draw_shape", "params": {"shape": "circle", "color": color, "size": 10}}


SCENARIO = Scenario(
    title="Custom type: Color",
    summary=(
        '`Color` teaches Pydantic three things: how to build it from `"#FF0000"` '
        "(`__get_pydantic_core_schema__`, custom error `color_format`), how to write it back "
        "(hex text in `model_dump_json`) and how to describe it (`__get_pydantic_json_schema__`). "
        "The observations show what fails for the same class without those hooks."
    ),
    model=DrawingTool,
    source=models_source(__name__),
    valid={"hex colour": _drawing("#FF0000"), "lower-case hex": _drawing("#00ff7f")},
    invalid={
        "colour name": _drawing("red"),
        "short hex and a number": {
            "name": "draw_shape",
            "params": {"shape": "circle", "color": "#F00", "size": "ten"},
        },
    },
    expected={
        "colour name": [("color_format", "params.color")],
        "short hex and a number": [
            ("color_format", "params.color"),
            ("int_parsing", "params.size"),
        ],
    },
    observe=_observe,
    contrasts={
        "DrawingToolNoJsonSchema (core hook only)": DrawingToolNoJsonSchema,
        "DrawingToolNoHook (no hooks)": DrawingToolNoHook,
    },
)
