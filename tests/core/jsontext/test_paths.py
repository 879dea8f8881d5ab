"""core.jsontext.paths: how an error location is named (path, pointer) and how values are cut."""

import json
import sys

from core.jsontext.paths import PathNames, format_path, format_pointer
from core.order.presets import SEED_TEXT
from core.validate.report import validate_text, validate_value


def test_paths_and_pointers_escape_odd_keys():
    assert format_path(("a b", 0, "c")) == '["a b"][0].c'
    assert format_pointer(("a/b", "~x", 3)) == "/a~1b/~0x/3"
    assert format_path(()) == "(root)"


def test_path_names_memo_gives_the_same_names_and_keeps_each_key_once():
    names = PathNames()
    segments = ("items", 0, "a/b", "x y")
    assert names(segments) == ('items[0]["a/b"]["x y"]', "/items/0/a~1b/x y")
    assert names(("items", 1)) == ("items[1]", "/items/1")
    assert names(()) == ("(root)", "")
    # keys are remembered; an index is written as it comes (each is mostly its own)
    assert sorted(names, key=str) == ["a/b", "items", "x y"]


def _cache_sizes() -> dict[str, int]:
    """Entries in every functools cache of a loaded core module."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if name == "core" or name.startswith("core."):
            for attr, obj in vars(module).items():
                info = getattr(obj, "cache_info", None)
                if callable(info):
                    sizes[f"{name}.{attr}"] = info().currsize
    return sizes


def test_naming_the_paths_of_user_keys_grows_no_process_wide_cache():
    # A process-wide cache is shared by every session: user keys must not stay in one.
    text = '{"amount": 1, "alice-coupon-XYZ": 1, "alice-coupon-XYZ": 2, "items": [{"k y": 1}]}'
    validate_text(SEED_TEXT)  # model-keyed caches (schemas, built models) fill here
    before = _cache_sizes()

    report = validate_text(text)
    named = [d.path for d in report.duplicates] + [e.path for e in report.errors]
    named += [e.path for e in validate_value(json.loads(text)).errors]

    assert '["alice-coupon-XYZ"]' in named
    assert _cache_sizes() == before
