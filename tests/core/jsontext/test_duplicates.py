"""Repeated keys: found in every object, located by line:col, and what Pydantic keeps."""

import json

from hypothesis import given
from hypothesis import strategies as st

from core.jsontext.duplicates import DuplicateKey, duplicate_keys
from core.jsontext.paths import format_path
from core.order import SEED_PAYLOAD
from core.validate.report import validate_text

NESTED = """{
  "a": 1,
  "items": [
    {"sku": "x", "q": 1},
    {"sku": "y", "sku": "z", "n": {"k": 1, "k": [1, {"m": 1, "m": 2}]}}
  ],
  "a": 2,
  "\\u0061": 3,
  "s": "\\"a\\": 1"
}"""


def test_every_object_is_checked_and_each_repeat_is_located_in_text_order():
    assert duplicate_keys(NESTED) == [
        DuplicateKey("a", ((2, 3), (7, 3), (8, 3)), 3),  # an escaped spelling is the same key
        DuplicateKey("items[1].sku", ((5, 6), (5, 18)), 2),
        DuplicateKey("items[1].n.k", ((5, 36), (5, 44)), 2),
        DuplicateKey("items[1].n.k[1].m", ((5, 54), (5, 62)), 2),
    ]
    assert duplicate_keys(NESTED)[1].describe() == "items[1].sku  at 5:6, 5:18"


def test_text_without_repeats_or_that_is_not_json_has_none():
    assert duplicate_keys(json.dumps(SEED_PAYLOAD)) == []
    assert duplicate_keys('{"a": 1, "b": {"a": 2}}') == []  # the same key in another object
    assert duplicate_keys('{"a": 1, "a": ') == []  # a syntax error, reported elsewhere
    assert duplicate_keys("[1, 2]") == []


def test_pydantic_validates_the_last_value_and_the_report_names_the_repeat():
    # The page's warning says only the last value is validated: observed here, on the
    # installed Pydantic, through the same validate_text the page uses.
    text = json.dumps(SEED_PAYLOAD, indent=2)[:-2] + ',\n  "amount": -5\n}'
    report = validate_text(text)
    assert [(e.path, e.input, e.line, e.col) for e in report.errors] == [("amount", -5, 17, 13)]
    assert report.duplicates == [DuplicateKey("amount", ((3, 3), (17, 3)), 2)]
    last = json.dumps(SEED_PAYLOAD)[:-1] + ', "amount": 5}'
    assert validate_text(last).value.amount == 5
    assert validate_text('{"amount": 1, "amount": ').duplicates == []


@given(st.dictionaries(st.text(max_size=5), st.integers(), min_size=1), st.data())
def test_a_key_written_twice_is_always_found(members, data):
    key = data.draw(st.sampled_from(sorted(members)))
    text = json.dumps(members)[:-1] + f", {json.dumps(key)}: 0}}"
    assert [d.path for d in duplicate_keys(text)] == [format_path((key,))]


def test_a_key_written_thousands_of_times_keeps_its_first_and_last_positions_only():
    text = "{" + ",".join(['"a":1'] * 5000) + "}"  # 6 characters a member
    (repeated,) = duplicate_keys(text)
    assert repeated == DuplicateKey(
        "a", tuple((1, 2 + 6 * n) for n in range(9)) + ((1, 2 + 6 * 4999),), 5000
    )
    assert repeated.describe() == (
        "a  at 1:2, 1:8, 1:14, 1:20, 1:26, 1:32, 1:38, 1:44, 1:50, … (5,000 in all), 1:29996"
    )
