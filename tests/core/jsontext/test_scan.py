"""core.jsontext.scan: the one tokenizer, checked against json.loads on random JSON texts.

Every consumer (source map, duplicate keys, depth, long numbers, reindent, the retry lab's
script checks) reads these tokens, so each property here compares one consumer with what
`json.loads` itself reads from the same text.
"""

import json

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from core.jsontext.duplicates import duplicate_keys
from core.jsontext.json_format import reindent
from core.jsontext.paths import format_path
from core.jsontext.payload import MAX_DEPTH, PayloadError, check_limits
from core.jsontext.scan import FLAT, KEY, STRING, VALUE, key_text, token_texts, tokens
from core.jsontext.source_map import SourceMap

FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEYS = st.text(max_size=6) | st.sampled_from(["a", "a", 'q"uote', "back\\slash", "ü", "[]{},:"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
# Objects as lists of pairs, so a key may repeat (json.dumps could never write that).
TREES = st.recursive(
    SCALARS,
    lambda children: (
        st.lists(children, max_size=4).map(lambda items: ("list", items))
        | st.lists(st.tuples(KEYS, children), max_size=4).map(lambda pairs: ("object", pairs))
    ),
    max_leaves=25,
)
LAYOUTS = st.sampled_from([(",", ":"), (", ", ": "), (" ,\n", " :\t"), ("\r\n,", ":  ")])


def _write(tree, layout, ascii_only):
    """JSON text of a tree, separators and escaping chosen by the test."""
    comma, colon = layout
    if isinstance(tree, tuple) and tree[0] == "list":
        return "[" + comma.join(_write(item, layout, ascii_only) for item in tree[1]) + "]"
    if isinstance(tree, tuple):
        return (
            "{"
            + comma.join(
                json.dumps(key, ensure_ascii=ascii_only) + colon + _write(value, layout, ascii_only)
                for key, value in tree[1]
            )
            + "}"
        )
    return json.dumps(tree, ensure_ascii=ascii_only)


def _build(text):
    """The value the tokens describe, read by a parser of their own (no json.loads)."""
    stack: list[list] = [[None, []]]  # [container or None, pending key/values]
    for token in tokens(text, values=True):
        kind = token.lastgroup
        if kind == KEY:
            stack[-1][1].append(key_text(token))
            continue
        if kind == STRING:
            value = key_text(token)
        elif kind == VALUE:
            value = {"true": True, "false": False, "null": None}.get(token.group(), token.group())
            if isinstance(value, str):
                value = float(value) if any(c in value for c in ".eE") else int(value)
        else:
            char = text[token.start()]
            if char in "{[":
                stack.append([char, []])
                continue
            if char == ",":
                continue
            opener, items = stack.pop()
            value = dict(zip(items[::2], items[1::2], strict=True)) if opener == "{" else items
        stack[-1][1].append(value)
    return stack[0][1][0]


def _paths(value, prefix=()):
    yield prefix, value
    children = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in children:
        yield from _paths(child, (*prefix, key))


def _expected_duplicates(tree, prefix=()):
    """(path, count) of every repeated key, in the text order of its first occurrence."""
    if not isinstance(tree, tuple):
        return []
    found = []
    if tree[0] == "list":
        for index, item in enumerate(tree[1]):
            found += _expected_duplicates(item, (*prefix, index))
        return found
    keys = [key for key, _ in tree[1]]
    reported = set()
    for key, value in tree[1]:  # every occurrence's value is text the user wrote
        if keys.count(key) > 1 and key not in reported:
            reported.add(key)
            found.append((format_path((*prefix, key)), keys.count(key)))
        found += _expected_duplicates(value, (*prefix, key))
    return found


def _read_all(text: str):
    """What json.loads reads, a repeated key's earlier values too (it keeps only the last:
    the depth limit counts what is parsed, so a dropped value nests as deep as it is)."""
    return json.loads(text, object_pairs_hook=lambda pairs: dict(enumerate(v for _, v in pairs)))


def _depth(value):
    if isinstance(value, dict | list):
        children = value.values() if isinstance(value, dict) else value
        return 1 + max(map(_depth, children), default=0)
    return 0


@FAST
@given(TREES, LAYOUTS, st.booleans())
def test_the_tokens_read_the_same_value_as_json_loads(tree, layout, ascii_only):
    text = "\n " + _write(tree, layout, ascii_only) + "\t"
    assert _build(text) == json.loads(text)
    # Nothing but blanks lies between the tokens: no character is skipped unread.
    spans = [token.span() for token in tokens(text, values=True)]
    gaps = [text[end:start] for (_, end), (start, _) in zip(spans, spans[1:], strict=False)]
    assert [gap for gap in [text[: spans[0][0]], *gaps, text[spans[-1][1] :]] if gap.strip()] == []
    assert token_texts(text) == [token.group() for token in tokens(text, values=True)]


@FAST
@given(TREES, LAYOUTS, st.booleans())
def test_every_path_is_located_where_json_reads_its_value(tree, layout, ascii_only):
    text = _write(tree, layout, ascii_only)
    value = json.loads(text)
    decoder = json.JSONDecoder()
    for eager in (False, True):
        source = SourceMap(text)
        if eager:
            source.index_all()
        located = []
        for path, _ in _paths(value):
            found = source.locate(path)
            located.append(
                (
                    found.path,
                    found.found_last or path == (),
                    decoder.raw_decode(text, found.offset)[0],
                )
            )
        assert located == [(path, True, expected) for path, expected in _paths(value)]


@FAST
@given(TREES, LAYOUTS)
def test_repeated_keys_are_the_ones_the_text_repeats(tree, layout):
    text = _write(tree, layout, ascii_only=False)
    assert [(d.path, d.count) for d in duplicate_keys(text)] == _expected_duplicates(tree)


@FAST
@given(TREES, LAYOUTS, st.booleans())
def test_reindent_writes_what_json_dumps_writes(tree, layout, ascii_only):
    text = _write(tree, layout, ascii_only)
    laid_out = reindent(text)
    if _expected_duplicates(tree):  # json.dumps could not write the repeats: same pairs
        assert json.loads(laid_out, object_pairs_hook=list) == json.loads(
            text, object_pairs_hook=list
        )
    else:
        assert laid_out == json.dumps(json.loads(text), indent=2, ensure_ascii=ascii_only)


@FAST
@given(TREES, st.integers(min_value=0, max_value=MAX_DEPTH + 5))
@example(tree=("object", [("", ("list", [])), ("", None)]), extra=199)  # a repeated key
def test_the_depth_limit_counts_what_json_loads_nests(tree, extra):
    text = "[" * extra + _write(tree, (",", ":"), False) + "]" * extra
    too_deep = _depth(_read_all(text)) > MAX_DEPTH
    try:
        check_limits(text)
    except PayloadError as exc:
        assert (exc.code, too_deep) == ("too_deep", True)
    else:
        assert not too_deep


def test_brackets_commas_and_colons_inside_strings_are_not_tokens():
    text = '{"k[": "]},:\\"{", "n": [1, "[", {"x": "}"}]}'
    assert [(t.lastgroup, t.group()) for t in tokens(text, flat=True)] == [
        (None, "{"),
        (KEY, '"k[": '),
        (STRING, '"]},:\\"{"'),
        (None, ", "),
        (KEY, '"n": '),
        (None, "["),
        (None, ", "),
        (STRING, '"["'),
        (None, ", "),
        (FLAT, '{"x": "}"}'),
        (None, "]"),
        (None, "}"),
    ]


def test_text_that_is_not_json_still_tokenizes_without_raising():
    text = '{"a" 1 : ] "open'  # the lone quote opens no string: it is skipped
    assert [(t.lastgroup, t.group()) for t in tokens(text, values=True)] == [
        (None, "{"),
        (STRING, '"a"'),
        (VALUE, "1"),
        (None, ": "),
        (None, "]"),
        (VALUE, "open"),
    ]
    assert token_texts(text) == ["{", '"a"', "1", ": ", "]", "open"]


def test_a_view_has_values_or_flat_objects_not_both():
    with pytest.raises(ValueError, match="not both"):
        tokens("[]", values=True, flat=True)
