"""core.tools.provider_schema: diffs checked against PydanticAI's real transformer output."""

import copy

import pytest
from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer, GoogleOpenAPISchemaTransformer
from pydantic_ai.profiles.openai import OpenAIJsonSchemaTransformer

from core.tools import SCENARIOS
from core.tools.custom_type import DrawingToolNoHook
from core.tools.loose_strict import LooseTool
from core.tools.provider_schema import (
    PROVIDERS,
    REWRITE_MEANINGS,
    Rewrite,
    diff_schemas,
    schema_views,
)

MODELS = {
    f"{scenario_id}:{label}": model
    for scenario_id, scenario in SCENARIOS.items()
    for label, model in scenario.schema_models.items()
    if model is not DrawingToolNoHook and "NoJsonSchema" not in model.__name__
}
NAMED_KINDS = set(REWRITE_MEANINGS)  # every kind the page shows has a meaning


def _node(schema, pointer):
    node = schema
    for token in pointer.strip("/").split("/") if pointer != "/" else []:
        token = token.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _holds(rewrite, sent):
    """Whether the transformer's output really shows the rewrite the diff claims."""
    if rewrite.kind == "refused":
        return sent is None
    node = _node(sent, rewrite.where)
    key = rewrite.detail.split("=")[0].split(" ")[0]
    checks = {
        "oneOf_to_anyOf": lambda: "anyOf" in node and "oneOf" not in node,
        "discriminator_dropped": lambda: "discriminator" not in node,
        "default_dropped": lambda: "default" not in node,
        "title_dropped": lambda: "title" not in node,
        "additional_properties_closed": lambda: node["additionalProperties"] is False,
        "additional_properties_dropped": lambda: "additionalProperties" not in node,
        "required_added": lambda: (
            node["required"] == []
            if rewrite.detail == "required: [] added"
            else all(
                name in node["required"]
                for name in rewrite.detail.removeprefix("now required: ").split(", ")
            )
        ),
        "properties_added": lambda: node["properties"] == {},
        "constraint_to_description": lambda: (
            key not in node and rewrite.detail in node["description"]
        ),
        "constraint_dropped": lambda: key not in node and key not in node.get("description", ""),
        "const_to_enum": lambda: "const" not in node and len(node["enum"]) == 1,
        "ref_inlined": lambda: "$ref" not in node,
        "defs_inlined": lambda: "$defs" not in node,
        "nullable": lambda: node["nullable"] is True,
    }
    return checks[rewrite.kind]()


@pytest.mark.parametrize("provider", list(PROVIDERS))
@pytest.mark.parametrize("label", list(MODELS))
def test_every_claimed_rewrite_is_visible_in_the_transformer_output(label, provider):
    sent = schema_views(MODELS[label]).providers[provider]
    assert {rewrite.kind for rewrite in sent.rewrites} <= NAMED_KINDS
    assert [r for r in sent.rewrites if not _holds(r, sent.schema)] == []


@pytest.mark.parametrize("label", list(MODELS))
def test_provider_schemas_are_exactly_what_the_transformers_return(label):
    model = MODELS[label]
    views = schema_views(model)
    pydantic = model.model_json_schema()
    assert views.pydantic == pydantic
    assert views.providers["openai_strict"].schema == (
        OpenAIJsonSchemaTransformer(pydantic, strict=True).walk()
    )
    assert views.providers["google"].schema == GoogleJsonSchemaTransformer(pydantic).walk()
    if label != "recursive:MenuTool":
        assert views.providers["google_openapi"].schema == (
            GoogleOpenAPISchemaTransformer(pydantic).walk()
        )
    assert diff_schemas(pydantic, copy.deepcopy(pydantic)) == []


def test_discriminated_union_rewrites_for_openai_strict_and_google_live():
    views = schema_views(SCENARIOS["unions"].model)
    strict = [r for r in views.providers["openai_strict"].rewrites if r.kind != "title_dropped"]
    field = "/$defs/MixedInputToolParamsDisc/properties/input_source"
    mapping = (
        "discriminator {'mapping': {'file_data': '#/$defs/FileInput', "
        "'text_data': '#/$defs/TextInput'… removed"
    )
    assert strict == [
        Rewrite(
            "default_dropped", "/$defs/FileInput/properties/kind", "default 'file_data' removed"
        ),
        Rewrite(
            "default_dropped", "/$defs/FileInput/properties/read_mode", "default 'text' removed"
        ),
        Rewrite("required_added", "/$defs/FileInput", "now required: kind, read_mode"),
        Rewrite("additional_properties_closed", "/$defs/FileInput", "(absent) -> false"),
        Rewrite("oneOf_to_anyOf", field, "oneOf became anyOf"),
        Rewrite("discriminator_dropped", field, mapping),
        Rewrite(
            "additional_properties_closed", "/$defs/MixedInputToolParamsDisc", "(absent) -> false"
        ),
        Rewrite(
            "default_dropped", "/$defs/TextInput/properties/kind", "default 'text_data' removed"
        ),
        Rewrite(
            "default_dropped", "/$defs/TextInput/properties/encoding", "default 'utf-8' removed"
        ),
        Rewrite("required_added", "/$defs/TextInput", "now required: kind, encoding"),
        Rewrite("additional_properties_closed", "/$defs/TextInput", "(absent) -> false"),
        Rewrite("additional_properties_closed", "/", "(absent) -> false"),
    ]
    live = [r for r in views.providers["google_openapi"].rewrites if r.kind != "title_dropped"]
    member = "/properties/params/properties/input_source/anyOf"
    assert live == [
        Rewrite(
            "defs_inlined", "/", "$defs removed: FileInput, MixedInputToolParamsDisc, TextInput"
        ),
        Rewrite(
            "ref_inlined",
            "/properties/params",
            "$ref #/$defs/MixedInputToolParamsDisc replaced by its definition",
        ),
        Rewrite(
            "oneOf_to_anyOf", "/properties/params/properties/input_source", "oneOf became anyOf"
        ),
        Rewrite("discriminator_dropped", "/properties/params/properties/input_source", mapping),
        Rewrite("ref_inlined", f"{member}/0", "$ref #/$defs/TextInput replaced by its definition"),
        Rewrite(
            "const_to_enum",
            f"{member}/0/properties/kind",
            "const 'text_data' -> enum ['text_data']",
        ),
        Rewrite("ref_inlined", f"{member}/1", "$ref #/$defs/FileInput replaced by its definition"),
        Rewrite(
            "const_to_enum",
            f"{member}/1/properties/kind",
            "const 'file_data' -> enum ['file_data']",
        ),
    ]


def test_every_pydantic_title_is_reported_dropped_for_google():
    schema = SCENARIOS["unions"].model.model_json_schema()
    titled = sorted(
        f"/$defs/{name}" + (f"/properties/{prop}" if prop else "")
        for name, sub in schema["$defs"].items()
        for prop in ["", *(p for p, s in sub["properties"].items() if "title" in s)]
    )
    titled += ["/", "/properties/name", "/properties/params"]
    reported = [
        r.where
        for r in schema_views(SCENARIOS["unions"].model).providers["google"].rewrites
        if r.kind == "title_dropped"
    ]
    # params is a bare $ref in Pydantic's schema: it never had a title to drop.
    assert sorted(reported) == sorted(w for w in titled if w != "/properties/params")


def test_recursion_is_refused_by_google_live_only():
    views = schema_views(SCENARIOS["recursive"].model)
    message = (
        "UserError: Recursive `$ref`s in JSON Schema are not supported by Gemini: #/$defs/MenuItem"
    )
    live = views.providers["google_openapi"]
    assert (live.schema, live.error, live.rewrites) == (
        None,
        message,
        [Rewrite("refused", "/", message)],
    )
    assert views.providers["openai_strict"].error is None
    assert views.providers["google"].error is None
    assert views.providers["openai_strict"].schema["$defs"]["MenuItem"]["properties"][
        "children"
    ] == {
        "description": "Nested entries.",
        "items": {"$ref": "#/$defs/MenuItem"},
        "type": "array",
    }


def test_openai_strict_closes_a_loose_dict_so_only_an_empty_object_fits():
    rewrites = schema_views(LooseTool).providers["openai_strict"].rewrites
    where = "/$defs/LooseToolParams/properties/extra_config"
    assert [r for r in rewrites if r.where == where and r.kind != "title_dropped"] == [
        Rewrite(
            "additional_properties_closed",
            where,
            "True -> false; no declared properties, so only {} is accepted",
        ),
        Rewrite("properties_added", where, "properties = {}"),
        Rewrite("required_added", where, "required: [] added"),
    ]


def test_min_length_moves_into_the_description_for_openai_strict():
    rewrites = schema_views(SCENARIOS["image_tool"].model).providers["openai_strict"].rewrites
    assert [r for r in rewrites if r.kind.startswith("constraint")] == [
        Rewrite(
            "constraint_to_description",
            "/$defs/WatermarkOperation/properties/text",
            "minLength=1",
        )
    ]


def test_google_drops_exclusive_minimum_without_a_trace():
    rewrites = schema_views(SCENARIOS["image_tool"].model).providers["google"].rewrites
    assert [r.where for r in rewrites if r.kind == "constraint_dropped"] == [
        "/$defs/FilterParameters/properties/radius/anyOf/0",
        "/$defs/ResizeOperation/properties/width/anyOf/0",
        "/$defs/ResizeOperation/properties/height/anyOf/0",
        "/$defs/ResizeOperation/properties/scale_factor/anyOf/0",
        "/$defs/WatermarkOperation/properties/font_size",
    ]


def test_a_model_without_a_json_schema_has_no_provider_schemas():
    views = schema_views(DrawingToolNoHook)
    assert views.pydantic is None
    assert views.error.startswith(
        "PydanticInvalidForJsonSchema: Cannot generate a JsonSchema for "
        "core_schema.IsInstanceSchema"
    )
    assert views.providers == {}
