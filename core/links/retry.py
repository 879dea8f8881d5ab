"""The Retry lab's link: the preset, the inputs on screen and the last run's inputs."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictInt, StrictStr, field_validator

from core.links.base import Finite, Name, ShareLink, one_of
from core.retry import MAX_RETRIES, PRESETS

__all__ = ["RetryInputs", "RetryLink"]


class RetryInputs(ShareLink):
    """The Retry lab's run inputs (also the last run's, under `submitted`)."""

    script: StrictStr | None = None
    retries: Annotated[StrictInt, Field(ge=0, le=MAX_RETRIES)] | None = None
    min_citations: Annotated[StrictInt, Field(ge=0, le=5)] | None = None
    confidence_min: Finite | None = None
    confidence_max: Finite | None = None


class RetryLink(RetryInputs):
    """What a Retry link carries: the preset, the inputs on screen and the run shown."""

    preset: Name | None = None
    submitted: RetryInputs | None = None

    @field_validator("preset")
    @classmethod
    def _known(cls, preset: str | None) -> str | None:
        return one_of(preset, PRESETS, "one of this lab's presets")
