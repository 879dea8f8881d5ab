"""Scenario: a recursive `MenuItem` tree as a tool parameter, its round trip and its `$ref`s."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from core.tools import Observation, Scenario, models_source
from core.tools.schema_lint import ref_paths
from core.words import count

__all__ = ["SCENARIO", "MenuItem", "MenuTool", "MenuToolParams"]


class MenuItem(BaseModel):
    id: str = Field(description="Stable identifier of the entry.")
    label: str = Field(description="Text shown in the menu.")
    url: str | None = Field(None, description="Link target; none for a pure group.")
    children: list[MenuItem] = Field(default_factory=list, description="Nested entries.")


class MenuToolParams(BaseModel):
    menu_name: str = Field(description="Which menu to replace.")
    items: list[MenuItem] = Field(description="Top-level entries.")


class MenuTool(BaseModel):
    name: str = Field(description="Tool name.")
    params: MenuToolParams


def _depth(items: Any) -> int:
    if not isinstance(items, list) or not items:
        return 0
    return 1 + max(
        _depth(item.get("children") if isinstance(item, dict) else None) for item in items
    )


def _observe(payload: Any) -> list[Observation]:
    params = payload.get("params") if isinstance(payload, dict) else None
    items = params.get("items") if isinstance(params, dict) else None
    depth = count(_depth(items), "level")
    rows = [Observation("depth of the payload's menu tree", depth, "items nested through children")]
    for path in ref_paths(MenuTool.model_json_schema()):
        cyclic = len(path) > 1 and path[-1] in path[:-1]
        rows.append(
            Observation(
                "$ref path from the root",
                f"{count(len(path) - 1, 'ref')} deep" + (", then a cycle" if cyclic else ""),
                " -> ".join(path),
            )
        )
    return rows


# Presets
_MENU = {
    "name": "update_menu",
    "params": {
        "menu_name": "Main Navigation",
        "items": [
            {
                "id": "home",
                "label": "Home",
                "url": "/",
                "children": [
                    {"id": "about", "label": "About Us", "url": "/about"},
                    {"id": "contact", "label": "Contact", "url": "/contact"},
                ],
            },
            {"id": "products", "label": "Products", "url": "/products"},
        ],
    },
}
_DEEP = {
    "name": "update_menu",
    "params": {
        "menu_name": "Docs",
        "items": [
            {
                "id": "a",
                "label": "A",
                "children": [
                    {"id": "b", "label": "B", "children": [{"id": "c", "label": "C", "url": "/c"}]}
                ],
            }
        ],
    },
}
_MISSING_LABEL = {
    "name": "update_menu",
    "params": {
        "menu_name": "Main Navigation",
        "items": [{"id": "home", "label": "Home", "children": [{"id": "about", "url": "/about"}]}],
    },
}
_CHILDREN_NOT_LIST = {
    "name": "update_menu",
    "params": {
        "menu_name": "Main Navigation",
        "items": [{"id": "home", "label": "Home", "children": {"id": "about", "label": "About"}}],
    },
}

SCENARIO = Scenario(
    title="Recursive model: MenuItem tree",
    summary=(
        "`MenuItem.children: list[MenuItem]` validates and round-trips at any depth, but its "
        "JSON Schema needs a `$ref` that points back at itself: some providers follow it, "
        "others refuse the schema."
    ),
    model=MenuTool,
    source=models_source(__name__),
    valid={"main navigation": _MENU, "three levels": _DEEP},
    invalid={"child without a label": _MISSING_LABEL, "children as an object": _CHILDREN_NOT_LIST},
    expected={
        "child without a label": [("missing", "params.items[0].children[0].label")],
        "children as an object": [("list_type", "params.items[0].children")],
    },
    observe=_observe,
)
