"""core.order.presets: one contract test over every preset in the gallery."""

import json

import pytest

from core.order import LineItem, build_order_graph
from core.order.presets import PRESETS
from core.validate.entry_run import langgraph_entry
from core.validate.report import validate_text


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_produces_exactly_its_expected_error_types(name):
    report = validate_text(PRESETS[name].value)
    assert report.syntax_error is None
    assert tuple(error.type for error in report.errors) == PRESETS[name].expect


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_gets_langgraphs_own_verdict(name):
    """The verdict the page shows first is what the seed graph really does with the preset."""
    payload = json.loads(PRESETS[name].value)
    verdict = langgraph_entry(build_order_graph(), payload, PRESETS[name].value)
    started, raised = [], None
    try:
        for event in build_order_graph().stream(payload, stream_mode="tasks"):
            started += [event["name"]] if "input" in event else []
    except Exception as exc:  # noqa: BLE001 - whatever LangGraph raises is the oracle
        raised = exc
    assert (verdict.runs, verdict.first_nodes) == (bool(started), started[:1])
    assert (verdict.error or "").split(":")[0] == (type(raised).__name__ if raised else "")


def test_every_gallery_uses_the_one_preset_shape():
    # Order payloads, retry scripts and a model's generated examples: one class, one set of
    # fields, so a picker renders any of them the same way.
    from dataclasses import fields

    from core.order.presets import Preset
    from core.retry import PRESETS as RETRY_PRESETS
    from core.validate.examples import model_examples

    galleries = {
        "order": PRESETS,
        "retry": RETRY_PRESETS,
        "examples": model_examples(LineItem),
    }
    assert {
        name: {type(preset) for preset in gallery.values()} for name, gallery in galleries.items()
    } == {name: {Preset} for name in galleries}
    assert [f.name for f in fields(Preset)] == ["title", "summary", "value", "expect", "options"]
    assert {name: p.options for name, p in RETRY_PRESETS.items()} == {
        name: {"retries": 2 if name == "two_retries" else 1} for name in RETRY_PRESETS
    }
