"""core.source_map: where a JSON path sits in the text, lazily or in one token pass."""

from core.source_map import SourceMap


def test_source_map_skips_union_tags_and_points_at_values():
    text = '{"items": [{"sku": "x"}, 7, {"a" : [1, 2]}]}'
    source = SourceMap(text)
    assert source.locate(("items", 2, "a", 1)) == (("items", 2, "a", 1), text.index("2]"))
    assert source.locate(("items", 0, "model", "sku")) == (("items", 0, "sku"), text.index('"x"'))
    assert source.locate(("nope",)) == ((), 0)


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
            ((0, "sku"), text.index("4, ")),
            ((1, "sku"), text.index("5}")),
            ((2,), text.index('{"x"')),
            ((3, "b"), text.index("6}")),
        ]
