"""reindent: the layout of json.dumps(indent=2), every token exactly as the user wrote it."""

import json

from hypothesis import given
from hypothesis import strategies as st

from core.jsontext.json_format import reindent

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: st.lists(children) | st.dictionaries(st.text(), children),
    max_leaves=25,
)


@given(JSON_VALUES, st.sampled_from([(",", ":"), (", ", ": ")]))
def test_the_layout_is_json_dumps_indent_2(value, separators):
    compact = json.dumps(value, separators=separators)
    assert reindent(compact) == json.dumps(value, indent=2)
    assert reindent(json.dumps(value, indent=4)) == json.dumps(value, indent=2)


def test_numbers_escapes_and_repeated_keys_stay_as_written():
    text = (
        '{"user_id":"550e8400-e29b-41d4-a716-446655440000","amount":1e400,'
        '"amount":12.345678901234567890123,"note":"\\u4e0b\\n","items":[ ],"x":-0.0}'
    )
    assert reindent(text).splitlines() == [
        "{",
        '  "user_id": "550e8400-e29b-41d4-a716-446655440000",',
        '  "amount": 1e400,',
        '  "amount": 12.345678901234567890123,',
        '  "note": "\\u4e0b\\n",',
        '  "items": [],',
        '  "x": -0.0',
        "}",
    ]
