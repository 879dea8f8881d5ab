"""The audit's check of a state, remembered per thread: a step's checkpoint holds the very
state its writes made, so that state is validated once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from core.guard.ledger import LEDGER_SIZE
from core.stores.state import state_errors

__all__ = ["StateCheck", "same_state"]

Errors = list[dict[str, Any]]


def same_state(one: Any, other: Any) -> bool:
    """Whether two states hold the same values, type for type (`1`, `1.0` and `True` are
    equal in Python, not to a model), the same objects compared first.

    Example:
        >>> same_state({"qty": [1, 2]}, {"qty": [1, 2]}), same_state({"qty": 1}, {"qty": True})
        (True, False)
    """
    if one is other:
        return True
    if type(one) is not type(other):
        return False
    if isinstance(one, dict):
        return one.keys() == other.keys() and all(same_state(one[k], other[k]) for k in one)
    if isinstance(one, list | tuple):
        return len(one) == len(other) and all(map(same_state, one, other))
    try:
        return bool(one == other)
    except Exception:  # noqa: BLE001 - a value whose == raises (an array) is not known equal
        return False


@dataclass
class StateCheck:
    """`state_errors` under one model, with the last state each thread's check was given
    and its errors: the same state again gets them without another validation."""

    model: type[BaseModel]
    may_hold_refusals: bool
    _last: OrderedDict[str, tuple[Any, Errors]] = field(default_factory=OrderedDict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, thread_id: str, state: Any) -> Errors:
        """Pydantic's errors for `state`, as the audit gives them (`state_errors`).

        Example:
            >>> from core.order import LineItem
            >>> check = StateCheck(LineItem, may_hold_refusals=False)
            >>> line = {"sku": "ab", "qty": 1, "unit_price": 2.0}
            >>> first = check("t", line)
            >>> [e["type"] for e in first], check("t", dict(line)) is first
            (['string_too_short'], True)
        """
        with self._lock:
            last = self._last.get(thread_id)
        if last is not None and _same(last[0], state):
            return last[1]
        errors = state_errors(state, self.model, may_hold_refusals=self.may_hold_refusals)
        with self._lock:
            self._last[thread_id] = (state, errors)
            self._last.move_to_end(thread_id)
            while len(self._last) > LEDGER_SIZE:
                self._last.popitem(last=False)
        return errors


def _same(one: Any, other: Any) -> bool:
    try:
        return same_state(one, other)
    except RecursionError:  # nested too deep to compare: checked again (and refused there)
        return False
