# ruff: noqa: E501 - the snippets are the article's text, verbatim, long lines included
"""The code examples of the tool-parameter article, verbatim, as the Behaviour lab runs them."""

__all__ = [
    "COLOR_CORE_SCHEMA",
    "LIST_DISCRIMINATOR",
    "MODEL_VALIDATOR",
    "SCHEMA_INDENT",
    "USER_BASICS",
    "VALIDATOR_INFO",
]

USER_BASICS = r"""from pydantic import BaseModel, Field
from typing import List, Optional

class User(BaseModel):
    id: int
    name: str = "Anonymous"
    email: Optional[str] = None
    age: int = Field(..., gt=0, description="Age must be positive")

# 实例化与校验
user_data = {"id": 123, "name": "Alice", "age": 30}
user = User(**user_data)
print(user)
# User(id=123, name='Alice', email=None, age=30)

# 序列化为字典
print(user.model_dump())
# {'id': 123, 'name': 'Alice', 'email': None, 'age': 30}

# 序列化为 JSON 字符串
print(user.model_dump_json())
# {"id":123,"name":"Alice","email":null,"age":30}
"""

SCHEMA_INDENT = r"""from pydantic import BaseModel, Field, ConfigDict

class SimpleParams(BaseModel):
    value: int = Field(..., description="A simple integer value.")

    model_config = ConfigDict(json_schema_extra={
        "examples": [
            {"value": 10},
            {"value": 20}
        ]
    })

print("nSchema with extra examples:")
print(SimpleParams.model_json_schema(indent=2))
"""

# The two validator examples open with the same imports and ResizeOperation fields.
_RESIZE_OPERATION = r"""from pydantic import BaseModel, Field, ValidationError, ConfigDict, field_validator
from pydantic_core import PydanticCustomError, CoreSchema, core_schema
from typing import List, Optional, Literal, Union, Any, Self

# Resize 操作
class ResizeOperation(BaseModel):
    type: Literal["resize"] = Field("resize", description="Type of image operation: resize.")
    width: Optional[int] = Field(None, gt=0, description="Target width in pixels.")
    height: Optional[int] = Field(None, gt=0, description="Target height in pixels.")
    scale_factor: Optional[float] = Field(None, gt=0, description="Scale factor (e.g., 0.5 for half size, 2.0 for double).")
"""

VALIDATOR_INFO = (
    _RESIZE_OPERATION
    + r"""
    @field_validator('width', 'height', 'scale_factor')
    @classmethod
    def check_resize_params(cls, v: Optional[Union[int, float]], info: field_validator.ValidatorInfo) -> Optional[Union[int, float]]:
        # This validator is applied to each of the three fields individually.
        # We need a model_validator to check their combined presence.
        return v
"""
)

MODEL_VALIDATOR = (
    _RESIZE_OPERATION
    + r"""
    @model_validator(mode='after')
    def validate_resize_combination(self) -> Self:
        if not (self.width or self.height or self.scale_factor):
            raise ValueError("For 'resize' operation, at least one of 'width', 'height', or 'scale_factor' must be provided.")
        if self.scale_factor and (self.width or self.height):
            raise ValueError("Cannot specify 'scale_factor' alongside 'width' or 'height'. Choose one method.")
        return self
"""
)

LIST_DISCRIMINATOR = r"""from pydantic import BaseModel, Field
from typing import List, Optional, Literal, Union

class Coordinate(BaseModel):
    x: float = Field(..., description="X coordinate.")
    y: float = Field(..., description="Y coordinate.")

class CircleShape(BaseModel):
    type: Literal["circle"] = "circle"
    center: Coordinate
    radius: float = Field(..., gt=0)

class RectangleShape(BaseModel):
    type: Literal["rectangle"] = "rectangle"
    top_left: Coordinate
    bottom_right: Coordinate

class PolygonShape(BaseModel):
    type: Literal["polygon"] = "polygon"
    points: List[Coordinate] = Field(..., min_length=3)

class DrawingCanvasToolParams(BaseModel):
    canvas_id: str
    shapes: List[Union[CircleShape, RectangleShape, PolygonShape]] = Field(..., min_length=1,
                                                                          discriminator='type',
                                                                          description="List of shapes to draw on the canvas.")
"""

COLOR_CORE_SCHEMA = r"""from pydantic import BaseModel, Field, ValidationError
from pydantic_core import PydanticCustomError, CoreSchema, core_schema
from typing import Optional, Any, Self # Self for Python 3.11+
import json

class Color:
    def __init__(self, hex_code: str):
        if not hex_code.startswith("#") or len(hex_code) != 7:
            raise ValueError("Invalid hex code format")
        self.hex_code = hex_code

    def __repr__(self):
        return f"Color('{self.hex_code}')"

    def __eq__(self, other):
        if isinstance(other, Color):
            return self.hex_code == other.hex_code
        return False

    # Pydantic v2: Define how to validate and serialize this custom type
    @classmethod
    def __get_pydantic_core_schema__(cls, source_type: Any, handler) -> CoreSchema:
        def validate_from_str(value: str) -> Color:
            try:
                return cls(value)
            except ValueError as e:
                raise PydanticCustomError("color_format", str(e))

        # Define how to serialize the Color object to a string
        serialize_to_str_schema = core_schema.json_or_python_schema(
            json_schema=core_schema.str_schema(),
            python_schema=core_schema.is_instance_schema(cls),
            # Define how to convert the Python object to a JSON-compatible type
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda instance: instance.hex_code, # Serialize Color object to its hex_code string
                json_serialize=True,
                when_used='json-unless-none',
            )
        )

        # Allow parsing from a Color instance (identity) or a string (validate_from_str)
        return core_schema.union_schema([
            core_schema.is_instance_schema(cls), # If already a Color instance
            core_schema.no_info_after_validator_function(validate_from_str, core_schema.str_schema()), # If a string
        ], serialization=serialize_to_str_schema) # Apply serialization to the union

class DrawingParametersV2(BaseModel):
    shape: str
    color: Color # Pydantic 现在知道如何处理
    size: int
"""
