"""core.order.schema_options: the model built from options behaves exactly like its shown source."""

import json

import pytest

from core.order import AgentState
from core.order.presets import PRESETS
from core.order.schema_options import SchemaOptions, build_model, model_source
from core.validate.report import validate_text


def _schema(model):
    return json.dumps(model.model_json_schema(), sort_keys=True)


def _exec_source(options):
    namespace: dict = {}
    exec(compile(model_source(options), "<model_source>", "exec"), namespace)
    return namespace["AgentState"]


@pytest.mark.parametrize(
    "options",
    [
        SchemaOptions(),
        SchemaOptions(strict=True, extra="ignore", strip_item=True, items_max=10_000),
        SchemaOptions(extra="allow", strip_state=False, amount_ge=1.5, amount_le=500.25),
    ],
    ids=["seed", "strict-ignore-strip-items", "allow-bounds"],
)
def test_shown_source_builds_the_same_model(options):
    assert _schema(_exec_source(options)) == _schema(build_model(options))


def test_default_options_are_the_seed_model_itself():
    assert build_model(SchemaOptions()) is AgentState


def test_options_change_what_is_rejected():
    def types(name, options):
        return [e.type for e in validate_text(PRESETS[name].value, build_model(options)).errors]

    assert types("coerced_strings", SchemaOptions(strict=True)) == [
        "float_type",
        "int_type",
        "float_type",
    ]
    assert types("padded_sku", SchemaOptions(strip_item=True)) == []
    assert types("unknown_key", SchemaOptions(extra="ignore")) == []
    assert types("too_many_items", SchemaOptions(items_max=21)) == []
    assert types("negative_amount", SchemaOptions(amount_ge=-5)) == []


@pytest.mark.parametrize(
    "data",
    [
        {"extra": "sometimes"},
        {"items_max": -1},
        {"strict": "yes"},
        {"items_max": True},
        {"amount_le": True},
        {"amount_ge": 10, "amount_le": 1},
        ["strict"],
        "strict",
    ],
    ids=[
        "extra",
        "negative-max",
        "string-bool",
        "bool-int",
        "bool-float",
        "crossed-bounds",
        "a-list",
        "a-string",
    ],
)
def test_hostile_option_dicts_are_refused_with_a_code(data):
    with pytest.raises(ValueError, match=r"\[bad_option\]"):
        SchemaOptions.from_dict(data)


@pytest.mark.parametrize(
    "data",
    [{"amount_ge": float("nan")}, {"amount_le": float("inf")}, {"amount_ge": 10**400}],
    ids=["nan", "infinity", "overflow"],
)
def test_non_finite_or_huge_bounds_are_refused(data):
    with pytest.raises(ValueError, match=r"\[bad_option\]"):
        SchemaOptions.from_dict(data)


def _channels(model):
    """LangGraph's view of a state model: each field's channel type (reducers included)."""
    from langgraph.graph import StateGraph

    channels = StateGraph(model).channels
    return {
        name: (type(ch).__name__, getattr(ch, "operator", None)) for name, ch in channels.items()
    }


def test_the_variant_for_the_seed_options_is_the_seed_model_field_for_field():
    # _build derives the variant from models.py; built for the default options it must read
    # exactly like the class itself, for Pydantic and for LangGraph (reducers included).
    from core.order.schema_options import _build

    variant = _build(SchemaOptions())
    assert variant is not AgentState
    assert (_schema(variant), _channels(variant)) == (_schema(AgentState), _channels(AgentState))
    assert _channels(_exec_source(SchemaOptions())) == _channels(AgentState)


def test_the_shown_source_is_the_class_as_models_py_writes_it():
    import inspect

    from core.order import models

    written = inspect.getsource(models)
    shown = model_source(SchemaOptions())
    for name in ("LineItem", "AgentState"):
        body = shown.split(f"class {name}(BaseModel):", 1)[1].split("\n\n\nclass ", 1)[0]
        fields = [line for line in body.splitlines() if line.startswith("    ") and ":" in line]
        fields = [line for line in fields if "model_config" not in line]
        assert all(line in written for line in fields), name
        assert len(fields) == len(getattr(models, name).model_fields)
