"""Deterministic message ids for a recorded run: LangGraph's uuid4s renamed in order."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.types import Overwrite
from pydantic import BaseModel

from core.trace.reducers import dump_json
from core.trace.steps import Step

__all__ = ["rename_message_ids"]


def rename_message_ids(
    steps: list[Step], output: Any, factory: Callable[[int], str], given: Any
) -> Any:
    """Rename the generated message ids in `steps` (in place) and `output` (returned).

    Ids are named `factory(1)`, `factory(2)`, ... in order of first appearance; ids already
    present in `given` (the payload the user chose them in) stay, and are never reused.

    Example:
        >>> from langchain_core.messages import AIMessage
        >>> out = rename_message_ids([], {"m": [AIMessage("x", id="u-1")]}, "n{}".format, {})
        >>> [message.id for message in out["m"]]
        ['n1']
    """
    keep = set(re.findall(r'"id": "([^"]*)"', dump_json(given)))  # ids the user chose stay
    names: dict[str, str] = {}
    fresh = (name for name in map(factory, itertools.count(1)) if name not in keep)

    def rename(value: Any) -> Any:
        if isinstance(value, BaseMessage) and value.id and value.id not in keep:
            if value.id not in names:
                names[value.id] = next(fresh)
            return value.model_copy(update={"id": names[value.id]})
        if isinstance(value, dict):
            return {k: rename(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(map(rename, value))
        if isinstance(value, Overwrite):
            return Overwrite(rename(value.value))
        if isinstance(value, BaseModel) and not isinstance(value, BaseMessage):
            fields = type(value).model_fields
            return value.model_copy(update={k: rename(getattr(value, k)) for k in fields})
        return value

    for step in steps:
        step.state, step.update = rename(step.state), rename(step.update)
        step.before, step.input = rename(step.before), rename(step.input)
    return rename(output)
