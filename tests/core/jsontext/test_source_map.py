"""core.jsontext.source_map: where a JSON path sits in the text, lazily or in one token pass."""

import json

from core.jsontext.source_map import SourceMap


def test_source_map_skips_union_tags_and_points_at_values():
    text = '{"items": [{"sku": "x"}, 7, {"a" : [1, 2]}]}'
    source = SourceMap(text)
    assert source.locate(("items", 2, "a", 1)) == (("items", 2, "a", 1), text.index("2]"), True)
    assert source.locate(("items", 0, "model", "sku")) == (
        ("items", 0, "sku"),
        text.index('"x"'),
        True,
    )
    assert source.locate(("nope",)) == ((), 0, False)
    assert source.locate(("items", 0, "model")) == (("items", 0), text.index('{"sku"'), False)


def test_a_key_missing_under_a_parent_of_the_same_name_is_not_found():
    text = '{"message": {"level": 1}}'
    assert SourceMap(text).locate(("message", "message")) == (("message",), 12, False)


def test_flat_objects_find_keys_written_plainly_escaped_or_twice():
    text = (
        '[{"sku" : 3, "sku": 4, "note": "\\"sku\\": 1", "k\\"sku": 2},'
        ' {"\\u0073ku": 5}, {"x": "sku"}, {"a\\\\": "sku", "b": 6}]'
    )
    for eager in (False, True):
        source = SourceMap(text)
        if eager:
            source.index_all()
        assert [source.locate((n, key)) for n, key in enumerate(("sku", "sku", "sku", "b"))] == [
            ((0, "sku"), text.index("4, "), True),
            ((1, "sku"), text.index("5}"), True),
            ((2,), text.index('{"x"'), False),
            ((3, "b"), text.index("6}"), True),
        ]


def test_a_keys_offset_is_its_opening_quote_however_the_key_is_escaped():
    text = '{"a": 1, "b\\\\" :\n {"c\\"d": [2], "\\\\\\"e": 3}}'
    assert json.loads(text) == {"a": 1, "b\\": {'c"d': [2], '\\"e': 3}}
    for eager in (False, True):
        source = SourceMap(text)
        if eager:
            source.index_all()
        assert [
            source.key_offset(source.locate(path).offset)
            for path in [("a",), ("b\\",), ("b\\", 'c"d'), ("b\\", '\\"e')]
        ] == [1, 9, text.index('"c'), text.index('"\\\\\\"e')]
