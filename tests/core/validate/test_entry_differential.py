"""Differential: our LangGraph verdict equals what LangGraph does when the graph really runs."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from core.order import SEED_PAYLOAD, build_order_graph
from core.validate.entry_run import langgraph_entry
from tests.core.validate.test_entry_run import chat_graph

MESSAGES = st.one_of(
    st.fixed_dictionaries(
        {"type": st.sampled_from(["human", "ai", "bogus"]), "content": st.text(max_size=3)}
    ),
    st.fixed_dictionaries(
        {"role": st.sampled_from(["user", "assistant", "x"]), "content": st.text(max_size=3)}
    ),
    st.fixed_dictionaries({"content": st.one_of(st.text(max_size=3), st.integers())}),
    st.text(max_size=3),
    st.integers(),
    st.none(),
)
ANY = st.one_of(
    st.none(), st.integers(-3, 3), st.text(max_size=4), st.lists(st.integers(), max_size=2)
)
ITEM = st.fixed_dictionaries(
    {},
    optional={
        "sku": st.sampled_from(["SKU-01", "bad sku", "", 5]),
        "qty": st.sampled_from([1, 0, "2", 100, None]),
        "unit_price": st.sampled_from([1.5, -1, "x", 0]),
    },
)
SEED = st.fixed_dictionaries(
    {},
    optional={
        "user_id": st.sampled_from([SEED_PAYLOAD["user_id"], "not-a-uuid", 7]),
        "amount": st.sampled_from([99, -1, "42", "x", None]),
        "status": st.sampled_from(["pending", "shipped", 1]),
        "items": st.one_of(st.lists(ITEM, max_size=3), ANY),
        "logs": st.one_of(st.lists(st.text(max_size=3), max_size=2), ANY),
        "messages": st.one_of(st.lists(MESSAGES, max_size=3), ANY),
        "coupon": ANY,
    },
)
CHAT = st.fixed_dictionaries(
    {},
    optional={
        "topic": st.sampled_from(["refunds", "", 3, None]),
        "messages": st.one_of(st.lists(MESSAGES, max_size=3), ANY),
        "docs": st.one_of(st.lists(st.text(max_size=3), max_size=2), ANY),
        "turns": st.sampled_from([0, "1", -2, "x"]),
        "unknown": ANY,
    },
)


def _what_langgraph_does(graph, payload):
    """The real run: which nodes started (stream_mode="tasks" reports each as it starts),
    and what it raised, if anything."""
    started, raised = [], None
    try:
        for event in graph.stream(payload, stream_mode="tasks"):
            if "input" in event:  # a task start, not its result
                started.append(event["name"])
    except Exception as exc:  # noqa: BLE001 - whatever LangGraph raises is the oracle
        raised = exc
    return started, raised


def _check(graph, payload):
    text = json.dumps(payload)
    verdict = langgraph_entry(graph, payload, text)
    started, raised = _what_langgraph_does(graph, payload)
    assert verdict.runs == bool(started), (verdict.error, raised)
    if started:
        assert verdict.first_nodes == started[:1] and verdict.error is None
        return
    assert verdict.error.split(":")[0] == type(raised).__name__
    if isinstance(raised, ValidationError):  # the same errors, each placed in the text
        assert [(e.loc, e.type) for e in verdict.errors] == [
            (tuple(e["loc"]), e["type"]) for e in raised.errors()
        ]
        assert all(e.line is not None for e in verdict.errors)
    else:  # pinned: a row says what LangGraph raised, at the part that raises it
        crashes = [e for e in verdict.errors if e.type == "langgraph_exception"]
        assert type(raised).__name__ in crashes[0].msg


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(SEED)
def test_seed_graph_verdict_is_langgraphs(payload):
    _check(build_order_graph(), payload)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(CHAT)
def test_message_state_verdict_is_langgraphs(payload):
    _check(chat_graph(), payload)
