"""The seed order: the article's Pydantic state and its reference payload."""

# No `from __future__ import annotations`: the annotations are evaluated here, so Pydantic
# never looks them up in `core.order`, the module these classes name as their home.
import operator
from typing import Annotated, Literal
from uuid import UUID

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field

from core.order.seed import SEED_PAYLOAD

__all__ = ["SEED_PAYLOAD", "AgentState", "LineItem"]


class LineItem(BaseModel):
    __module__ = "core.order"  # the public path: users write --model core.order:LineItem

    sku: str = Field(min_length=3, max_length=32, pattern=r"^[A-Z0-9-]+$")
    qty: int = Field(ge=1, le=99)
    unit_price: float = Field(gt=0, allow_inf_nan=False)


class AgentState(BaseModel):
    __module__ = "core.order"  # the public path: users write --model core.order:AgentState
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)

    user_id: UUID
    amount: float = Field(ge=0, le=1_000_000, allow_inf_nan=False)
    status: Literal["pending", "validated", "confirmed"] = "pending"
    items: list[LineItem] = Field(default_factory=list, max_length=20)
    logs: Annotated[list[str], operator.add] = Field(default_factory=list)
    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
