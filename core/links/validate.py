"""The Validate page's link: payload, schema options, the model, view and editor shown."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import StrictBool, StrictStr

from core.links.base import ShareLink
from core.order.schema_options import SchemaOptions

__all__ = ["EDITORS", "VIEWS", "ValidateLink"]

_View = Literal[
    "Annotated text",
    "Coercion lens",
    "What LangGraph would do",
    "Model source",
    "JSON Schema",
]
_Editor = Literal["JSON", "Form"]
VIEWS: list[str] = list(get_args(_View))
EDITORS: list[str] = list(get_args(_Editor))


class ValidateLink(ShareLink):
    """What a Validate link carries; `model` is a name, never a module path."""

    payload: StrictStr | None = None
    options: SchemaOptions = SchemaOptions()
    model: Literal["project", "seed"] = "seed"
    view: _View | None = None
    editor: _Editor | None = None
    schema_show: StrictBool = False
