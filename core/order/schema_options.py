"""Constraint editor: a variant of the order model built from options, and its Python source."""

from __future__ import annotations

import math
import operator
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal
from uuid import UUID

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    Strict,
    StrictBool,
    StrictInt,
    TypeAdapter,
    ValidationError,
    create_model,
)

from core.jsontext.write import number_literal
from core.order.models import AgentState

__all__ = ["SchemaOptions", "build_model", "model_source"]

_EXTRA = ("forbid", "ignore", "allow")


_Finite = Annotated[float, Strict(), Field(allow_inf_nan=False)]


@dataclass(frozen=True)
class SchemaOptions:
    """The knobs of the order model; the defaults are the seed `AgentState`.

    Strict field types: Pydantic reads them from a (possibly hostile) dict, e.g. a share link.
    """

    strict: StrictBool = False
    extra: Literal["forbid", "ignore", "allow"] = "forbid"
    strip_state: StrictBool = True
    strip_item: StrictBool = False
    items_max: Annotated[StrictInt, Field(ge=0, le=100_000)] = 20
    amount_ge: _Finite = 0.0
    amount_le: _Finite = 1_000_000.0

    def __post_init__(self) -> None:
        if self.extra not in _EXTRA:
            raise ValueError(f"[bad_option] extra must be one of {', '.join(_EXTRA)}")
        if not 0 <= self.items_max <= 100_000:
            raise ValueError("[bad_option] items_max must be between 0 and 100,000")
        if not (math.isfinite(self.amount_ge) and math.isfinite(self.amount_le)):
            raise ValueError("[bad_option] amount bounds must be finite numbers")
        if self.amount_ge > self.amount_le:
            raise ValueError("[bad_option] amount_ge must not exceed amount_le")

    @classmethod
    def from_dict(cls, data: Any) -> SchemaOptions:
        """Options from a (possibly hostile) dict, e.g. a share link; unknown keys ignored.

        Raises:
            ValueError: not a dict, or a value of the wrong type or out of range, with a
                `[bad_option]` code.
        """
        try:
            return _ADAPTER.validate_python(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise ValueError(f"[bad_option] {where or 'options'}: {first['msg']}") from None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


_ADAPTER: TypeAdapter[SchemaOptions] = TypeAdapter(SchemaOptions)


def build_model(options: SchemaOptions) -> type[BaseModel]:
    """The order model for these options (`AgentState` itself for the defaults).

    Example:
        >>> build_model(SchemaOptions()) is AgentState
        True
    """
    if options == SchemaOptions():
        return AgentState
    return _build(options)


@lru_cache(maxsize=32)  # pure function of frozen options; models are not user data
def _build(options: SchemaOptions) -> type[BaseModel]:
    item_config = ConfigDict(str_strip_whitespace=options.strip_item, strict=options.strict)
    line_item = create_model(
        "LineItem",
        __config__=item_config,
        sku=(str, Field(min_length=3, max_length=32, pattern=r"^[A-Z0-9-]+$")),
        qty=(int, Field(ge=1, le=99)),
        unit_price=(float, Field(gt=0, allow_inf_nan=False)),
    )
    state_config = ConfigDict(
        extra=options.extra,
        str_strip_whitespace=options.strip_state,
        strict=options.strict,
    )
    return create_model(
        "AgentState",
        __config__=state_config,
        user_id=(UUID, ...),
        amount=(
            float,
            Field(ge=_bound(options.amount_ge), le=_bound(options.amount_le), allow_inf_nan=False),
        ),
        # Runtime types: create_model takes what a class body would, mypy cannot follow them.
        status=(Literal["pending", "validated", "confirmed"], "pending"),  # type: ignore[arg-type,maybe-unrecognized-str-typeform]
        items=(list[line_item], Field(default_factory=list, max_length=options.items_max)),  # type: ignore[valid-type]
        logs=(Annotated[list[str], operator.add], Field(default_factory=list)),
        messages=(Annotated[list[AnyMessage], add_messages], Field(default_factory=list)),
    )


def model_source(options: SchemaOptions) -> str:
    """Python source of the model `build_model(options)` returns.

    Example:
        >>> "extra='forbid'" in model_source(SchemaOptions())
        True
    """
    item_config = _config(strip=options.strip_item, strict=options.strict)
    state_config = _config(extra=options.extra, strip=options.strip_state, strict=options.strict)
    ge, le = number_literal(options.amount_ge), number_literal(options.amount_le)
    return f"""import math
import operator
from typing import Annotated, Literal
from uuid import UUID

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field


class LineItem(BaseModel):{item_config}
    sku: str = Field(min_length=3, max_length=32, pattern=r"^[A-Z0-9-]+$")
    qty: int = Field(ge=1, le=99)
    unit_price: float = Field(gt=0, allow_inf_nan=False)


class AgentState(BaseModel):{state_config}
    user_id: UUID
    amount: float = Field(ge={ge}, le={le}, \
allow_inf_nan=False)
    status: Literal["pending", "validated", "confirmed"] = "pending"
    items: list[LineItem] = Field(default_factory=list, max_length={options.items_max})
    logs: Annotated[list[str], operator.add] = Field(default_factory=list)
    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
"""


def _config(*, strip: bool, strict: bool, extra: str | None = None) -> str:
    parts = [f"extra={extra!r}"] if extra else []
    if strip:
        parts.append("str_strip_whitespace=True")
    if strict:
        parts.append("strict=True")
    if not parts:
        return ""
    return f"\n    model_config = ConfigDict({', '.join(parts)})\n"


def _bound(value: float) -> float | int:
    # Whole bounds stay ints, as the seed writes them, so the schema matches the source.
    return int(value) if float(value).is_integer() else float(value)
