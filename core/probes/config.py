"""Probes of model configuration: does `model_config` reach nested models, v1 `class Config`?"""

from pydantic import BaseModel, ConfigDict, Field

from core.order import SEED_PAYLOAD, AgentState
from core.probes._model import (
    ARTICLE_STATE,
    ARTICLE_TOOLS,
    TOOL_PACKAGES,
    Check,
    Probe,
    describe,
    outcome,
)
from core.warnings_capture import recorded_warnings

__all__ = ["PROBES"]


def probe_model_config_applies_to_nested() -> list[Check]:
    class Note(BaseModel):
        model_config = ConfigDict(str_strip_whitespace=True)
        note: str

    items = [{"sku": " SKU-01 ", "qty": 2, "unit_price": 49.5}]
    nested, exc = outcome(lambda: AgentState.model_validate({**SEED_PAYLOAD, "items": items}))
    _, status_exc = outcome(
        lambda: AgentState.model_validate({**SEED_PAYLOAD, "status": " pending "})
    )
    top_level = Note(note=" x ").note
    sku = describe(exc) if exc else f"sku={nested.items[0].sku!r}"
    status = type(status_exc).__name__ if status_exc else "accepted"
    return [
        Check(
            expected="str_strip_whitespace on AgentState strips LineItem.sku ' SKU-01 '",
            observed=f"{sku}\n(same config, top-level str field: ' x ' -> {top_level!r}; "
            f"Literal status ' pending ' -> {status})",
            matches=nested is not None and nested.items[0].sku == "SKU-01",
        ),
    ]


def probe_v1_config_class_errors() -> list[Check]:
    with recorded_warnings() as caught:

        class V1Style(BaseModel):
            value: int = Field(default=1)

            class Config:  # v1 syntax, as in the article
                extra = "forbid"

    instance, exc = outcome(lambda: V1Style())
    _, extra_exc = outcome(lambda: V1Style(other=1))
    messages = [f"{w.category.__name__}: {w.message}" for w in caught]
    observed = [
        describe(exc) if exc else f"no error: {instance!r}",
        f"warnings: {messages}",
        f"Config.extra='forbid' still applied: {type(extra_exc).__name__ if extra_exc else 'no'}",
    ]
    return [
        Check(
            expected="a v1 `class Config` inside a v2 model raises (should be ConfigDict)",
            observed="\n".join(observed),
            matches=exc is not None,
        ),
    ]


PROBES = (
    Probe(
        id="model_config_applies_to_nested",
        claim="model_config (e.g. str_strip_whitespace) on the state applies to its nested "
        "models (SKU is stripped).",
        source=f"{ARTICLE_STATE} § 5.7 ConfigDict: str_strip_whitespace"
        " ('recommended for ticket numbers and SKUs')",
        run=probe_model_config_applies_to_nested,
    ),
    Probe(
        id="v1_config_class_errors",
        claim="A Pydantic v1 `class Config:` in a v2 model raises an error (use ConfigDict).",
        source=f"{ARTICLE_TOOLS} § Trap 5: v1 -> v2 migration"
        " ('this raises because of ConfigDict')",
        run=probe_v1_config_class_errors,
        packages=TOOL_PACKAGES,
    ),
)
