"""Pydantic's JSON Schema and what each provider receives after PydanticAI's rewrite, diffed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, PydanticInvalidForJsonSchema

from core.tools.schema_diff import Rewrite, diff_schemas

if TYPE_CHECKING:  # an annotation only: the tool lab never loads core.validate for it
    from core.validate.json_schema import JsonSchema

__all__ = [
    "PROVIDERS",
    "REWRITE_MEANINGS",
    "ProviderSchema",
    "Rewrite",
    "SchemaViews",
    "diff_schemas",
    "schema_views",
]

PROVIDERS: dict[str, str] = {
    "openai_strict": "OpenAI (strict)",
    "google": "Google Gemini",
    "google_openapi": "Google Live (OpenAPI subset)",
}
# What each `Rewrite.kind` does to the schema the model sees; it states only the change,
# which tests/core/tools/test_provider_schema.py checks against the transformers' real output.
REWRITE_MEANINGS: dict[str, str] = {
    "title_dropped": "titles removed",
    "additional_properties_closed": "closed to undeclared keys (additionalProperties: false)",
    "additional_properties_dropped": "additionalProperties removed: extra keys are not described",
    "required_added": "optional fields made required: the model must always send them",
    "default_dropped": "default removed: the model no longer sees what omitting a field means",
    "discriminator_dropped": "discriminator removed: the model is not told which key decides",
    "oneOf_to_anyOf": "oneOf rewritten as anyOf",
    "constraint_to_description": "moved into the description: the provider no longer enforces it",
    "constraint_dropped": "constraint removed: only Pydantic still enforces it",
    "const_to_enum": "const rewritten as a one-value enum",
    "ref_inlined": "$ref replaced by a copy of its definition",
    "defs_inlined": "$defs removed after inlining",
    "ref_wrapped": "$ref moved into anyOf because it had sibling keywords",
    "ref_to_root": "$ref to the root rewritten as '#'",
    "nullable": "anyOf [X, null] rewritten as X with nullable: true",
    "refused": "the transformer refused the schema",
    "properties_added": "an empty properties object added to an object that declared none",
}


@dataclass(frozen=True)
class ProviderSchema:
    """What one provider family receives: the schema (None if refused), the refusal, the diff."""

    provider: str
    schema: JsonSchema | None
    error: str | None
    rewrites: list[Rewrite]


@dataclass
class SchemaViews:
    """Pydantic's schema for a model and each provider's version of it."""

    pydantic: JsonSchema | None
    error: str | None = None
    providers: dict[str, ProviderSchema] = field(default_factory=dict)


def schema_views(model: type[BaseModel]) -> SchemaViews:
    """Pydantic's JSON Schema for `model` and what every provider in `PROVIDERS` would receive.

    Imports `pydantic_ai` here, not at module import, so pages that never show schemas
    never pay for it.

    Example:
        >>> from pydantic import BaseModel
        >>> class Tool(BaseModel):
        ...     x: int = 1
        >>> [r.kind for r in schema_views(Tool).providers["openai_strict"].rewrites][:2]
        ['default_dropped', 'title_dropped']
    """
    try:
        pydantic = model.model_json_schema()
    except PydanticInvalidForJsonSchema as exc:
        return SchemaViews(None, f"{type(exc).__name__}: {str(exc).splitlines()[0]}")
    from pydantic_ai.exceptions import UserError

    views = SchemaViews(pydantic)
    for provider, transformer in _transformers().items():
        try:
            sent = transformer(pydantic).walk()
        except UserError as exc:  # a refusal (recursion, untyped array) is the finding
            reason = f"{type(exc).__name__}: {exc}"
            refused = [Rewrite("refused", "/", reason)]
            views.providers[provider] = ProviderSchema(provider, None, reason, refused)
            continue
        views.providers[provider] = ProviderSchema(
            provider, sent, None, diff_schemas(pydantic, sent)
        )
    return views


def _transformers() -> dict[str, Any]:
    from pydantic_ai.profiles.google import (
        GoogleJsonSchemaTransformer,
        GoogleOpenAPISchemaTransformer,
    )
    from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

    return {
        "openai_strict": lambda schema: OpenAIJsonSchemaTransformer(schema, strict=True),
        "google": GoogleJsonSchemaTransformer,
        "google_openapi": GoogleOpenAPISchemaTransformer,
    }
