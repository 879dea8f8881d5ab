"""core.validate.entry: LangGraph's real entry compared with our gate."""

from core.order.presets import PRESETS
from core.validate.entry import compare_entry
from core.validate.report import validate_text

RAW_AMOUNT = {
    "aspect": "amount in the channels",
    "your model alone": "validated value 99.0",
    "LangGraph": "keeps the raw input 99; nodes see the coerced value, "
    "invoke() returns the raw one",
}
MESSAGES = {
    "aspect": "messages in the channels",
    "LangGraph": "its reducer rewrote the input before validation: "
    '[{"content": "Order, please", "additional_kwargs": {}, "resp',
    "your model alone": 'validates the input as sent: [{"type": "human", "content": "Order, please"}]',
}


def test_unknown_key_is_rejected_even_though_langgraph_drops_it():
    entry = compare_entry(validate_text(PRESETS["unknown_key"].value))
    assert (entry.langgraph_accepted, entry.langgraph_error) == (True, None)
    assert "coupon" not in entry.channels and "coupon" not in entry.node_saw
    assert entry.differences == [
        {
            "aspect": "verdict",
            "your model alone": "rejects (1 error)",
            "LangGraph": "runs the first node",
        },
        {
            "aspect": "unknown key coupon",
            "your model alone": "rejected (extra='forbid')",
            "LangGraph": "silently dropped: the key never reaches a channel",
        },
        RAW_AMOUNT,
        MESSAGES,
    ]


def test_both_reject_a_negative_amount_before_any_node():
    entry = compare_entry(validate_text(PRESETS["negative_amount"].value))
    assert (entry.langgraph_accepted, entry.langgraph_error, entry.node_saw, entry.differences) == (
        False,
        "ValidationError: 1 error: amount (greater_than_equal)",
        None,
        [],
    )


def test_an_unknown_key_is_named_when_langgraph_rejects_the_other_fields():
    text = '{"user_id": "nope", "amount": -5, "extra1": 1}'
    entry = compare_entry(validate_text(text))
    assert (entry.langgraph_accepted, entry.langgraph_error, entry.differences) == (
        False,
        "ValidationError: 2 errors: user_id (uuid_parsing), amount (greater_than_equal)",
        [
            {
                "aspect": "unknown key extra1",
                "your model alone": "rejected (extra='forbid')",
                "LangGraph": "dropped before validation: its errors never name it",
            }
        ],
    )


def test_coerced_strings_stay_raw_in_the_channels():
    entry = compare_entry(validate_text(PRESETS["coerced_strings"].value))
    assert entry.channels["amount"] == "42" and entry.node_saw["amount"] == 42.0
    assert [row["aspect"] for row in entry.differences] == [
        "amount in the channels",
        "items in the channels",
        "messages in the channels",
    ]


def test_langgraphs_error_names_five_fields_with_their_rules_and_counts_the_rest():
    text = (
        '{"user_id": "x", "amount": -1, '
        '"items": [{"sku": 1, "qty": "a", "unit_price": "b"}, {"qty": 0}]}'
    )
    assert compare_entry(validate_text(text)).langgraph_error == (
        "ValidationError: 8 errors: user_id (uuid_parsing), amount (greater_than_equal), "
        "items[0].sku (string_type), items[0].qty (int_parsing), items[0].unit_price "
        "(float_parsing), 3 more"
    )
