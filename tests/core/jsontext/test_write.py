"""core.jsontext.write: the one JSON dumper, cut values, numbers as source, counted nouns."""

from core.jsontext.write import dumps, number_literal, plural, to_text, truncate


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


def test_plural_and_number_literal_read_as_a_person_and_python_write_them():
    assert [plural(n, "error") for n in (0, 1, 2)] == ["0 errors", "1 error", "2 errors"]
    assert [number_literal(v) for v in (1_000_000.0, 0.5, 20)] == ["1_000_000", "0.5", "20"]
