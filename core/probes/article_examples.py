"""Probes of what the tool-parameter article's code examples rely on, in our own small models.

Each probe restates one example's API use as a claim and tests it with code written here:
the article's example is cited by section, never run or shown.
"""

from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError, field_validator, model_validator
from pydantic_core import core_schema

from core.probes._model import ARTICLE_TOOLS, TOOL_PACKAGES, Check, article_probe, describe, outcome
from core.words import article

__all__ = ["PROBES"]


def probe_model_str_shows_class_name() -> list[Check]:
    class Customer(BaseModel):
        id: int
        name: str = "guest"
        email: str | None = None
        age: int = Field(gt=0)

    customer = Customer(id=7, name="Ada", age=36)
    return [
        Check(
            expected="print(model) shows the class and its fields: Customer(id=7, ...)",
            observed=f"print(model) shows: {customer}",
            matches=str(customer).startswith("Customer("),
        ),
        Check(
            expected="model_dump() is a dict of every field, defaults included",
            observed=repr(customer.model_dump()),
            matches=customer.model_dump() == {"id": 7, "name": "Ada", "email": None, "age": 36},
        ),
        Check(
            expected="model_dump_json() is compact JSON, None as null",
            observed=customer.model_dump_json(),
            matches=customer.model_dump_json() == '{"id":7,"name":"Ada","email":null,"age":36}',
        ),
    ]


def probe_json_schema_takes_indent() -> list[Check]:
    class Thermostat(BaseModel):
        target: int = Field(description="Degrees Celsius.")

    schema, exc = outcome(lambda: Thermostat.model_json_schema(indent=2))
    return [
        Check(
            expected="model_json_schema(indent=2) returns the schema as indented JSON text",
            observed=describe(exc) if exc else f"returned {article(type(schema).__name__)}",
            matches=isinstance(schema, str),
        ),
    ]


def probe_field_validator_has_validatorinfo() -> list[Check]:
    seen: list[str] = []

    def define_with_validatorinfo() -> type[BaseModel]:
        class Crop(BaseModel):
            left: int | None = None

            @field_validator("left")
            @classmethod
            def positive(cls, v: Any, info: field_validator.ValidatorInfo) -> Any:  # type: ignore[name-defined]
                return v

        return Crop

    _, exc = outcome(define_with_validatorinfo)

    class Crop(BaseModel):
        left: int | None = None
        top: int | None = None
        right: int | None = None

        @field_validator("left", "top", "right")
        @classmethod
        def record(cls, v: Any, info: Any) -> Any:
            seen.append(info.field_name)
            return v

    Crop(left=1, top=2, right=3)
    return [
        Check(
            expected="field_validator.ValidatorInfo names the type of a validator's info argument",
            observed=describe(exc) if exc else "the class was defined",
            matches=exc is None,
        ),
        Check(
            expected="a field_validator listing three fields runs once for each of them",
            observed=f"ran for: {seen}",
            matches=seen == ["left", "top", "right"],
        ),
    ]


def probe_after_validator_checks_field_combination() -> list[Check]:
    class Crop(BaseModel):
        kind: Literal["crop"] = "crop"
        width: int | None = Field(None, gt=0)
        height: int | None = Field(None, gt=0)
        ratio: float | None = Field(None, gt=0)

        @model_validator(mode="after")
        def one_way_to_size(self) -> "Crop":
            if self.ratio is None and self.width is None and self.height is None:
                raise ValueError("give width, height or ratio")
            if self.ratio is not None and (self.width is not None or self.height is not None):
                raise ValueError("give ratio alone, or width and height")
            return self

    def errors(data: dict[str, Any]) -> list[tuple[str, tuple[Any, ...]]]:
        _, exc = outcome(lambda: Crop.model_validate(data))
        if not isinstance(exc, ValidationError):
            return []
        return [(e["type"], tuple(e["loc"])) for e in exc.errors()]

    cases = {"none": {}, "both": {"ratio": 0.5, "width": 10}, "width": {"width": 10}}
    found = {name: errors(data) for name, data in cases.items()}
    return [
        Check(
            expected="an after model_validator refuses a crop with no size and one with both "
            "ratio and width: one value_error each, at the model's root",
            observed=f"no size: {found['none']}; ratio and width: {found['both']}",
            matches=found["none"] == found["both"] == [("value_error", ())],
        ),
        Check(
            expected="a crop with a width alone is valid",
            observed=f"errors: {found['width']}",
            matches=found["width"] == [],
        ),
    ]


def probe_discriminator_on_list_of_union() -> list[Check]:
    class Dot(BaseModel):
        kind: Literal["dot"] = "dot"
        x: float

    class Line(BaseModel):
        kind: Literal["line"] = "line"
        length: float = Field(gt=0)

    def define() -> type[BaseModel]:
        class Sketch(BaseModel):
            marks: list[Dot | Line] = Field(min_length=1, discriminator="kind")

        return Sketch

    _, exc = outcome(define)
    return [
        Check(
            expected="Field(discriminator='kind') on a list of a union picks each element's "
            "model by its kind",
            observed=describe(exc) if exc else "the class was defined",
            matches=exc is None,
        ),
    ]


class _Hex:
    """A colour written as '#rrggbb' (our own stand-in for the article's custom type)."""

    def __init__(self, text: str) -> None:
        if not (text.startswith("#") and len(text) == 7):
            raise ValueError("a colour is # and six hex digits")
        self.text = text


def _hex_schema(**serializer: Any) -> core_schema.CoreSchema:
    def parse(text: str) -> _Hex:
        return _Hex(text)

    to_text = core_schema.plain_serializer_function_ser_schema(
        lambda value: value.text, when_used="json-unless-none", **serializer
    )
    return core_schema.union_schema(
        [
            core_schema.is_instance_schema(_Hex),
            core_schema.no_info_after_validator_function(parse, core_schema.str_schema()),
        ],
        serialization=to_text,
    )


def probe_core_schema_serializer_takes_json_serialize() -> list[Check]:
    def define(**serializer: Any) -> type[BaseModel]:
        class Paint(_Hex):
            @classmethod
            def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
                return _hex_schema(**serializer)

        class Brush(BaseModel):
            colour: Paint
            width: int

        return Brush

    _, exc = outcome(lambda: define(json_serialize=True))
    brush_model = define()
    text = '{"colour": "#00ff7f", "width": 3}'
    brush, parse_exc = outcome(lambda: brush_model.model_validate_json(text))
    dumped = brush.model_dump_json() if brush is not None else None
    return [
        Check(
            expected="plain_serializer_function_ser_schema accepts json_serialize=True",
            observed=describe(exc) if exc else "the model was defined",
            matches=exc is None,
        ),
        Check(
            expected="a type with __get_pydantic_core_schema__ validates from '#rrggbb' text "
            "and dumps back to it in JSON",
            observed=describe(parse_exc) if parse_exc else f"dumped: {dumped}",
            matches=dumped == '{"colour":"#00ff7f","width":3}',
        ),
    ]


_probe = article_probe(ARTICLE_TOOLS, TOOL_PACKAGES)

PROBES = (
    _probe(
        "model_str_shows_class_name",
        "print(model) shows the class name and fields; model_dump() gives a dict and "
        "model_dump_json() compact JSON.",
        "Part 1: BaseModel basics",
        probe_model_str_shows_class_name,
    ),
    _probe(
        "json_schema_takes_indent",
        "model_json_schema(indent=2) returns the model's JSON Schema as indented text.",
        "Trap 6: json_schema_extra",
        probe_json_schema_takes_indent,
    ),
    _probe(
        "field_validator_has_validatorinfo",
        "A validator's info argument is typed field_validator.ValidatorInfo; one "
        "field_validator can cover several fields.",
        "Part 5: image-processing tool, ResizeOperation",
        probe_field_validator_has_validatorinfo,
    ),
    _probe(
        "after_validator_checks_field_combination",
        "A model_validator(mode='after') can require one of several optional fields and "
        "forbid two of them together.",
        "Part 5: image-processing tool, ResizeOperation",
        probe_after_validator_checks_field_combination,
    ),
    _probe(
        "discriminator_on_list_of_union",
        "A discriminator set with Field(discriminator=...) on a List[Union[...]] field picks "
        "each element's model by its tag.",
        "Trap 6: complex JSON Schema",
        probe_discriminator_on_list_of_union,
    ),
    _probe(
        "core_schema_serializer_takes_json_serialize",
        "A custom type's __get_pydantic_core_schema__ can validate it from text and serialize "
        "it back, with plain_serializer_function_ser_schema(..., json_serialize=True).",
        "Trap 2, solution 1",
        probe_core_schema_serializer_takes_json_serialize,
    ),
)
