"""Round trip of a validated tool value: model_dump -> validate, model_dump_json -> validate."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from core.jsontext.paths import format_path
from core.jsontext.write import clip, truncate

__all__ = ["Difference", "RoundTrip", "Stage", "round_trip"]


@dataclass(frozen=True)
class Stage:
    """One step of the round trip and how it ended (`detail` holds the output or the error)."""

    name: str
    ok: bool
    detail: str


@dataclass(frozen=True)
class Difference:
    """A leaf that came back different: where, before, after, and through which dump."""

    via: str
    path: str
    before: str
    after: str


@dataclass
class RoundTrip:
    """The whole round trip: stages, the JSON text written, and every difference found."""

    stages: list[Stage] = field(default_factory=list)
    json_text: str | None = None
    differences: list[Difference] = field(default_factory=list)

    @property
    def survived(self) -> bool:
        """True when every stage ran and both re-validated values equal the original."""
        return all(stage.ok for stage in self.stages) and not self.differences


def round_trip(value: BaseModel) -> RoundTrip:
    """Dump a validated value two ways, validate each dump again and compare with the original.

    Example:
        >>> from pydantic import BaseModel
        >>> class Point(BaseModel):
        ...     x: float
        >>> round_trip(Point(x=1)).survived
        True
        >>> round_trip(Point(x=float("nan"))).stages[-1].ok  # NaN is written as null
        False
    """
    model = type(value)
    result = RoundTrip()
    stages: tuple[tuple[str, Callable[[], Any], Callable[[Any], BaseModel]], ...] = (
        ("model_dump", value.model_dump, model.model_validate),
        ("model_dump_json", value.model_dump_json, model.model_validate_json),
    )
    for via, dump, load in stages:
        try:
            dumped = dump()
        except Exception as exc:  # noqa: BLE001 - a serializer error is the finding
            result.stages.append(Stage(f"{via}()", False, _explain(exc)))
            continue
        if isinstance(dumped, str):
            result.json_text = dumped
        shown = _cut(dumped) if isinstance(dumped, str) else truncate(dumped, 300)
        result.stages.append(Stage(f"{via}()", True, shown))
        try:
            again = load(dumped)
        except Exception as exc:  # noqa: BLE001 - validation of our own output failing is the finding
            result.stages.append(Stage(f"validate {via} output", False, _explain(exc)))
            continue
        result.stages.append(Stage(f"validate {via} output", True, "validated"))
        result.differences += _compare(via, value, again)
    return result


def _compare(via: str, before: BaseModel, after: BaseModel) -> list[Difference]:
    found = [
        Difference(via, format_path(path), _show(old), _show(new))
        for path, old, new in _leaf_changes((), before.model_dump(), after.model_dump())
    ]
    if not found and before != after:
        # Same dumps, yet unequal: a field type compares by identity (no __eq__).
        found.append(Difference(via, "(root)", "equal dumps", "objects compare unequal"))
    return found


def _leaf_changes(path: tuple[str | int, ...], old: Any, new: Any) -> list[tuple[Any, Any, Any]]:
    if isinstance(old, dict) and isinstance(new, dict):
        changes = []
        for key in [*old, *(k for k in new if k not in old)]:
            changes += _leaf_changes((*path, key), old.get(key, _MISSING), new.get(key, _MISSING))
        return changes
    if isinstance(old, list | tuple) and isinstance(new, list | tuple) and type(old) is type(new):
        if len(old) == len(new):
            changes = []
            for index, (a, b) in enumerate(zip(old, new, strict=True)):
                changes += _leaf_changes((*path, index), a, b)
            return changes
    return [] if _same(old, new) else [(path, old, new)]


def _same(old: Any, new: Any) -> bool:
    if isinstance(old, float) and isinstance(new, float) and math.isnan(old) and math.isnan(new):
        return True
    return type(old) is type(new) and old == new


class _Missing:
    def __repr__(self) -> str:
        return "(missing)"


_MISSING = _Missing()


def _show(value: Any) -> str:
    if value is _MISSING:
        return "(missing)"
    return f"{truncate(value, 120)} ({type(value).__name__})"


def _cut(text: str, limit: int = 300) -> str:
    return clip(text, limit)


def _explain(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {' '.join(line.strip() for line in lines[:3])}"
