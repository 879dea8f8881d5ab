"""Scenario: the image-processing tool, a tagged list of operations with cross-field rules."""

from __future__ import annotations

from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, Field, model_validator
from pydantic_core import PydanticCustomError

from core.tools import Observation, Scenario, attempt, models_source
from core.tools.custom_type import Color

__all__ = [
    "SCENARIO",
    "ApplyFilterOperation",
    "ImageProcessingTool",
    "ImageProcessingToolParams",
    "ResizeOperation",
    "WatermarkOperation",
]


class ResizeOperation(BaseModel):
    type: Literal["resize"] = Field("resize", description="Operation tag: resize.")
    width: int | None = Field(None, gt=0, description="Target width in pixels.")
    height: int | None = Field(None, gt=0, description="Target height in pixels.")
    scale_factor: float | None = Field(None, gt=0, description="Scale, e.g. 0.5 for half size.")

    @model_validator(mode="after")
    def _one_way_to_resize(self) -> Self:
        sized = self.width is not None or self.height is not None
        if not sized and self.scale_factor is None:
            raise PydanticCustomError(
                "resize_needs_size", "Resize needs width, height or scale_factor; give one."
            )
        if sized and self.scale_factor is not None:
            raise PydanticCustomError(
                "resize_scale_conflict",
                "Resize takes scale_factor or width/height, not both; remove one.",
            )
        return self


class WatermarkOperation(BaseModel):
    type: Literal["watermark"] = Field("watermark", description="Operation tag: watermark.")
    text: str = Field(min_length=1, description="The watermark text.")
    font_size: int = Field(24, gt=0, description="Font size of the text.")
    color: Color = Field(Color("#FFFFFF"), description="Text colour as #RRGGBB.")
    position: Literal["top_left", "top_right", "bottom_left", "bottom_right", "center"] = Field(
        "bottom_right", description="Where the watermark goes."
    )


class FilterParameters(BaseModel):
    strength: float | None = Field(None, ge=0.0, le=1.0, description="Strength from 0 to 1.")
    radius: int | None = Field(None, gt=0, description="Radius for blur filters.")


class ApplyFilterOperation(BaseModel):
    type: Literal["apply_filter"] = Field("apply_filter", description="Operation tag: filter.")
    filter_name: Literal["grayscale", "sepia", "blur", "sharpen", "invert"] = Field(
        description="Name of the filter to apply."
    )
    params: FilterParameters | None = Field(None, description="Filter-specific parameters.")


Operation = Annotated[
    ResizeOperation | WatermarkOperation | ApplyFilterOperation, Field(discriminator="type")
]


class ImageProcessingToolParams(BaseModel):
    image_path: str = Field(description="Absolute path of the image to process.")
    output_path: str | None = Field(None, description="Where to save; in place when omitted.")
    operations: list[Operation] = Field(min_length=1, description="Operations, in order.")


class ImageProcessingTool(BaseModel):
    name: str = "image_processor"
    description: str = "A versatile tool for performing various operations on image files."
    parameters: ImageProcessingToolParams


def _discriminator_on_the_list() -> str:
    class ArticleParams(BaseModel):
        operations: list[ResizeOperation | WatermarkOperation | ApplyFilterOperation] = Field(
            min_length=1, discriminator="type"
        )

    return repr(ArticleParams)


def _observe(payload: Any) -> list[Observation]:
    return [
        attempt(
            "Field(discriminator='type') on the list field itself (the article's spelling)",
            _discriminator_on_the_list,
        )
    ]


# Presets
def _tool(image_path: str, *operations: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"parameters": {"image_path": image_path, **extra, "operations": list(operations)}}


SCENARIO = Scenario(
    title="The image-processing tool",
    summary=(
        "Resize, watermark and filter operations in one list, told apart by their `type` tag; "
        "a model validator enforces that resize gets exactly one way to size the image, and the "
        "watermark colour is the custom `Color` type."
    ),
    model=ImageProcessingTool,
    source=models_source(__name__),
    valid={
        "resize and watermark": _tool(
            "/home/user/my_image.jpg",
            {"type": "resize", "width": 800, "height": 600},
            {
                "type": "watermark",
                "text": "CONFIDENTIAL",
                "font_size": 40,
                "color": "#FF0000",
                "position": "center",
            },
            output_path="/home/user/processed_image.png",
        ),
        "blur then scale": _tool(
            "/home/user/original.jpeg",
            {"type": "apply_filter", "filter_name": "blur", "params": {"radius": 5}},
            {"type": "resize", "scale_factor": 0.75},
        ),
    },
    invalid={
        "width and scale_factor": _tool(
            "/home/user/another.jpg", {"type": "resize", "width": 100, "scale_factor": 0.5}
        ),
        "resize without a size": _tool("/home/user/another.jpg", {"type": "resize"}),
        "colour name": _tool(
            "/home/user/test.png", {"type": "watermark", "text": "Draft", "color": "red"}
        ),
        "unknown operation": _tool("/a.png", {"type": "crop"}),
        "no operations": _tool("/a.png"),
        "strength above 1, empty text": _tool(
            "/a.png",
            {"type": "apply_filter", "filter_name": "blur", "params": {"strength": 1.5}},
            {"type": "watermark", "text": ""},
        ),
    },
    expected={
        "width and scale_factor": [("resize_scale_conflict", "parameters.operations[0]")],
        "resize without a size": [("resize_needs_size", "parameters.operations[0]")],
        "colour name": [("color_format", "parameters.operations[0].color")],
        "unknown operation": [("union_tag_invalid", "parameters.operations[0]")],
        "no operations": [("too_short", "parameters.operations")],
        "strength above 1, empty text": [
            ("less_than_equal", "parameters.operations[0].params.strength"),
            ("string_too_short", "parameters.operations[1].text"),
        ],
    },
    observe=_observe,
)
