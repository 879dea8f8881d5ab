"""core.jsontext.source_map on random payloads: every path it finds starts the value Python's
own json reads there, however the text is spaced, and paths the text lacks stop where it does."""

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core.jsontext.source_map import SourceMap

_KEYS = st.text(alphabet=st.sampled_from('ab"\\/~:{} \n\u00e9'), min_size=0, max_size=4)
_SCALARS = st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | _KEYS
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=20,
)
# Spacings json.dumps can write: compact, its default, and colons a regex must read.
_SEPARATORS = st.sampled_from([(",", ":"), (", ", ": "), (",", " : "), (",", ":  "), (",", ":\n")])


def _paths(value: Any, prefix: tuple[str | int, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = [(prefix, value)]
    if isinstance(value, dict | list):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            out += _paths(item, (*prefix, key))
    return out


@settings(max_examples=300, deadline=None)
@given(
    value=_VALUES,
    separators=_SEPARATORS,
    indent=st.sampled_from([None, 0, 2]),
    ascii_only=st.booleans(),
)
def test_every_path_locates_the_value_json_reads_there(
    value: Any, separators: tuple[str, str], indent: int | None, ascii_only: bool
) -> None:
    text = json.dumps(value, separators=separators, indent=indent, ensure_ascii=ascii_only)
    source = SourceMap(text)
    decoder = json.JSONDecoder()
    paths = _paths(value)
    # Every path first: a missing key makes its flat object tokenized, which every later
    # lookup in that object would then use instead of the substring search.
    located = [source.locate(path) for path, _ in paths]
    assert [found for found, _, _ in located] == [path for path, _ in paths]
    for (path, expected), (_, offset, _) in zip(paths, located, strict=True):
        assert decoder.raw_decode(text, offset)[0] == expected
        # A segment the text lacks (a union tag, a missing key, an index past the end) is
        # skipped: the walk stays on the value it reached.
        for extra in ("no such key", 99, True):
            assert SourceMap(text).locate((*path, extra)) == (path, offset, False)
