"""The Validate page's link: payload, schema options, the model, view and editor shown, and
the error row selected."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

from pydantic import BaseModel, Field, StrictBool, StrictInt, StrictStr

from core.links.base import ShareLink
from core.order.schema_options import SchemaOptions

__all__ = ["EDITORS", "TABLES", "VIEWS", "ErrorPick", "ValidateLink"]

_View = Literal[
    "Annotated text",
    "Coercion lens",
    "What LangGraph would do",
    "Model source",
    "JSON Schema",
]
_Editor = Literal["JSON", "Form"]
# The page's one error table (both verdicts'); "entry_errors", LangGraph's own table in
# links made before it, is still read but selects nothing.
_Table = Literal["errors", "entry_errors"]
VIEWS: list[str] = list(get_args(_View))
EDITORS: list[str] = list(get_args(_Editor))
TABLES: list[str] = list(get_args(_Table))


class ErrorPick(BaseModel):
    """The error row selected: which table, and the row's position in it (a row past the
    table's end selects nothing: the payload in the link decides which rows exist)."""

    table: _Table
    row: Annotated[StrictInt, Field(ge=0, le=1_000_000)]


class ValidateLink(ShareLink):
    """What a Validate link carries; `model` is a name, never a module path."""

    payload: StrictStr | None = None
    options: SchemaOptions = SchemaOptions()
    model: Literal["project", "seed"] = "seed"
    view: _View | None = None
    editor: _Editor | None = None
    schema_show: StrictBool = False
    error: ErrorPick | None = None
