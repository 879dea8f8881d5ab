"""The Behaviour lab's link: the verdict and source filters, the probe shown, the timing run."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, StrictBool, ValidationInfo, field_validator

from core.links.base import Name, ShareLink, one_of
from core.probes import VERDICTS
from core.probes._model import ARTICLE_OUTPUT, ARTICLE_STATE, ARTICLE_TOOLS, Verdict

__all__ = ["BehaviourLink"]

# The articles' names in links shared while they carried their place in the sources folder.
_RENAMED = {
    f"{ARTICLE_STATE} (sources/000)": ARTICLE_STATE,
    f"{ARTICLE_TOOLS} (sources/001)": ARTICLE_TOOLS,
    f"{ARTICLE_OUTPUT} (sources/004)": ARTICLE_OUTPUT,
}


class BehaviourLink(ShareLink):
    """What a Behaviour link carries. With `context["articles"]` the sources are checked
    against it, with `context["shown"]` the probe against the probes the filters show."""

    timing: StrictBool = False
    verdicts: Annotated[list[Verdict], Field(max_length=len(VERDICTS))] | None = None
    sources: Annotated[list[Name], Field(max_length=100)] | None = None
    probe: Name | None = None

    @field_validator("sources")
    @classmethod
    def _sources(cls, sources: list[str] | None, info: ValidationInfo) -> list[str] | None:
        articles = (info.context or {}).get("articles")
        if sources is not None:  # a link shared before the articles lost their index path
            sources = [_RENAMED.get(source, source) for source in sources]
        if sources is not None and articles is not None:
            for source in sources:
                one_of(source, articles, "a source article of this lab")
        return sources

    @field_validator("probe")
    @classmethod
    def _probe(cls, probe: str | None, info: ValidationInfo) -> str | None:
        shown = (info.context or {}).get("shown")
        return probe if shown is None else one_of(probe, shown, "a probe the filters show")
