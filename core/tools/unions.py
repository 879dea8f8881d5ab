"""Scenario: `TextInput | FileInput` as a plain union and as a discriminated union."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from core.tools import Observation, Scenario, models_source, validate_with

__all__ = ["SCENARIO", "FileInput", "MixedInputTool", "MixedInputToolDisc", "TextInput"]


class TextInput(BaseModel):
    kind: Literal["text_data"] = Field("text_data", description="Tag: this is inline text.")
    content: str = Field(description="The text content.")
    encoding: str = Field("utf-8", description="Encoding of the text.")


class FileInput(BaseModel):
    kind: Literal["file_data"] = Field("file_data", description="Tag: this is a file.")
    path: str = Field(description="Path to the file.")
    read_mode: Literal["text", "binary"] = Field("text", description="How to read the file.")


class MixedInputToolParams(BaseModel):
    # No discriminator: Pydantic tries every member and keeps the best match.
    input_source: TextInput | FileInput = Field(description="Source of the input data.")


class MixedInputTool(BaseModel):
    name: str
    params: MixedInputToolParams


class MixedInputToolParamsDisc(BaseModel):
    # The `kind` tag alone decides the member; a bad tag is one clear error.
    input_source: Annotated[TextInput | FileInput, Field(discriminator="kind")] = Field(
        description="Source of the input data."
    )


class MixedInputToolDisc(BaseModel):
    name: str = Field(description="Tool name.")
    params: MixedInputToolParamsDisc


def _observe(payload: Any) -> list[Observation]:
    what = "MixedInputTool.model_validate(payload)  (no discriminator)"
    tried, plain = validate_with(what, MixedInputTool, payload)
    if not isinstance(plain, MixedInputTool):
        return [tried]
    picked = plain.params.input_source
    given = payload["params"]["input_source"]  # validation passed, so the shape is there
    dropped = sorted(set(given) - set(type(picked).model_fields))
    return [
        Observation(what, f"picks {type(picked).__name__}", repr(picked)),
        Observation(
            "keys of input_source the picked member ignored",
            "silently dropped" if dropped else "none",
            ", ".join(dropped) or "every key was used",
        ),
    ]


# Presets
def _tool(source: dict[str, Any]) -> dict[str, Any]:
    return {"name": "process_input", "params": {"input_source": source}}


SCENARIO = Scenario(
    title="Unions: with and without a discriminator",
    summary=(
        "The same `TextInput | FileInput` parameter twice. Without a discriminator Pydantic "
        "tries both members and silently keeps one (dropping the keys it does not know); "
        'with `discriminator="kind"` the tag alone decides, and a bad tag is one error.'
    ),
    model=MixedInputToolDisc,
    source=models_source(__name__),
    valid={
        "text input": _tool({"kind": "text_data", "content": "Hello world!"}),
        "file input": _tool(
            {"kind": "file_data", "path": "/data/report.txt", "read_mode": "binary"}
        ),
    },
    invalid={
        "unknown kind": _tool({"kind": "unknown_type", "content": "This is some data."}),
        "no kind, keys of both": _tool({"content": "Hello", "path": "/data/report.txt"}),
        "file without a path": _tool({"kind": "file_data", "read_mode": "binary"}),
    },
    expected={
        "unknown kind": [("union_tag_invalid", "params.input_source")],
        "no kind, keys of both": [("union_tag_not_found", "params.input_source")],
        "file without a path": [("missing", "params.input_source.path")],
    },
    observe=_observe,
    contrasts={"MixedInputTool (no discriminator)": MixedInputTool},
)
