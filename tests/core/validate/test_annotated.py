"""core.validate.annotated: line numbers, a marker column, a caret under every error."""

from __future__ import annotations

import json

from core.order import AgentState
from core.validate.annotated import ANNOTATED_WIDTH, MAX_NOTE_CHARS, annotated_text
from core.validate.field_errors import FieldError
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
        "character: found",
        "    │               `␤` at 1",
        '▶ 2 │  "amount": "x"}',
        "    │            ^ float_parsing at amount: Input should be a valid number, unable to "
        "parse string",
        "    │              as a number",
    ]


def test_a_final_newline_adds_no_empty_numbered_line():
    text = '{"user_id": "x",\r\n "amount": -1}'
    report = validate_text(text, AgentState)
    assert annotated_text(validate_text(text + "\n", AgentState)) == annotated_text(report)
    assert annotated_text(report).splitlines()[-1].startswith("    │")  # a caret line, last


def test_a_long_line_goes_on_in_pieces_with_each_caret_under_its_own_piece():
    # #32 item 8: a line wider than the page was drawn on one line, read by scrolling
    # sideways; wrapped by the browser, its carets would sit under the wrong characters.
    text = json.dumps(
        {
            "user_id": "550e8400-e29b-41d4-a716-446655440000",
            "logs": ["note " * 20],
            "amount": -1,
            "status": "shipped",
        }
    )
    lines = annotated_text(validate_text(text, AgentState)).splitlines()

    assert lines == [
        '▶ 1 │ {"user_id": "550e8400-e29b-41d4-a716-446655440000", "logs": ["note note note note '
        "note note no",
        '    ┆ te note note note note note note note note note note note note note "], '
        '"amount": -1, "status"',
        "    │ " + " " * 82 + "^",  # too far in for its note: the note goes on below
        "    │ " + " " * 54 + "greater_than_equal at amount: Input",
        "    │ " + " " * 54 + "should be greater than or equal to 0",
        '    ┆ : "shipped"}',
        "    │   ^ literal_error at status: Input should be 'pending', 'validated' or 'confirmed'",
    ]
    assert lines[1][6 + 82 : 6 + 84] == "-1"  # the caret is under the amount's value
    assert max(len(line) for line in lines) == ANNOTATED_WIDTH


def test_a_line_longer_than_its_shown_part_is_cut_and_a_caret_past_the_cut_points_at_it():
    text = json.dumps(
        {"user_id": "550e8400-e29b-41d4-a716-446655440000", "logs": ["x" * 300], "amount": -1}
    )

    assert annotated_text(validate_text(text, AgentState)).splitlines() == [
        '▶ 1 │ {"user_id": "550e8400-e29b-41d4-a716-446655440000", "logs": ["' + "x" * 32,
        "    ┆ " + "x" * 94,
        "    ┆ " + "x" * 94,
        "    ┆ " + "x" * 18,
        "    ┆ … 79 more characters",
        "    │ ^ greater_than_equal at amount: Input should be greater than or equal to 0",
    ]


def test_one_character_past_the_shown_part_is_named_in_the_singular():
    text = json.dumps({"logs": ["x" * 287]})  # MAX_LINE_CHARS + 1 characters

    assert annotated_text(validate_text(text, AgentState)).splitlines() == [
        '▶ 1 │ {"logs": ["' + "x" * 83,
        "    │ ^ missing at user_id: Field required",
        "    │ ^ missing at amount: Field required",
        "    ┆ " + "x" * 94,
        "    ┆ " + "x" * 94,
        "    ┆ " + "x" * 16 + '"]',
        "    ┆ … 1 more character",
    ]


def test_a_note_cut_to_its_limit_ends_with_an_ellipsis():
    report = validate_text('{"amount": 5}', AgentState)
    message = "see the docs " * 30  # 390 characters, words a browser may wrap at
    report.errors = [
        FieldError(("amount",), "amount", "/amount", "custom", message, 5, line=1, col=12)
    ]
    *_, caret = annotated_text(report).split("│ ", 2)  # the text after the caret's bar
    note = " ".join(line.split("│", 1)[-1].strip() for line in caret.splitlines())
    # MAX_NOTE_CHARS characters, the last of them the ellipsis that says the rest is cut
    assert note == "^ custom at amount: " + "see the docs " * 13 + "see the docs…"
    assert len(note) == len("^ ") + MAX_NOTE_CHARS
