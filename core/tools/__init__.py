"""Tool-parameter lab: the scenario registry; one module per scenario, found by name."""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from core.warnings_capture import recorded_warnings

__all__ = ["SCENARIOS", "Observation", "Scenario", "attempt", "models_source", "validate_with"]

# The order the page lists them in; each module defines `SCENARIO`.
_SCENARIO_MODULES = ("loose_strict", "custom_type", "unions", "recursive", "image_tool", "v1_v2")
# A scenario module's shown source stops at this line (its presets follow it).
_PRESETS_MARKER = "# Presets"


@dataclass(frozen=True)
class Observation:
    """One thing a real run showed: what was tried, how it ended, and the detail."""

    what: str
    outcome: str
    detail: str
    instead: str = ""  # the spelling to use instead, where there is one


@dataclass(frozen=True)
class Scenario:
    """One tool-parameter trap: its model, presets and the errors the bad presets must give.

    `observe(payload)` runs the scenario's side experiment (the loose model, the union
    without a discriminator, the v1 spellings...) on the current payload, or on the
    scenario's own data when the payload does not matter. `contrasts` are the flawed
    models the scenario warns about, by label, so their schemas can be shown too.
    """

    title: str
    summary: str
    model: type[BaseModel]
    source: str
    valid: Mapping[str, dict[str, Any]]
    invalid: Mapping[str, dict[str, Any]]
    expected: Mapping[str, list[tuple[str, str]]]
    observe: Callable[[Any], list[Observation]] | None = None
    contrasts: Mapping[str, type[BaseModel]] = field(default_factory=dict)

    @property
    def schema_models(self) -> dict[str, type[BaseModel]]:
        """The tool model first, then the contrasts, by label."""
        return {self.model.__name__: self.model, **self.contrasts}

    @property
    def presets(self) -> dict[str, dict[str, Any]]:
        """Every preset, valid first, by name."""
        return {**self.valid, **self.invalid}


def models_source(module_name: str) -> str:
    """The Python source of a scenario module, up to its presets.

    Example:
        >>> "class StrictTool" in models_source("core.tools.loose_strict")
        True
    """
    text = inspect.getsource(sys.modules[module_name])
    head, _, _ = text.partition(f"\n{_PRESETS_MARKER}")
    return head.strip()


def attempt(what: str, action: Callable[[], str], *, instead: str = "") -> Observation:
    """Run `action` and record whether it ran, warned or failed, with what it said.

    `action` returns a short description of its result. Warnings are caught (never shown
    to the user as a side effect) and reported: the first one's category and message.

    Example:
        >>> attempt("int('x')", lambda: str(int("x"))).outcome
        'fails'
    """
    with recorded_warnings() as caught:
        try:
            result = action()
        except Exception as exc:  # noqa: BLE001 - the failure is the observation
            said = _errors_text(exc) if isinstance(exc, ValidationError) else _first_line(exc)
            failure = f"{type(exc).__name__}: {said}"
            return Observation(what, "fails", failure, instead)
    if caught:
        first = caught[0]
        warned = f"{first.category.__name__}: {_first_line(first.message)} -> {result}"
        return Observation(what, "warns", warned, instead)
    return Observation(what, "runs", result, instead)


def validate_with(
    what: str, model: type[BaseModel], payload: Any
) -> tuple[Observation, BaseModel | None]:
    """Validate `payload` with a side model: "accepts" and the value, or "rejects" and why.

    Example:
        >>> from pydantic import BaseModel
        >>> class Point(BaseModel):
        ...     x: int
        >>> validate_with("Point", Point, {"x": "a"})[0].detail
        'int_parsing at x'
    """
    try:
        value = model.model_validate(payload)
    except ValidationError as exc:
        return Observation(what, "rejects", _errors_text(exc)), None
    return Observation(what, "accepts", repr(value)), value


def _errors_text(exc: ValidationError) -> str:
    return ", ".join(f"{e['type']} at {'.'.join(map(str, e['loc']))}" for e in exc.errors())


def _first_line(message: object) -> str:
    return str(message).strip().splitlines()[0] if str(message).strip() else ""


def _discover() -> dict[str, Scenario]:
    scenarios = {}
    for name in _SCENARIO_MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        scenarios[name] = module.SCENARIO
    return scenarios


SCENARIOS: dict[str, Scenario] = _discover()
