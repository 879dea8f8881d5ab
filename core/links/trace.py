"""The Trace page's link: graph, mode, faults, payload, options, the selected row, forks."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import (
    BaseModel,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationInfo,
    field_validator,
)

from core.links.base import ShareLink
from core.order.schema_options import SchemaOptions

__all__ = ["Fork", "TraceLink"]

_Row = Annotated[StrictInt, Field(ge=0)]


class Fork(BaseModel):
    """A forked (or edited, not forked) row: its number and the edited state's text."""

    row: _Row
    state: StrictStr


class TraceLink(ShareLink):
    """What a Trace link carries. `graph` must be in `context["graphs"]` when given."""

    payload: StrictStr | None = None
    graph: StrictStr | None = None
    mode: Literal["checked", "native"] = "checked"
    faults: list[StrictStr] = Field(default_factory=list, max_length=1_000)
    options: SchemaOptions | None = None
    step: _Row = 0
    ran: StrictBool = True  # false: made before any run (earlier versions): settings only
    run_anyway: StrictBool = False
    guard: StrictBool = False  # true: the run went through GuardedSaver (the Guard switch)
    fork: Fork | None = None
    edit: Fork | None = None

    @field_validator("graph")
    @classmethod
    def _offered(cls, graph: str | None, info: ValidationInfo) -> str | None:
        graphs = (info.context or {}).get("graphs")
        if graph is not None and graphs is not None and graph not in graphs:
            raise ValueError("not a graph this server offers")
        return graph
