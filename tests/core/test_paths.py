"""core.paths: how an error location is named (path, pointer) and how values are cut."""

from core.paths import PathNames, format_path, format_pointer, truncate


def test_paths_and_pointers_escape_odd_keys():
    assert format_path(("a b", 0, "c")) == '["a b"][0].c'
    assert format_pointer(("a/b", "~x", 3)) == "/a~1b/~0x/3"
    assert format_path(()) == "(root)"


def test_path_names_memo_gives_the_same_names_and_keeps_each_segment_once():
    names = PathNames()
    segments = ("items", 0, "a/b", "x y")
    assert names(segments) == ('items[0]["a/b"]["x y"]', "/items/0/a~1b/x y")
    assert names(("items", 1)) == ("items[1]", "/items/1")
    assert names(()) == ("(root)", "")
    assert sorted(names, key=str) == [0, 1, "a/b", "items", "x y"]


def test_truncate_cuts_long_json_and_survives_circular_values():
    assert truncate({"k": "v"}) == '{"k": "v"}'
    assert truncate("x" * 100, 10) == '"xxxxxxxx…'
    loop: list = []
    loop.append(loop)
    assert truncate(loop) == "[[...]]"
