"""Model instances in a stored state, as the data they hold: so validation checks them too."""

from __future__ import annotations

from copy import copy
from functools import lru_cache
from typing import Any, get_args

from pydantic import BaseModel

__all__ = ["plain_data", "plain_fields"]


_ATOMS = (str, int, float, bool, bytes, type(None))


def plain_data(value: Any) -> Any:
    """`value` with every instance of the user's Pydantic models replaced by the data it
    holds, so that validating it checks the instances too (Pydantic takes an instance of
    the right class as it is: one built with `model_construct`, as LangGraph's decoder falls
    back to, is never checked). Returns `value` itself when it holds no such instance.

    LangChain's own classes (messages) are kept: their constructor validates them when the
    decoder builds them, and re-validating every stored message would double an audit.

    Example:
        >>> from core.order import LineItem
        >>> plain_data({"items": [LineItem.model_construct(sku="bad", qty=99)]})
        {'items': [{'sku': 'bad', 'qty': 99}]}
    """
    if isinstance(value, _ATOMS):
        return value
    if isinstance(value, BaseModel):
        if type(value).__module__.startswith("langchain_core."):
            return value
        fields = {**value.__dict__, **(value.__pydantic_extra__ or {})}
        return {key: _own(plain_data(inner), inner) for key, inner in fields.items()}
    if isinstance(value, dict):
        changed = None
        for key, inner in value.items():
            plain = plain_data(inner)
            if plain is not inner:
                changed = changed if changed is not None else dict(value)
                changed[key] = plain
        return value if changed is None else changed
    if isinstance(value, list | tuple):
        items = None
        for index, inner in enumerate(value):
            plain = plain_data(inner)
            if plain is not inner:
                items = items if items is not None else list(value)
                items[index] = plain
        if items is None:
            return value
        return items if isinstance(value, list) else tuple(items)
    return value


def _own(plain: Any, inner: Any) -> Any:
    """A list or dict an instance holds, copied: validators get their own (a reader may share
    one decoded instance between states, and a `mode="before"` validator may change its
    input in place)."""
    if plain is inner and isinstance(inner, list | dict):
        return copy(inner)
    return plain


@lru_cache(maxsize=64)  # keyed by model class: server-side models, never user data
def _may_hold_models(model: type[BaseModel]) -> frozenset[str] | None:
    """The fields of `model` whose type can hold an instance of one of the user's models (a
    nested model, in any container): only those are walked by `plain_data`. None when a
    field's type is open (Any, object), so every field is walked."""
    names = set()
    for name, info in model.model_fields.items():
        kinds = _kinds(info.annotation)
        if kinds is None:
            return None
        if kinds:
            names.add(name)
    return frozenset(names)


def _kinds(annotation: Any) -> set[type] | None:
    """The user's model classes a type annotation can hold (None: anything can be there)."""
    if annotation is Any or annotation is object:
        return None
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return set() if annotation.__module__.startswith("langchain_core.") else {annotation}
    found: set[type] = set()
    for argument in get_args(annotation):
        inner = _kinds(argument)
        if inner is None:
            return None
        found |= inner
    return found


def plain_fields(state: Any, model: type[BaseModel]) -> Any:
    """`plain_data` of the state's fields that can hold the user's model instances."""
    fields = _may_hold_models(model)
    if fields is None or not isinstance(state, dict):
        return plain_data(state)
    changed = {name: plain_data(state[name]) for name in fields if name in state}
    if all(changed[name] is state[name] for name in changed):
        return state
    return {**state, **changed}
