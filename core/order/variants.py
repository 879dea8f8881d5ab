"""A model's variants and its shown source, derived from its one class (never rewritten).

The seed order's schema options and the retry lab's answer constraints both change a few
constraints of a model a user can read. Both the variant (`create_model`) and the Python
source shown for it come from the class itself, so neither can drift from it.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import lru_cache
from types import ModuleType
from typing import Annotated, Any

from pydantic import BaseModel, Field
from pydantic.fields import FieldInfo

from core.words import count

__all__ = ["class_source", "field_args", "model_fields", "replace_once"]


def field_args(
    field: FieldInfo, replace: dict[type, Any] | None = None, annotation: Any = None
) -> tuple[Any, Any]:
    """`create_model` arguments that rebuild `field`, its constraints of the types in
    `replace` swapped for the given ones (e.g. `{Ge: Ge(5)}`), its type optionally replaced.

    The constraints and reducers stay in the annotation (`Annotated[list[str], operator.add]`),
    where LangGraph reads reducers; the default and the description go in `Field`.

    Example:
        >>> from annotated_types import Ge
        >>> class M(BaseModel):
        ...     n: int = Field(ge=0, default=1, description="count")
        >>> field_args(M.model_fields["n"], {Ge: Ge(5)})
        (typing.Annotated[int, Ge(ge=5)], FieldInfo(annotation=NoneType, required=False, \
default=1, description='count'))
    """
    swap = replace or {}
    metadata = [swap.get(type(item), item) for item in field.metadata]
    base = field.annotation if annotation is None else annotation
    described = field.description
    default: Any
    if field.default_factory is not None:
        default = Field(default_factory=field.default_factory, description=described)
    elif field.is_required():
        default = Field(description=described) if described is not None else ...
    else:
        default = Field(field.default, description=described)
    return (Annotated[(base, *metadata)] if metadata else base), default


def model_fields(model: type[BaseModel]) -> dict[str, Any]:
    """`field_args` of every field of `model`, in its order: `create_model(name, **these)`."""
    return {name: field_args(field) for name, field in model.model_fields.items()}


def class_source(module: ModuleType, name: str) -> str:
    """The class `name` as `module`'s file writes it, without a `__module__ = ...` line.

    Read from the module, not with `inspect.getsource(cls)`: a class that names a public
    package as its `__module__` (core.order's do) is not found there by inspect.
    """
    source = re.sub(r"\n    __module__ = .*", "", _classes(module)[name])
    return source


@lru_cache(maxsize=8)  # modules' sources do not change while the server runs
def _classes(module: ModuleType) -> dict[str, str]:
    source = inspect.getsource(module)
    return {
        node.name: str(ast.get_source_segment(source, node))
        for node in ast.parse(source).body
        if isinstance(node, ast.ClassDef)
    }


def replace_once(source: str, pattern: str, replacement: str) -> str:
    """`re.sub` that must match exactly once: a class that changed shape fails loudly.

    Example:
        >>> replace_once("x: int = Field(ge=0)", r"(ge=)[^,)]+", r"\\g<1>5")
        'x: int = Field(ge=5)'
    """
    changed, matches = re.subn(pattern, replacement, source)
    if matches != 1:  # the class changed shape: the shown source would lie
        times = count(matches, "time")
        raise RuntimeError(f"{pattern!r} matched {times} in the class source, not once")
    return changed
