"""Hypothesis: no text or JSON value makes validation, the trace gate or share links fail."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.jsontext.paths import PathNames, format_path, format_pointer
from core.jsontext.payload import PayloadError
from core.jsontext.source_map import SourceMap
from core.order import build_order_graph
from core.share import ShareError, decode_share, encode_share
from core.trace import Trace, run_trace
from core.validate.report import Report, validate_text, validate_value

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)
order_like = st.fixed_dictionaries(
    {},
    optional={
        "user_id": st.text() | st.uuids().map(str),
        "amount": json_values,
        "status": st.sampled_from(["pending", "shipped", ""]) | json_values,
        "items": st.lists(
            st.dictionaries(st.sampled_from(["sku", "qty", "unit_price", "x"]), json_values),
            max_size=3,
        ),
        "messages": st.lists(json_values, max_size=2),
        "extra": json_values,
    },
)


def _check(report: Report) -> None:
    assert isinstance(report, Report)
    assert report.ok == (report.syntax_error is None and not report.errors)
    assert report.syntax_error is None or isinstance(report.syntax_error, PayloadError)
    for error in report.errors:
        assert error.line is None or error.line >= 1
        assert error.col is None or error.col >= 1
        assert error.path and error.type
        row = error.to_row()
        assert len(row["input"]) <= 80 and len(row["ctx"]) <= 120


@FAST
@given(st.text())
def test_any_text_gives_a_report_never_an_exception(text):
    _check(validate_text(text))


@FAST
@given(order_like)
def test_any_json_payload_gives_positioned_errors(value):
    text = json.dumps(value, indent=1)
    report = validate_text(text)
    _check(report)
    lines = text.splitlines()
    for error in report.errors:
        assert error.line <= len(lines)


@FAST
@given(order_like)
def test_any_python_value_gives_a_report(value):
    _check(validate_value(value))


@FAST
@given(st.text())
def test_decode_share_raises_only_share_error(token):
    try:
        decode_share(token)
    except ShareError:
        pass


@FAST
@given(st.dictionaries(st.text(max_size=10), json_values.filter(lambda v: v == v), max_size=5))
def test_share_round_trip(state):
    try:
        token = encode_share(state)
    except (ShareError, ValueError):  # NaN inside containers is not JSON; too large for a URL
        return
    assert decode_share(token) == state


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(order_like)
def test_run_trace_gate_never_raises_and_a_closed_gate_runs_no_node(value):
    trace = run_trace(build_order_graph(), value)
    assert isinstance(trace, Trace)
    if trace.gate_errors:
        assert trace.steps == [] and trace.output is None
    else:
        assert [step.node for step in trace.steps] == ["__start__", "validate_order", "confirm"]


@FAST
@given(json_values, st.booleans())
def test_one_pass_index_finds_what_json_reads_at_each_container(value, indent):
    # (There is no second, lazy indexer any more: json's own decoder is the reference.)
    text = json.dumps(value, indent=1 if indent else None)
    eager = SourceMap(text)
    eager.index_all()
    read = json.JSONDecoder().raw_decode
    for offset, children in eager._children.items():
        container = read(text, offset)[0]
        keys = container if isinstance(container, dict) else range(len(container))
        # Compared as JSON text: NaN is never equal to itself.
        assert json.dumps({str(key): read(text, at)[0] for key, at in children.items()}) == (
            json.dumps({str(key): container[key] for key in keys})
        )


tricky_keys = st.text(alphabet='"\\ :,{}[]abé', max_size=5)
nested = st.recursive(
    st.none() | st.integers() | st.text(alphabet='"\\ :,{}[]a', max_size=5),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(tricky_keys, children, max_size=3)
    ),
    max_leaves=15,
)


def _paths(value, prefix=()):
    yield prefix, value
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else ()
    )
    for key, child in items:
        yield from _paths(child, (*prefix, key))


@FAST
@given(nested, st.booleans(), st.booleans(), st.booleans())
def test_every_path_points_at_its_own_value(value, indent, ascii_only, eager):
    text = json.dumps(value, indent=1 if indent else None, ensure_ascii=ascii_only)
    source = SourceMap(text)
    if eager:
        source.index_all()
    decode = json.JSONDecoder().raw_decode
    for path, expected in _paths(value):
        found, offset, found_last = source.locate(path)
        assert found == path and found_last == bool(path)
        assert decode(text, offset)[0] == expected


@FAST
@given(nested, st.booleans(), st.booleans(), st.booleans())
def test_every_members_key_offset_is_where_its_key_string_starts(value, indent, ascii_only, eager):
    text = json.dumps(value, indent=1 if indent else None, ensure_ascii=ascii_only)
    source = SourceMap(text)
    if eager:
        source.index_all()
    decode = json.JSONDecoder().raw_decode
    for path, _ in _paths(value):
        if path and isinstance(path[-1], str):
            assert decode(text, source.key_offset(source.locate(path).offset))[0] == path[-1]


@FAST
@given(st.lists(st.one_of(st.text(max_size=6), st.integers(0, 30)), max_size=5))
def test_path_names_built_from_prefixes_equal_format_path(segments):
    segments = tuple(segments)
    assert PathNames()(segments) == (format_path(segments), format_pointer(segments))
