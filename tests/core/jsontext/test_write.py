"""core.jsontext.write: the one JSON dumper, cut values, numbers as source."""

from core.jsontext.write import dumps, number_literal, plural, preview, to_text, truncate
from core.words import count


def test_dumps_keeps_unicode_and_uses_default_only_for_what_json_cannot_hold():
    assert (
        dumps({"msg": "订单已校验", "loc": ("items", 0)})
        == '{"msg": "订单已校验", "loc": ["items", 0]}'
    )
    assert dumps({"n": 1}, indent=2) == '{\n  "n": 1\n}'
    assert dumps({"at": {1, 2}}, default=sorted) == '{"at": [1, 2]}'


def test_to_text_is_the_editors_two_space_json():
    assert to_text({"a": [1, "é"]}) == '{\n  "a": [\n    1,\n    "é"\n  ]\n}'


def test_truncate_cuts_long_json_and_survives_circular_values():
    assert truncate({"k": "v"}) == '{"k": "v"}'
    assert truncate("x" * 100, 10) == '"xxxxxxxx…'
    loop: list = []
    loop.append(loop)
    assert truncate(loop) == "[[...]]"


def test_number_literal_writes_a_bound_as_python_source_does():
    assert [number_literal(v) for v in (1_000_000.0, 0.5, 20)] == ["1_000_000", "0.5", "20"]


def test_plural_is_core_words_count_kept_under_its_old_name():
    assert plural is count
    assert [plural(n, "error") for n in (0, 1, 2, 1_500)] == [
        "0 errors",
        "1 error",
        "2 errors",
        "1,500 errors",
    ]


def test_a_preview_names_what_it_cut_in_the_form_its_number_takes():
    assert [
        preview({"a": {"b": "x" * 50}}, 10),
        preview({"a": ["ab"]}, 7),
        preview("é", 1),
        preview(b"\x00" * 20, 8),
        preview({"a": list(range(100_000))}, 12),
    ] == [
        '{"a": {"b"… (an object of 1 key inside)',
        '{"a": [… (a list of 1 item inside)',
        '"… (1 character)',
        '"\\u0000\\… (20 bytes)',
        '{"a": [0, 1,… (a list of 100,000 items inside)',
    ]
