"""Probes of recursive tool parameters: forward references and circular dumps."""

from pydantic import BaseModel, Field

from core.probes._model import ARTICLE_TOOLS, TOOL_PACKAGES, Check, Probe, describe, outcome

__all__ = ["PROBES"]


def _menu_item() -> type[BaseModel]:
    class MenuItem(BaseModel):
        id: str
        children: list["MenuItem"] = Field(default_factory=list)

    return MenuItem


def probe_self_reference_needs_model_rebuild() -> list[Check]:
    menu_item = _menu_item()  # deliberately no model_rebuild() call
    tree = {"id": "home", "children": [{"id": "about"}]}
    parsed, exc = outcome(lambda: menu_item.model_validate(tree))
    return [
        Check(
            expected="without MenuItem.model_rebuild() the self-reference is unresolved and "
            "validation fails",
            observed=describe(exc) if exc else f"validated without model_rebuild(): {parsed!r}",
            matches=exc is not None,
        ),
    ]


def probe_circular_reference_dump_is_guarded() -> list[Check]:
    menu_item = _menu_item()
    a, b = menu_item(id="a"), menu_item(id="b")
    a.children.append(b)
    b.children.append(a)
    dumped, exc = outcome(a.model_dump)
    return [
        Check(
            expected="no infinite recursion / RecursionError",
            observed=describe(exc) if exc else "returned",
            matches=not isinstance(exc, RecursionError),
        ),
        Check(
            expected="model_dump() tracks seen objects and still returns the data",
            observed=describe(exc) if exc else f"returned {dumped!r}",
            matches=exc is None,
        ),
    ]


PROBES = (
    Probe(
        "self_reference_needs_model_rebuild",
        "Pydantic v2 needs an explicit model_rebuild() to resolve a self-referencing "
        "List['MenuItem'] field.",
        f"{ARTICLE_TOOLS} § Trap 4: recursive models ('Pydantic v2 needs a model_rebuild() call')",
        probe_self_reference_needs_model_rebuild,
        packages=TOOL_PACKAGES,
    ),
    Probe(
        "circular_reference_dump_is_guarded",
        "model_dump guards common circular references by tracking serialized objects, "
        "so it does not recurse forever.",
        f"{ARTICLE_TOOLS} § Trap 4, solution 1 ('Pydantic handles it by default')",
        probe_circular_reference_dump_is_guarded,
        packages=TOOL_PACKAGES,
    ),
)
