"""The base of every page's link model: validated field by field, each refusal named."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, ValidationError

__all__ = ["DroppedField", "ShareLink"]

_MAX_ROUNDS = 64  # each round drops at least one field; a link has far fewer


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
            >>> from core.links import TraceLink
            >>> link, dropped = TraceLink.parse({"step": True, "mode": "native"})
            >>> link.mode, link.step
            ('native', 0)
            >>> [(field.path, field.reason) for field in dropped]
            [('step', 'Input should be a valid integer')]
        """
        data = {name: state[name] for name in cls.model_fields if name in state}
        reasons: dict[str, tuple[str, str]] = {}
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
            return link, [DroppedField(name, *reasons[name]) for name in names]
        raise AssertionError("unreachable: every round drops a field")  # pragma: no cover


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
