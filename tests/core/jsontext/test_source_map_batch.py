"""SourceMap's batch calls (a report places 2,000 errors at once) answer as the single ones:
walk_all as locate per path, line_col in text order as out of it."""

from core.jsontext.payload import line_col
from core.jsontext.source_map import Located, SourceMap

_TEXT = '{\n  "a": {"b": [1, {"c": 2}]},\n  "items": [\n    {"sku": "x", "sku" : "y"},\n    {"q\\u0074y": 3}\n  ]\n}'
_LOCS = [
    ("a", "b", 1, "c"),
    ("items", 0, "sku"),
    ("items", 1, "qty"),
    ("items", 1, "missing"),
    ("items", 7),
    ("a", "tag", "b", 0),  # a union tag the text lacks
    (),
]


def test_walk_all_gives_what_locate_gives_for_each_path() -> None:
    source = SourceMap(_TEXT)
    walked = source.walk_all(_LOCS)
    assert [Located(*found) for found in walked] == [SourceMap(_TEXT).locate(loc) for loc in _LOCS]
    assert walked == [
        (("a", "b", 1, "c"), _TEXT.index("2}"), True),
        (("items", 0, "sku"), _TEXT.index('"y"'), True),
        (("items", 1, "qty"), _TEXT.index("3}"), True),
        (("items", 1), _TEXT.index('{"q'), False),
        (("items",), _TEXT.index("[\n    {"), False),
        (("a", "b", 0), _TEXT.index("1,"), True),
        ((), 0, False),
    ]


def test_line_col_in_text_order_and_out_of_it_agree_with_one_offset_at_a_time() -> None:
    offsets = [0, 5, 5, 30, 31, len(_TEXT) - 1]
    expected = [line_col(_TEXT, offset) for offset in offsets]
    assert SourceMap(_TEXT).line_col(offsets) == expected  # in order: one pass
    shuffled = [offsets[n] for n in (3, 0, 5, 1, 4, 2)]
    assert SourceMap(_TEXT).line_col(shuffled) == [line_col(_TEXT, o) for o in shuffled]
