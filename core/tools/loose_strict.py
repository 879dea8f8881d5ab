"""Scenario: a loose `Dict[str, Any]` tool parameter next to its strict, fully typed twin."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.tools import Observation, Scenario, models_source, validate_with

__all__ = ["SCENARIO", "LooseTool", "LooseToolParams", "StrictTool", "StrictToolParams"]


class LooseToolParams(BaseModel):
    threshold: float
    # Any value under any key passes: the trap the strict twin closes.
    extra_config: dict[str, Any]


class LooseTool(BaseModel):
    name: str
    params: LooseToolParams


class StrictExtraConfig(BaseModel):
    mode: Literal["fast", "slow"] = Field(description="Processing speed.")
    iterations: int = Field(ge=1, description="How many passes to run.")
    verbose: bool = Field(description="Log every pass.")


class StrictToolParams(BaseModel):
    threshold: float = Field(description="Score below which items are dropped.")
    extra_config: StrictExtraConfig


class StrictTool(BaseModel):
    name: str = Field(description="Tool name.")
    params: StrictToolParams


def _observe(payload: Any) -> list[Observation]:
    tried, loose = validate_with("LooseTool.model_validate(payload)", LooseTool, payload)
    if not isinstance(loose, LooseTool):
        return [tried]
    config = loose.params.extra_config
    handed = ", ".join(f"{key}={value!r} ({type(value).__name__})" for key, value in config.items())
    return [tried, Observation("what the tool code receives", "unchecked", handed or "{}")]


# Presets
_GOOD = {
    "name": "process_data",
    "params": {
        "threshold": 0.5,
        "extra_config": {"mode": "fast", "iterations": 100, "verbose": True},
    },
}
_ARTICLE = {
    "name": "process_data",
    "params": {
        "threshold": 0.5,
        "extra_config": {"mode": "fast", "iterations": "one hundred", "verbose": "yes"},
    },
}
# Pydantic v2 reads "yes" as True, so a word it does not know shows bool_parsing.
_WORDS = {
    "name": "process_data",
    "params": {
        "threshold": 0.5,
        "extra_config": {"mode": "fast", "iterations": "one hundred", "verbose": "sure"},
    },
}
_UNKNOWN_MODE = {
    "name": "process_data",
    "params": {
        "threshold": 0.5,
        "extra_config": {"mode": "turbo", "iterations": 0, "verbose": False},
    },
}

SCENARIO = Scenario(
    title="Loose vs strict parameters",
    summary=(
        '`LooseTool` types `extra_config` as `Dict[str, Any]`, so `iterations: "one hundred"` '
        "passes and breaks the code that runs the tool. `StrictTool` spells the config out "
        'as a model and rejects it at the door. (The article also expects `verbose: "yes"` '
        "to fail; Pydantic v2 reads it as `True`.)"
    ),
    model=StrictTool,
    source=models_source(__name__),
    valid={"typed config": _GOOD},
    invalid={
        "words for numbers": _WORDS,
        "the article's payload": _ARTICLE,
        "unknown mode, zero iterations": _UNKNOWN_MODE,
    },
    expected={
        "the article's payload": [("int_parsing", "params.extra_config.iterations")],
        "words for numbers": [
            ("int_parsing", "params.extra_config.iterations"),
            ("bool_parsing", "params.extra_config.verbose"),
        ],
        "unknown mode, zero iterations": [
            ("literal_error", "params.extra_config.mode"),
            ("greater_than_equal", "params.extra_config.iterations"),
        ],
    },
    observe=_observe,
    contrasts={"LooseTool": LooseTool},
)
