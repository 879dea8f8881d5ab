"""Coercion lens: each input leaf next to the value the model holds after validation."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pydantic import AliasChoices, BaseModel

from core.jsontext.paths import PathNames
from core.jsontext.write import dumps

__all__ = ["CoercionRow", "coercion_rows"]

_MISSING = object()


@dataclass(frozen=True)
class CoercionRow:
    path: str
    input: str  # JSON text of the input leaf ("" when the model filled a default)
    input_type: str
    output: str  # repr-like text of the validated value ("" when the key was dropped)
    output_type: str
    # same | converted (same value, other type) | coerced (text parsed as a number) |
    # rewritten (text changed, e.g. stripped) | dropped (extra="ignore") | default (filled)
    change: str

    @property
    def changed(self) -> bool:
        return self.change != "same"


def coercion_rows(value: Any, model: BaseModel) -> list[CoercionRow]:
    """Pair every leaf of the input `value` with the validated `model`'s value at that path.

    Also lists the top-level fields the model filled from defaults.

    Example:
        >>> from core.order import AgentState, SEED_PAYLOAD
        >>> [r.change for r in coercion_rows({"user_id": SEED_PAYLOAD["user_id"], "amount": 9},
        ...     AgentState.model_validate({"user_id": SEED_PAYLOAD["user_id"], "amount": 9}))]
        ['converted', 'converted', 'default', 'default', 'default', 'default']
    """
    rows: list[CoercionRow] = []
    _walk(value, model, (), rows, PathNames())
    if isinstance(value, dict):
        for name in type(model).model_fields:
            if name not in value and name not in model.model_fields_set:
                out = getattr(model, name)
                rows.append(CoercionRow(name, "", "", _show(out), _type(out), "default"))
    return rows


def _walk(
    value: Any, out: Any, path: tuple[str | int, ...], rows: list[CoercionRow], names: PathNames
) -> None:
    if isinstance(value, dict) and value:
        if isinstance(out, dict):
            # A dict's keys may be converted ("01" -> 1); keys that become one key keep only
            # the last value, so the earlier ones were dropped.
            found = {key: _out_key(key, out) for key in value}
            last = {out_key: key for key, out_key in found.items()}
            outs = {
                key: out[k] if k is not _MISSING and last[k] == key else _MISSING
                for key, k in found.items()
            }
        else:
            outs = {key: _child(out, key) for key in value}
        for key, child in value.items():
            _walk(child, outs[key], (*path, key), rows, names)
    elif isinstance(value, list) and value:
        for index, child in enumerate(value):
            _walk(child, _child(out, index), (*path, index), rows, names)
    else:
        rows.append(_row(names(path)[0], value, out))


def _child(out: Any, key: str | int) -> Any:
    if out is _MISSING:
        return _MISSING
    if isinstance(out, BaseModel):
        name = _field_name(type(out), key) if isinstance(key, str) else None
        if name is not None:
            return getattr(out, name)
        extra = out.model_extra or {}
        if isinstance(key, str) and key in extra:
            return extra[key]
        return _MISSING
    if isinstance(out, list | tuple) and isinstance(key, int) and key < len(out):
        return out[key]
    return _MISSING


def _out_key(key: str, out: dict[Any, Any]) -> Any:
    """The key of validated dict `out` that the input key became (_MISSING when none)."""
    if key in out:
        return key
    for convert in (int, float):  # JSON keys are text: int and float keys are parsed from it
        try:
            converted = convert(key)
        except ValueError:
            continue
        if converted in out:
            return converted
    return next((k for k in out if str(k) == key), _MISSING)  # UUID, date and other keys


def _field_name(model: type[BaseModel], key: str) -> str | None:
    """The field an input key fills: by its alias, or by its name where names are accepted."""
    config = model.model_config
    by_name = config.get("validate_by_name") or config.get("populate_by_name")
    by_alias = config.get("validate_by_alias", True)
    for name, field in model.model_fields.items():
        alias = field.validation_alias if field.validation_alias is not None else field.alias
        if alias is None:
            if key == name:
                return name
            continue
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias]
        if by_alias and key in choices:  # an AliasPath choice (a list) never equals a key
            return name
        if by_name and key == name:
            return name
    return None


def _same(value: Any, out: Any) -> bool:
    if type(out) is not type(value):
        return False
    both_nan = isinstance(value, float) and math.isnan(value) and math.isnan(out)
    return both_nan or out == value


def _row(path: str, value: Any, out: Any) -> CoercionRow:
    shown_in = dumps(value)
    if out is _MISSING:
        return CoercionRow(path, shown_in, _type(value), "", "", "dropped")
    if _same(value, out):
        change = "same"
    elif isinstance(value, str) and isinstance(out, str):
        change = "rewritten"
    elif isinstance(value, str) and isinstance(out, int | float):
        change = "coerced"
    elif str(out) == str(value) or (
        isinstance(value, int | float) and isinstance(out, int | float) and out == value
    ):
        change = "converted"
    else:
        change = "rewritten"
    return CoercionRow(path, shown_in, _type(value), _show(out), _type(out), change)


def _show(out: Any) -> str:
    if isinstance(out, BaseModel):
        return f"{type(out).__name__}(…)"
    try:
        return dumps(out)
    except (TypeError, ValueError):
        return repr(out)


def _type(value: Any) -> str:
    return "null" if value is None else type(value).__name__
