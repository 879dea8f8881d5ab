"""The base of every page's link model: validated field by field, each refusal named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Self, get_args

from pydantic import BaseModel, ConfigDict, Field, StrictStr, ValidationError

__all__ = ["DroppedField", "Finite", "Name", "ShareLink", "one_of"]

_MAX_ROUNDS = 64  # each round drops at least one field; a link has far fewer

Finite = Annotated[float, Field(allow_inf_nan=False, strict=True)]
"""A number (not a bool, not NaN or infinity: a hostile token can carry them)."""
Name = Annotated[StrictStr, Field(max_length=200)]
"""A name chosen from a list (a preset, a scenario...): bounded, since a link can be 64 kB."""


def one_of(value: str | None, allowed: Any, what: str) -> str | None:
    """`value` when it is None or in `allowed`; else a refusal saying what it must be."""
    if value is not None and value not in allowed:
        raise ValueError(f"not {what}")
    return value


@dataclass(frozen=True)
class DroppedField:
    """A link field that was refused: its name and Pydantic's reason (never its value).

    `path` is where inside the field the reason applies, e.g. `options.amount_le`.
    """

    name: str
    path: str
    reason: str


class ShareLink(BaseModel):
    """One page's link state. Every field has a default; unknown fields are ignored.

    Fields use strict types (`StrictInt`, `StrictBool`, `StrictStr`, Literals): a bool is
    not a row number, "1" is not a number.
    """

    model_config = ConfigDict(extra="ignore", frozen=True)

    @classmethod
    def parse(
        cls, state: dict[str, Any], context: dict[str, Any] | None = None
    ) -> tuple[Self, list[DroppedField]]:
        """The link's well-typed fields, and each refused field with Pydantic's reason.

        A refused field takes its default; the other fields are kept. `context` carries
        what is only known at run time (e.g. the graphs this server offers).

        Example:
            >>> from core.links.trace import TraceLink
            >>> link, dropped = TraceLink.parse({"step": True, "mode": "native"})
            >>> link.mode, link.step
            ('native', 0)
            >>> [(field.path, field.reason) for field in dropped]
            [('step', 'Input should be a valid integer')]
        """
        data = {name: state[name] for name in cls.model_fields if name in state}
        reasons: dict[str, tuple[str, str]] = {}
        inner: list[DroppedField] = []
        for name, value in data.items():  # a nested link keeps its good fields too
            nested = _nested_link(cls, name)
            if nested is not None and isinstance(value, dict):
                data[name], refused = nested.parse(value, context)
                inner += [
                    DroppedField(f"{name}.{f.name}", f"{name}.{f.path}", f.reason) for f in refused
                ]
        for _ in range(_MAX_ROUNDS):
            try:
                link = cls.model_validate(data, context=context)
            except ValidationError as exc:
                bad = _refusals(exc, data)
                reasons |= bad
                for name in bad:
                    del data[name]
                continue
            order = list(cls.model_fields)
            names = sorted(reasons, key=order.index)
            return link, [DroppedField(name, *reasons[name]) for name in names] + inner
        raise AssertionError("unreachable: every round drops a field")  # pragma: no cover


def _nested_link(cls: type[ShareLink], name: str) -> type[ShareLink] | None:
    annotation = cls.model_fields[name].annotation
    for kind in (annotation, *get_args(annotation)):
        if isinstance(kind, type) and issubclass(kind, ShareLink):
            return kind
    return None


def _refusals(exc: ValidationError, data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The first (path, reason) for each refused field, e.g. `options.amount_le`."""
    bad: dict[str, tuple[str, str]] = {}
    for error in exc.errors(include_url=False):
        loc = error["loc"]
        name = loc[0] if loc else None
        if not isinstance(name, str) or name not in data:
            raise exc  # a model-level refusal: link models validate field by field only
        bad.setdefault(name, (".".join(str(part) for part in loc), error["msg"]))
    return bad
