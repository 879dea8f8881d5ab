"""Every page's link model: each field refuses a wrong type by name, and the others are kept."""

from __future__ import annotations

from typing import Any

import pytest

from core.links import DroppedField, ShareLink
from core.links.behaviour import BehaviourLink
from core.links.retry import RetryInputs, RetryLink
from core.links.threads import ThreadsLink
from core.links.tools import ToolsLink
from core.links.trace import TraceLink
from core.links.validate import ValidateLink
from core.order.schema_options import SchemaOptions
from core.retry import PRESETS
from core.tools import SCENARIOS

_SCENARIO = next(iter(SCENARIOS))

# Per page: a link whose every field is good, what it is checked against, and for each field
# a value of the wrong type (a bool where a number or text goes, a number where text goes).
LINKS: dict[type[ShareLink], tuple[dict[str, Any], dict[str, Any] | None, dict[str, Any]]] = {
    TraceLink: (
        {
            "payload": "{}",
            "graph": "seed",
            "mode": "native",
            "faults": ["negative_amount"],
            "options": {"amount_le": 10},
            "step": 2,
            "ran": True,
            "run_anyway": True,
            "guard": True,
            "fork": {"row": 1, "state": "{}"},
            "edit": {"row": 0, "state": "{}"},
        },
        {"graphs": {"seed": "Seed"}},
        {
            "payload": 5,
            "graph": 1,
            "mode": True,
            "faults": "negative_amount",
            "options": ["strict"],
            "step": True,
            "ran": 1,
            "run_anyway": "yes",
            "guard": "yes",
            "fork": {"row": True, "state": "{}"},
            "edit": [0, "{}"],
        },
    ),
    ValidateLink: (
        {
            "payload": "{}",
            "options": {"strict": True},
            "model": "project",
            "view": "JSON Schema",
            "editor": "Form",
            "schema_show": True,
            "error": {"table": "entry_errors", "row": 1},
        },
        None,
        {
            "payload": ["{}"],
            "options": {"strict": 1},
            "model": "core.order:AgentState",
            "view": 3,
            "editor": 1,
            "schema_show": "true",
            "error": {"table": "errors", "row": True},
        },
    ),
    RetryLink: (
        {
            "script": "[]",
            "retries": 2,
            "min_citations": 1,
            "confidence_min": 0,
            "confidence_max": 0.5,
            "preset": next(iter(PRESETS)),
            "submitted": {"retries": 1},
        },
        None,
        {
            "script": 7,
            "retries": True,
            "min_citations": 1.0,
            "confidence_min": float("nan"),
            "confidence_max": "1",
            "preset": ["x"],
            "submitted": "{}",
        },
    ),
    ToolsLink: (
        {
            "scenario": _SCENARIO,
            "preset": next(iter(SCENARIOS[_SCENARIO].presets)),
            "schema_model": SCENARIOS[_SCENARIO].model.__name__,
            "schema_tab": "Pydantic",
            "payload": "{}",
        },
        {"tabs": ["Pydantic"]},
        {"scenario": 1, "preset": True, "schema_model": [], "schema_tab": {}, "payload": 2},
    ),
    ThreadsLink: (
        {
            "source": "server",
            "current": "candidate",
            "contains": "order",
            "status": "would not resume",
            "page_size": 50,
            "cursors": ["", "order-25"],
            "thread": "order-31",
            "step": 2,
        },
        None,
        {
            "source": "/tmp/x.sqlite",
            "current": True,
            "contains": 5,
            "status": "fine",
            "page_size": "50",
            "cursors": "order-25",
            "thread": 31,
            "step": -1,
        },
    ),
    BehaviourLink: (
        {"timing": True, "verdicts": ["holds"], "sources": ["A"], "probe": "p"},
        {"articles": ["A"], "shown": ["p"]},
        {"timing": 1, "verdicts": [True], "sources": "A", "probe": 5},
    ),
}
CASES = [(link, name) for link, (_, _, bad) in LINKS.items() for name in bad]


def test_every_field_of_every_link_model_has_a_good_and_a_wrong_value():
    for link, (good, _, bad) in LINKS.items():
        assert set(good) == set(bad) == set(link.model_fields), link.__name__


@pytest.mark.parametrize(
    "good", [good for good, _, _ in LINKS.values()], ids=lambda g: str(list(g))
)
def test_a_good_link_keeps_every_field(good):
    link = next(model for model, (g, _, _) in LINKS.items() if g is good)
    parsed, dropped = link.parse(good, LINKS[link][1])
    assert dropped == []
    assert parsed.model_fields_set == set(good)


@pytest.mark.parametrize(("link", "name"), CASES, ids=[f"{m.__name__}.{n}" for m, n in CASES])
def test_a_wrong_type_drops_that_field_by_name_and_keeps_the_rest(link, name):
    good, context, bad = LINKS[link]
    parsed, dropped = link.parse(good | {name: bad[name]}, context)

    assert [field.name for field in dropped] == [name]
    assert dropped[0].path.split(".")[0] == name and dropped[0].reason
    assert parsed.model_fields_set == set(good) - {name}
    assert getattr(parsed, name) == link.model_fields[name].get_default(call_default_factory=True)
    kept = link.parse(good, context)[0]
    assert {n: getattr(parsed, n) for n in set(good) - {name}} == {
        n: getattr(kept, n) for n in set(good) - {name}
    }


def test_a_nested_link_keeps_its_good_fields_and_names_the_bad_ones_with_their_path():
    parsed, dropped = RetryLink.parse({"retries": 1, "submitted": {"retries": "2", "script": "[]"}})

    assert parsed == RetryLink(retries=1, submitted=RetryInputs(script="[]"))
    assert dropped == [
        DroppedField("submitted.retries", "submitted.retries", "Input should be a valid integer")
    ]


def test_a_trace_link_made_before_the_guard_switch_opens_with_the_guard_off():
    parsed, dropped = TraceLink.parse({"graph": "seed", "step": 1, "run_anyway": True})

    assert (parsed, dropped) == (TraceLink(graph="seed", step=1, run_anyway=True), [])
    assert parsed.guard is False


def test_a_bad_option_is_named_by_its_path_inside_the_options():
    parsed, dropped = TraceLink.parse({"step": 1, "options": {"amount_le": True}})

    assert (parsed.step, parsed.options) == (1, None)
    assert dropped == [
        DroppedField("options", "options.amount_le", "Input should be a valid number")
    ]
    assert SchemaOptions.from_dict({"amount_le": 5}) == SchemaOptions(amount_le=5.0)
