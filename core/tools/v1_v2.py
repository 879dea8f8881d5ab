"""Scenario: Pydantic v1 spellings next to their v2 replacements, run on the installed Pydantic."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from core.tools import Observation, Scenario, attempt, models_source
from core.words import count

__all__ = ["SCENARIO", "MyModelV2"]


class MyModelV2(BaseModel):
    model_config = ConfigDict(extra="allow")  # v1: class Config: extra = "allow"

    value: int = Field(description="A positive number.")
    items: list[str] = Field(description="Labels to attach.")

    @field_validator("value")  # v1: @validator("value")
    @classmethod
    def _positive(cls, value: int) -> int:
        if value <= 0:
            raise ValueError("value must be positive")
        return value


# Each function below runs one v1 spelling; `attempt` records whether it ran, warned or failed.
_DATA = {"value": 10, "items": ["a", "b"], "note": "an extra key"}


def _class_config() -> str:
    class Model(BaseModel):
        value: int

        class Config:
            extra = "allow"

    return repr(Model(value=1, note="x"))


def _allow_extra() -> str:
    class Model(BaseModel):
        value: int

        class Config:
            allow_extra = True  # the article's spelling; not a v1 key either

    kept = "note" in Model(value=1, note="x").model_dump()
    return "extra key kept" if kept else "extra key silently dropped"


def _validator() -> str:
    from pydantic import validator

    class Model(BaseModel):
        value: int

        @validator("value")
        def double(cls, v: int) -> int:
            return v * 2

    return f"value=1 becomes {Model(value=1).value}"


def _root_validator() -> str:
    from pydantic import root_validator

    class Model(BaseModel):
        value: int

        @root_validator
        def check(cls, values: dict[str, Any]) -> dict[str, Any]:
            return values

    return repr(Model(value=1))


def _json_encoders() -> str:
    class Model(BaseModel):
        model_config = ConfigDict(json_encoders={int: lambda v: f"#{v}"})
        value: int

    return Model(value=1).model_dump_json()


def _regex() -> str:
    class Model(BaseModel):
        code: str = Field(regex=r"^[A-Z]+$")

    return repr(Model(code="AB"))


def _get_validators() -> str:
    class Hex:
        @classmethod
        def __get_validators__(cls):
            yield cls.check

        @classmethod
        def check(cls, v: Any) -> Any:
            return v

    class Model(BaseModel):
        color: Hex

    return repr(Model(color="#FF0000"))


def _optional_without_default() -> str:
    class Model(BaseModel):
        note: int | None  # v1 gave this an implicit default of None

    return repr(Model())


def _v1_namespace() -> str:
    from pydantic.v1 import BaseModel as V1Model

    class Model(V1Model):
        value: int

    return Model.parse_obj({"value": "3"}).json()


def _sample() -> MyModelV2:
    return MyModelV2.model_validate(_DATA)


def _parse_obj() -> str:
    return repr(MyModelV2.parse_obj(_DATA))


def _parse_raw() -> str:
    return repr(MyModelV2.parse_raw(json.dumps(_DATA)))


def _base_settings() -> str:
    from pydantic import BaseSettings  # noqa: F401

    return "imported"


_SPELLINGS = (
    ("class Config: extra = 'allow'", "model_config = ConfigDict(extra='allow')", _class_config),
    ("class Config: allow_extra = True", "model_config = ConfigDict(extra='allow')", _allow_extra),
    ("@validator('value')", "@field_validator('value') + @classmethod", _validator),
    ("@root_validator", "@model_validator(mode='after')", _root_validator),
    ("Config.json_encoders = {int: ...}", "@field_serializer / PlainSerializer", _json_encoders),
    ("MyModel.parse_obj(data)", "MyModel.model_validate(data)", _parse_obj),
    ("MyModel.parse_raw(text)", "MyModel.model_validate_json(text)", _parse_raw),
    ("m.dict()", "m.model_dump()", lambda: repr(_sample().dict())),
    ("m.json()", "m.model_dump_json()", lambda: _sample().json()),
    (
        "MyModel.schema()",
        "MyModel.model_json_schema()",
        lambda: count(len(MyModelV2.schema()["properties"]), "property"),
    ),
    (
        "MyModel.schema_json()",
        "json.dumps(MyModel.model_json_schema())",
        lambda: count(len(MyModelV2.schema_json()), "character"),
    ),
    (
        "MyModel.model_json_schema(indent=2)",
        "json.dumps(MyModel.model_json_schema(), indent=2)",
        lambda: str(MyModelV2.model_json_schema(indent=2)),
    ),
    (
        "MyModel.update_forward_refs()",
        "MyModel.model_rebuild()",
        lambda: repr(MyModelV2.update_forward_refs()),
    ),
    (
        "m.copy(update=...)",
        "m.model_copy(update=...)",
        lambda: repr(_sample().copy(update={"value": 2})),
    ),
    ("Field(regex=...)", "Field(pattern=...)", _regex),
    ("note: Optional[int]  (no default)", "note: Optional[int] = None", _optional_without_default),
    ("from pydantic.v1 import BaseModel", "port the model to v2", _v1_namespace),
    ("__get_validators__ on a custom type", "__get_pydantic_core_schema__", _get_validators),
    (
        "from pydantic import BaseSettings",
        "from pydantic_settings import BaseSettings",
        _base_settings,
    ),
)


def _observe(payload: Any) -> list[Observation]:
    return [attempt(old, action, instead=new) for old, new, action in _SPELLINGS]


# Presets
SCENARIO = Scenario(
    title="Pydantic v1 -> v2 spellings",
    summary=(
        "The model uses v2 spellings (`ConfigDict`, `field_validator`). The observations run "
        "each v1 spelling on the installed Pydantic and record whether it runs, warns "
        "(`PydanticDeprecatedSince20`) or fails."
    ),
    model=MyModelV2,
    source=models_source(__name__),
    valid={"with an extra key": _DATA, "no extras": {"value": 3, "items": []}},
    invalid={
        "zero value, items as text": {"value": 0, "items": "a,b"},
        "value as words": {"value": "ten", "items": ["a"]},
    },
    expected={
        "zero value, items as text": [("value_error", "value"), ("list_type", "items")],
        "value as words": [("int_parsing", "value")],
    },
    observe=_observe,
)
