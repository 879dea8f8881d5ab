"""A model's JSON Schema, built once per model class (Pydantic takes tens of ms per call)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from pydantic import BaseModel

__all__ = ["json_schema", "json_schema_text"]


@lru_cache(maxsize=64)  # keyed by model class: server-side models, never user data
def json_schema_text(model: type[BaseModel]) -> str:
    """The model's JSON Schema as indented JSON text.

    Example:
        >>> from core.order import LineItem
        >>> json.loads(json_schema_text(LineItem))["required"]
        ['sku', 'qty', 'unit_price']
    """
    return json.dumps(model.model_json_schema(), indent=2, ensure_ascii=False)


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """A fresh copy of the model's JSON Schema (safe to modify).

    Example:
        >>> from core.order import LineItem
        >>> json_schema(LineItem)["title"]
        'LineItem'
    """
    return json.loads(json_schema_text(model))
