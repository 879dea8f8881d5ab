"""Probes of tool-parameter traps: loose dicts, custom classes, unions and discriminators."""

from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.probes._model import ARTICLE_TOOLS, TOOL_PACKAGES, Check, article_probe, describe, outcome

__all__ = ["PROBES"]


def probe_dict_any_accepts_wrong_inner_types() -> list[Check]:
    class LooseToolParams(BaseModel):
        threshold: float
        extra_config: dict[str, Any]

    data = {"threshold": 0.5, "extra_config": {"iterations": "one hundred", "verbose": "yes"}}
    params, exc = outcome(lambda: LooseToolParams.model_validate(data))
    return [
        Check(
            expected="extra_config={'iterations': 'one hundred', 'verbose': 'yes'} is accepted",
            observed=describe(exc) if exc else f"accepted: {params!r}",
            matches=exc is None,
        ),
    ]


class _Color:
    def __init__(self, hex_code: str) -> None:
        self.hex_code = hex_code


def probe_custom_class_needs_core_schema() -> list[Check]:
    def define() -> type[BaseModel]:
        class DrawingParameters(BaseModel):
            color: _Color

        return DrawingParameters

    _, define_exc = outcome(define)

    class Allowed(BaseModel):
        model_config = ConfigDict(arbitrary_types_allowed=True)
        color: _Color

    _, json_exc = outcome(lambda: Allowed.model_validate_json('{"color": "#0000FF"}'))
    return [
        Check(
            expected="the model defines fine, and validating {'color': '#0000FF'} "
            "raises ValidationError",
            observed=describe(define_exc) if define_exc else "the model was defined",
            matches=define_exc is None,
        ),
        Check(
            expected='with arbitrary_types_allowed, JSON {"color": "#0000FF"} cannot be validated',
            observed=describe(json_exc) if json_exc else "validated",
            matches=isinstance(json_exc, ValidationError),
        ),
    ]


def _inputs() -> tuple[type[BaseModel], type[BaseModel]]:
    class TextInput(BaseModel):
        type: Literal["text"] = "text"
        content: str
        encoding: str = "utf-8"

    class FileInput(BaseModel):
        type: Literal["file"] = "file"
        path: str
        read_mode: Literal["text", "binary"] = "text"

    return TextInput, FileInput


def probe_union_picks_member_silently() -> list[Check]:
    TextInput, FileInput = _inputs()

    class TextFirst(BaseModel):
        input_source: Union[TextInput, FileInput]  # noqa: UP007 - the article's spelling

    class FileFirst(BaseModel):
        input_source: Union[FileInput, TextInput]  # noqa: UP007

    data = {"input_source": {"content": "hi", "path": "/data/report.txt"}}
    picks = [
        type(model.model_validate(data).input_source).__name__ for model in (TextFirst, FileFirst)
    ]
    return [
        Check(
            expected="input that fits both members validates without error and one member is "
            "picked silently (the pick depends on the union, not the data)",
            observed=f"Union[TextInput, FileInput] -> {picks[0]}; "
            f"Union[FileInput, TextInput] -> {picks[1]}",
            matches=picks[0] != picks[1],
        ),
    ]


def probe_literal_field_auto_discriminates() -> list[Check]:
    TextInput, FileInput = _inputs()

    class Params(BaseModel):
        input_source: TextInput | FileInput

    _, exc = outcome(
        lambda: Params.model_validate({"input_source": {"type": "unknown", "content": "x"}})
    )
    kinds = (
        [(e["type"], e["loc"]) for e in exc.errors()] if isinstance(exc, ValidationError) else []
    )
    return [
        Check(
            expected="a Literal `type` field is used as the discriminator automatically: "
            "one union_tag_invalid error",
            observed=f"errors (type, loc): {kinds}",
            matches=[kind for kind, _ in kinds] == ["union_tag_invalid"],
        ),
    ]


def probe_discriminator_error_as_printed() -> list[Check]:
    class TextInputDisc(BaseModel):
        kind: Literal["text_data"]
        content: str

    class FileInputDisc(BaseModel):
        kind: Literal["file_data"]
        path: str

    class Params(BaseModel):
        input_source: TextInputDisc | FileInputDisc = Field(..., discriminator="kind")

    data = {"input_source": {"kind": "unknown_type", "content": "This is some data."}}
    _, exc = outcome(lambda: Params.model_validate(data))
    kinds = [e["type"] for e in exc.errors()] if isinstance(exc, ValidationError) else []
    return [
        Check(
            expected="errors literal_error and discriminator_not_found (the article's output)",
            observed=describe(exc) if exc else "validated",
            matches=kinds == ["literal_error", "discriminator_not_found"],
        ),
    ]


_probe = article_probe(ARTICLE_TOOLS, TOOL_PACKAGES)


PROBES = (
    _probe(
        "dict_any_accepts_wrong_inner_types",
        "Dict[str, Any] accepts wrong inner types: Pydantic only checks it is a dict.",
        "Trap 1: overly loose types (Any / dict)",
        probe_dict_any_accepts_wrong_inner_types,
    ),
    _probe(
        "custom_class_needs_core_schema",
        "A custom class without __get_pydantic_core_schema__ cannot be validated from JSON "
        "(ValidationError when the string arrives).",
        "Trap 2: custom types (Color)",
        probe_custom_class_needs_core_schema,
    ),
    _probe(
        "union_picks_member_silently",
        "A union without a discriminator picks a member silently when several could match.",
        "Trap 3: polymorphic Union",
        probe_union_picks_member_silently,
    ),
    _probe(
        "literal_field_auto_discriminates",
        "Pydantic v2 automatically uses a member's Literal field as the union's discriminator.",
        'Trap 3: "v2 automatically tries to use it as the discriminator"',
        probe_literal_field_auto_discriminates,
    ),
    _probe(
        "discriminator_error_as_printed",
        "An unknown tag in a discriminated union reports literal_error and "
        "discriminator_not_found, as the article prints.",
        "Trap 3, solution: discriminator='kind' (its printed output)",
        probe_discriminator_error_as_printed,
    ),
)
