"""Constraint editor: a variant of the order model built from options, and its Python source."""

from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal

from annotated_types import Ge, Le, MaxLen
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

from core.errors import CodedError, ErrorCode
from core.jsontext.write import number_literal
from core.order import models
from core.order.models import AgentState, LineItem
from core.order.variants import class_source, field_args, model_fields, replace_once

__all__ = ["OptionError", "SchemaOptions", "build_model", "model_source"]

_EXTRA = ("forbid", "ignore", "allow")


_Finite = Annotated[float, Strict(), Field(allow_inf_nan=False)]


class OptionError(CodedError, ValueError):
    """A schema option of the wrong type or out of range (code: bad_option)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.BAD_OPTION, message)


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
            raise OptionError(f"extra must be one of {', '.join(_EXTRA)}")
        if not 0 <= self.items_max <= 100_000:
            raise OptionError("items_max must be between 0 and 100,000")
        if not (math.isfinite(self.amount_ge) and math.isfinite(self.amount_le)):
            raise OptionError("amount bounds must be finite numbers")
        if self.amount_ge > self.amount_le:
            raise OptionError("amount_ge must not exceed amount_le")

    @classmethod
    def from_dict(cls, data: Any) -> SchemaOptions:
        """Options from a (possibly hostile) dict, e.g. a share link; unknown keys ignored.

        Raises:
            OptionError: not a dict, or a value of the wrong type or out of range
                (a ValueError, code bad_option).
        """
        try:
            return _ADAPTER.validate_python(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"])
            raise OptionError(f"{where or 'options'}: {first['msg']}") from None

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
    # Derived from the classes in models.py, field by field: only what an option names
    # changes, so a field added there appears here too (test_schema_options pins it).
    item_config = ConfigDict(str_strip_whitespace=options.strip_item, strict=options.strict)
    line_item = create_model("LineItem", __config__=item_config, **model_fields(LineItem))
    state_config = ConfigDict(
        extra=options.extra,
        str_strip_whitespace=options.strip_state,
        strict=options.strict,
    )
    fields = model_fields(AgentState)
    fields["amount"] = field_args(
        AgentState.model_fields["amount"],
        {Ge: Ge(_bound(options.amount_ge)), Le: Le(_bound(options.amount_le))},
    )
    fields["items"] = field_args(
        AgentState.model_fields["items"],
        {MaxLen: MaxLen(options.items_max)},
        annotation=list[line_item],  # type: ignore[valid-type]  # a runtime class
    )
    return create_model("AgentState", __config__=state_config, **fields)


def model_source(options: SchemaOptions) -> str:
    """Python source of the model `build_model(options)` returns.

    Derived from the source of the classes in models.py: their config line is rewritten
    from the options, and the bounds an option sets replace the ones written there.

    Example:
        >>> "extra='forbid'" in model_source(SchemaOptions())
        True
    """
    item = _with_config(
        class_source(models, "LineItem"), _config(strip=options.strip_item, strict=options.strict)
    )
    state = _with_config(
        class_source(models, "AgentState"),
        _config(extra=options.extra, strip=options.strip_state, strict=options.strict),
    )
    ge, le = number_literal(options.amount_ge), number_literal(options.amount_le)
    state = replace_once(
        state, r"(\n    amount: .*?\bge=)[^,)]+(, le=)[^,)]+", rf"\g<1>{ge}\g<2>{le}"
    )
    state = replace_once(
        state, r"(\n    items: .*?\bmax_length=)[^,)]+", rf"\g<1>{options.items_max}"
    )
    return f"""import operator
from typing import Annotated, Literal
from uuid import UUID

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field


{item}


{state}
"""


_CONFIG_LINES = re.compile(r"\n    model_config = .*")


def _with_config(source: str, config: str) -> str:
    """`source` of one class with `config` in place of its `model_config` line."""
    head, body = source.split("\n", 1)
    body = _CONFIG_LINES.sub("", "\n" + body).lstrip("\n")
    return f"{head}{config}\n{body}" if config else f"{head}\n{body}"


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
