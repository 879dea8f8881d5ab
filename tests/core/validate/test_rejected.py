"""core.validate.entry.rejected_errors: the Validate page's one error table is the union of
Pydantic's verdict and LangGraph's, each error once, saying who rejects it."""

import json
from collections import Counter

import pytest
from pydantic import ValidationError

from core.order import SEED_PAYLOAD, AgentState
from core.order.presets import PRESETS
from core.validate.entry import compare_entry, headline, order_entry_graph, rejected_errors
from core.validate.report import validate_text

GRAPH = order_entry_graph(AgentState)  # the seed order's graph, as the Validate page runs it
PAYLOADS = {
    "negative amount": {**SEED_PAYLOAD, "amount": -1},  # both reject it
    "unknown key": {**SEED_PAYLOAD, "coupon": "X"},  # only your model (LangGraph drops it)
    "both and only yours": {**SEED_PAYLOAD, "user_id": "nope", "amount": -5, "extra1": 1},
    "many": {
        **SEED_PAYLOAD,
        "user_id": "x",
        "amount": -1,
        "items": [{"sku": 1, "qty": "a", "unit_price": "b"}, {"qty": 0}],
        "coupon": 1,
    },
    "valid": SEED_PAYLOAD,
}


def _key(error):
    return (tuple(error["loc"]), error["type"], error["msg"])


def _pydantic(text):
    """Pydantic's own verdict on the text, straight from the library."""
    try:
        AgentState.model_validate_json(text)
    except ValidationError as exc:
        return [_key(e) for e in exc.errors()]
    return []


def _langgraph(payload):
    """LangGraph's own verdict: the real graph streamed until its first node starts."""
    try:
        for event in GRAPH.stream(payload, stream_mode="tasks"):
            if "input" in event:  # the first node starts: LangGraph took the payload
                break
    except ValidationError as exc:
        return [_key(e) for e in exc.errors()]
    return []


def _union(mine, theirs):
    """Each error once: the ones both give "both", the rest named by who gives them."""
    both = Counter(mine) & Counter(theirs)
    rows = Counter({(*k, "both"): n for k, n in both.items()})
    rows += Counter({(*k, "your model"): n for k, n in (Counter(mine) - both).items()})
    rows += Counter({(*k, "LangGraph"): n for k, n in (Counter(theirs) - both).items()})
    return rows


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_rows_are_the_union_of_pydantics_and_langgraphs_verdicts(name):
    payload = PAYLOADS[name]
    text = json.dumps(payload, indent=2)
    report = validate_text(text)
    rows = rejected_errors(report, compare_entry(report, GRAPH))
    got = Counter((r.error.loc, r.error.type, r.error.msg, r.by) for r in rows)
    assert got == _union(_pydantic(text), _langgraph(payload))
    assert all(r.error.line is not None for r in rows)  # every row is located in the text


def test_a_typeless_message_is_two_rows_and_its_field_errors_one_each():
    # Pydantic raises TypeError for the message, add_messages ValueError: not the same error.
    report = validate_text(PRESETS["typeless_message"].value)
    comparison = compare_entry(report, GRAPH)
    rows = rejected_errors(report, comparison)
    assert [(r.error.path, r.error.line, r.error.col, r.error.type, r.by) for r in rows] == [
        ("user_id", 2, 14, "uuid_parsing", "both"),
        ("amount", 3, 13, "greater_than_equal", "both"),
        ("items[0].sku", 6, 14, "string_pattern_mismatch", "both"),
        ("items[0].qty", 7, 14, "greater_than_equal", "both"),
        ("messages[0]", 12, 5, "validator_exception", "your model"),
        ("messages[0]", 12, 5, "langgraph_exception", "LangGraph"),
    ]
    mine, theirs = report.errors, comparison.verdict.errors
    assert [r.error for r in rows if r.by != "LangGraph"] == mine  # your model's, in order
    assert [r.error for r in rows if r.by == "LangGraph"] == [theirs[-1]]


def test_the_headline_counts_the_rows_and_who_rejects_them():
    report = validate_text(PRESETS["typeless_message"].value)
    said = headline(report, compare_entry(report, GRAPH))
    assert (said.level, said.text) == (
        "error",
        "LangGraph raises before the first node runs: the graph would not run. 6 errors, "
        "listed below: 4 that both LangGraph and your model reject, 1 that only LangGraph "
        "rejects, 1 that only your model rejects.",
    )


def test_the_exports_say_who_rejects_each_error():
    report = validate_text(json.dumps(PAYLOADS["both and only yours"]))
    by = [r.by for r in rejected_errors(report, compare_entry(report, GRAPH))]
    assert by == ["both", "both", "your model"]
    assert [(e["loc"], e["rejected_by"]) for e in report.to_errors(by)] == [
        (["user_id"], "both"),
        (["amount"], "both"),
        (["extra1"], "your model"),
    ]
    lines = report.to_csv(by).splitlines()
    assert lines[0] == "rejected_by,path,pointer,type,msg,input,ctx,url,line,col"
    assert [line.split(",")[:2] for line in lines[1:]] == [
        ["both", "user_id"],
        ["both", "amount"],
        ["your model", "extra1"],
    ]
    assert "rejected_by" not in report.to_csv().splitlines()[0]  # without `by`, as before
