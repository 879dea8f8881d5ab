"""core.jsontext.payload: every limit is a PayloadError with a code, a position and a fix."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from core.jsontext.payload import (
    MAX_DEPTH,
    MAX_NUMBER_DIGITS,
    MAX_PAYLOAD_BYTES,
    PayloadError,
    parse,
)
from core.validate.report import validate_text


def _error(text):
    with pytest.raises(PayloadError) as caught:
        parse(text)
    return caught.value.code, caught.value.line, caught.value.col


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", ("empty", 1, 1)),
        ("  \n ", ("empty", 1, 1)),
        ('{\n  "a": 1,\n}', ("json_syntax", 2, 9)),  # the comma, not the } json.loads names
        ("[1, 2, \n\t]", ("json_syntax", 1, 6)),
        ("{'a': 1}", ("json_syntax", 1, 2)),
        ('{"a": 1,\n  , "b": 2}', ("json_syntax", 2, 3)),  # the second comma
        ('{"a": 1} x', ("json_syntax", 1, 10)),
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), ("too_deep", 1, MAX_DEPTH + 1)),
        ('{"n":\n 1' + "0" * 5000 + "}", ("number_too_long", 2, 2)),
        ('{"s": "\\ud800"}', ("lone_surrogate", 1, 8)),
        ('{"s": "ok\\udc00"}', ("lone_surrogate", 1, 10)),
        ('{"s": "\ud800"}', ("lone_surrogate", 1, 8)),
    ],
    ids=[
        "empty",
        "blank",
        "trailing-comma",
        "trailing-comma-in-array",
        "single-quotes",
        "doubled-comma",
        "extra-data",
        "too-deep",
        "5000-digit-int",
        "lone-high",
        "lone-low",
        "raw-surrogate",
    ],
)
def test_each_limit_is_an_error_with_its_position(text, expected):
    assert _error(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '{"amount": 5,',
            "Invalid JSON: Expecting property name enclosed in double quotes — the text ends "
            "before the JSON does: complete it or close the open { and [.",
        ),
        (
            '{"items": [1, \n',
            "Invalid JSON: Expecting value — the text ends before the JSON does: complete it or "
            "close the open { and [.",
        ),
        (
            '{"amount": 5,}',
            "Invalid JSON: a comma after the object's last member — JSON allows none before }; "
            "remove this comma.",
        ),
        (
            '{"logs": ["a",]}',
            "Invalid JSON: a comma after the array's last item — JSON allows none before ]; "
            "remove this comma.",
        ),
        (
            '{"amount": 5 "status": "pending"}',
            "Invalid JSON: Expecting ',' delimiter — a comma is missing before this point (or a "
            "number starts with 0, like 01).",
        ),
        (
            '{"amount" 5}',
            "Invalid JSON: Expecting ':' delimiter — a colon is missing between a key and its "
            "value.",
        ),
        (
            '{"amount": 99,, "status": "pending"}',
            "Invalid JSON: two commas in a row — remove this one.",
        ),
        ("[1, , 2]", "Invalid JSON: two commas in a row — remove this one."),
        (
            '{"status": shipped}',
            "Invalid JSON: Expecting value — no JSON value starts here: one is missing, or a "
            "string lacks its double quotes, or a comma trails the last item.",
        ),
        ('{, "amount": 5}', "Invalid JSON: a comma before the first member — remove this comma."),
        ("[\n  ,1]", "Invalid JSON: a comma before the first item — remove this comma."),
        (
            '\ufeff{"amount": 5}',
            "Invalid JSON: the text starts with an invisible byte-order mark (U+FEFF) — delete "
            "the first character, or save the file as UTF-8 without BOM.",
        ),
    ],
    ids=[
        "ends-after-comma",
        "ends-in-a-list",
        "trailing-comma",
        "trailing-comma-in-array",
        "comma",
        "colon",
        "doubled-comma",
        "doubled-comma-in-array",
        "unquoted-string",
        "comma-first-in-object",
        "comma-first-in-array",
        "bom",
    ],
)
def test_syntax_messages_say_what_to_fix(text, message):
    with pytest.raises(PayloadError) as caught:
        parse(text)
    assert caught.value.message == message


def test_oversized_payload_is_refused_with_the_limit_in_the_message():
    with pytest.raises(PayloadError) as caught:
        parse('{"s": "' + "x" * MAX_PAYLOAD_BYTES + '"}')
    error = caught.value
    assert (error.code, error.line, error.col, error.message) == (
        "too_large",
        1,
        1,
        "The payload is 2,000,009 bytes; the limit is 2,000,000. "
        "Remove items or shorten long strings.",
    )


def test_values_within_limits_parse_including_nan_pairs_and_digits_in_strings():
    text = '{"n": NaN, "e": "\\ud83d\\ude00", "b": "\\\\ud800", "s": "' + "9" * 5000 + '"}'
    value = parse(text)
    assert value["e"] == "😀" and value["b"] == "\\ud800" and value["n"] != value["n"]
    assert parse('{"big": 1e400}') == {"big": float("inf")}


class _Number(BaseModel):
    n: float


@pytest.mark.parametrize(
    ("number", "refused"),
    [
        ("9" * MAX_NUMBER_DIGITS, False),
        ("9" * (MAX_NUMBER_DIGITS + 1), True),
        ("-" + "9" * (MAX_NUMBER_DIGITS + 1), True),
        ("1." + "9" * 5000, False),  # a fraction of any length is a float to both parsers
        ("1e" + "9" * 5000, False),
        ("1E-" + "9" * 5000, False),
    ],
    ids=["int-at-limit", "int-over", "negative-over", "long-fraction", "long-exponent", "neg-exp"],
)
def test_the_number_limit_is_where_pydantic_stops_so_both_paths_agree(number, refused):
    text = '{"n":\n ' + number + "}"
    report = validate_text(text, _Number)  # Pydantic's own parser first, ours on its error
    try:
        parse(text)
        ours = None
    except PayloadError as exc:
        ours = (exc.code, exc.line, exc.col)

    seen = report.syntax_error
    assert ((seen.code, seen.line, seen.col) if seen else None) == ours
    assert ours == (("number_too_long", 2, 2) if refused else None)


@pytest.mark.parametrize(
    "text",
    [
        '{"user_id": "x", "amount": "\\ud800"}',  # an escape: Pydantic says json_invalid
        '{"user_id": "x", "amount": "\ud800"}',  # the raw character: Pydantic's string_unicode
    ],
    ids=["escaped", "raw"],
)
def test_a_lone_surrogate_is_unreadable_text_on_both_paths_never_a_field_error(text):
    report = validate_text(text)

    assert report.errors == []
    error = report.syntax_error
    assert (error.code, error.line, error.col) == _error(text) == ("lone_surrogate", 1, 29)


@pytest.mark.parametrize(
    ("number", "message"),
    [
        ("-" + "9" * 5000, "An integer has 5,000 digits"),
        ("9" * 5000 + ".5", "The integer part of a number has 5,000 digits"),
        ("9" * 5000 + "E2", "The integer part of a number has 5,000 digits"),
    ],
    ids=["integer", "fraction", "exponent"],
)
def test_the_number_limit_message_says_which_digits_it_counts(number, message):
    with pytest.raises(PayloadError) as caught:
        parse(f"[{number}]")
    assert caught.value.message == (
        f"{message}; the limit is 4,300. Shorten it or send it as a string."
    )


def test_brackets_inside_strings_do_not_count_toward_depth():
    text = json.dumps({"s": "[" * 500})
    assert parse(text) == {"s": "[" * 500}


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\\\ ,:ab\n\u00e9'),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(alphabet='[]{}"\\\\a'), inner, max_size=4)
    ),
    max_leaves=40,
)


def _depth(value: object) -> int:
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    return 0


@given(_JSON_VALUES, st.booleans(), st.sampled_from([None, 1]))
def test_the_fast_depth_count_agrees_with_the_value_whatever_its_strings_hold(
    value, ascii_only, indent
):
    from core.jsontext.payload import _deepest

    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert _deepest(text) == _depth(value)
