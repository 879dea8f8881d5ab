"""The Tools lab's link: scenario, preset, schema model and tab, and the editor's text."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictStr, ValidationInfo, field_validator

from core.jsontext.payload import MAX_PAYLOAD_BYTES
from core.links.base import Name, ShareLink, one_of
from core.tools import SCENARIOS

__all__ = ["ToolsLink"]


class ToolsLink(ShareLink):
    """What a Tools link carries; `preset` and `schema_model` belong to the scenario.

    `context["scenario"]` is the scenario when the link names none; `context["tabs"]` the
    schema views.
    """

    scenario: Name | None = None
    preset: Name | None = None
    schema_model: Name | None = None
    schema_tab: Name | None = None
    payload: Annotated[StrictStr, Field(max_length=MAX_PAYLOAD_BYTES)] | None = None

    @field_validator("scenario")
    @classmethod
    def _scenario(cls, scenario: str | None) -> str | None:
        return one_of(scenario, SCENARIOS, "a scenario of this page")

    @field_validator("preset", "schema_model")
    @classmethod
    def _of_scenario(cls, value: str | None, info: ValidationInfo) -> str | None:
        name = info.data.get("scenario") or (info.context or {}).get("scenario")
        scenario = SCENARIOS[name or next(iter(SCENARIOS))]
        if info.field_name == "preset":
            return one_of(value, scenario.presets, "a preset of the scenario")
        return one_of(value, scenario.schema_models, "a model of the scenario")

    @field_validator("schema_tab")
    @classmethod
    def _tab(cls, tab: str | None, info: ValidationInfo) -> str | None:
        return one_of(tab, (info.context or {}).get("tabs", [tab]), "one of the schema views")
