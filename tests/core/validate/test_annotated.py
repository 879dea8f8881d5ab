"""core.validate.annotated: line numbers, a marker column, a caret under every error."""

from __future__ import annotations

import json

from core.order import AgentState
from core.validate.annotated import annotated_text
from core.validate.report import validate_text


def test_markers_have_their_own_column_and_carets_sit_under_the_value():
    payload = {
        "user_id": "550e8400-e29b-41d4-a716-446655440000",
        "amount": 1,
        "items": [{"sku": "SKU-01", "qty": 2, "unit_price": 49.5}],
        "status": "shipped",
    }
    report = validate_text(json.dumps(payload, indent=2), AgentState)

    assert annotated_text(report).splitlines() == [
        "   1 │ {",
        '   2 │   "user_id": "550e8400-e29b-41d4-a716-446655440000",',
        '   3 │   "amount": 1,',
        '   4 │   "items": [',
        "   5 │     {",
        '   6 │       "sku": "SKU-01",',
        '   7 │       "qty": 2,',
        '   8 │       "unit_price": 49.5',
        "   9 │     }",
        "  10 │   ],",
        '▶ 11 │   "status": "shipped"',
        "     │             ^ literal_error at status: Input should be 'pending', 'validated' "
        "or 'confirmed'",
        "  12 │ }",
    ]


def test_a_repeated_key_is_marked_where_its_dropped_value_is():
    report = validate_text('{\n  "amount": 5,\n  "amount": -1\n}', AgentState)

    assert annotated_text(report).splitlines() == [
        "▶ 1 │ {",
        "    │ ^ missing at user_id: Field required",
        '▶ 2 │   "amount": 5,',
        "    │   ^ repeated key amount: this value is dropped",
        '▶ 3 │   "amount": -1',
        "    │             ^ greater_than_equal at amount: Input should be greater than or "
        "equal to 0",
        "  4 │ }",
    ]


def test_only_newlines_end_a_line_as_line_col_counts_them():
    # U+2028 and U+0085 inside a string, Windows line ends: str.splitlines() broke the text
    # at all of them and marked the amount's error on the wrong line.
    text = '{"user_id": "a\u2028b\u0085c",\r\n "amount": "x"}'
    report = validate_text(text, AgentState)

    assert [(e.type, e.line, e.col) for e in report.errors] == [
        ("uuid_parsing", 1, 13),
        ("float_parsing", 2, 12),
    ]
    assert annotated_text(report).splitlines() == [
        '▶ 1 │ {"user_id": "a␤b␤c",',
        "    │             ^ uuid_parsing at user_id: Input should be a valid UUID, invalid "
        "character: found `␤` at 1",
        '▶ 2 │  "amount": "x"}',
        "    │            ^ float_parsing at amount: Input should be a valid number, unable to "
        "parse string as a number",
    ]


def test_a_final_newline_adds_no_empty_numbered_line():
    text = '{"user_id": "x",\r\n "amount": -1}'
    report = validate_text(text, AgentState)
    assert annotated_text(validate_text(text + "\n", AgentState)) == annotated_text(report)
    assert annotated_text(report).splitlines()[-1].startswith("    │")  # a caret line, last
