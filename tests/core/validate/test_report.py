"""core.validate.report: whole error lists with exact positions, exports, Python-mode validation."""

import copy
import json
from dataclasses import replace

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from core.order import SEED_PAYLOAD
from core.order.presets import PRESETS, SEED_TEXT
from core.order.schema_options import SchemaOptions, build_model
from core.validate.report import FieldError, gate_disagrees, validate_text, validate_value

UUID = "550e8400-e29b-41d4-a716-446655440000"
DOCS = "https://errors.pydantic.dev/2.14/v/"


def _rows(report):
    return [(e.type, e.path, e.pointer, e.line, e.col) for e in report.errors]


def test_seed_payload_opens_the_gate_with_the_validated_model():
    report = validate_text(json.dumps(SEED_PAYLOAD))
    assert report.ok and report.errors == [] and report.syntax_error is None
    assert report.value.model_dump(mode="json", exclude={"messages"}) == {
        "user_id": UUID,
        "amount": 99.0,
        "status": "pending",
        "items": [{"sku": "SKU-01", "qty": 2, "unit_price": 49.5}],
        "logs": [],
    }


def test_every_error_of_a_bad_payload_is_reported_with_its_position():
    text = (
        "{\n"
        '  "user_id": "not-a-uuid",\n'
        '  "amount": -1,\n'
        '  "items": [{"sku": "bad sku", "unit_price": 0}],\n'
        '  "zz": 1\n'
        "}"
    )
    report = validate_text(text)
    assert report.errors == [
        FieldError(
            ("user_id",),
            "user_id",
            "/user_id",
            "uuid_parsing",
            "Input should be a valid UUID, invalid character: found `n` at 0",
            "not-a-uuid",
            {"error": "invalid character: found `n` at 0"},
            DOCS + "uuid_parsing",
            2,
            14,
        ),
        FieldError(
            ("amount",),
            "amount",
            "/amount",
            "greater_than_equal",
            "Input should be greater than or equal to 0",
            -1,
            {"ge": 0.0},
            DOCS + "greater_than_equal",
            3,
            13,
        ),
        FieldError(
            ("items", 0, "sku"),
            "items[0].sku",
            "/items/0/sku",
            "string_pattern_mismatch",
            "String should match pattern '^[A-Z0-9-]+$'",
            "bad sku",
            {"pattern": "^[A-Z0-9-]+$"},
            DOCS + "string_pattern_mismatch",
            4,
            21,
        ),
        FieldError(
            ("items", 0, "qty"),
            "items[0].qty",
            "/items/0/qty",
            "missing",
            "Field required",
            {"sku": "bad sku", "unit_price": 0},
            None,
            DOCS + "missing",
            4,
            13,
        ),
        FieldError(
            ("items", 0, "unit_price"),
            "items[0].unit_price",
            "/items/0/unit_price",
            "greater_than",
            "Input should be greater than 0",
            0,
            {"gt": 0.0},
            DOCS + "greater_than",
            4,
            46,
        ),
        FieldError(
            ("zz",),
            "zz",
            "/zz",
            "extra_forbidden",
            "Extra inputs are not permitted",
            1,
            None,
            DOCS + "extra_forbidden",
            5,
            3,  # the key itself
        ),
    ]


def test_the_article_rejections_are_positioned_in_the_preset_texts():
    assert {
        name: _rows(validate_text(PRESETS[name].value))
        for name in [
            "bad_uuid",
            "negative_amount",
            "bad_sku",
            "unknown_key",
            "missing_user_id",
            "too_many_items",
            "padded_sku",
        ]
    } == {
        "bad_uuid": [("uuid_parsing", "user_id", "/user_id", 2, 14)],
        "negative_amount": [("greater_than_equal", "amount", "/amount", 3, 13)],
        "bad_sku": [("string_pattern_mismatch", "items[0].sku", "/items/0/sku", 6, 14)],
        "unknown_key": [("extra_forbidden", "coupon", "/coupon", 17, 3)],
        "missing_user_id": [("missing", "user_id", "/user_id", 1, 1)],
        "too_many_items": [("too_long", "items", "/items", 4, 12)],
        "padded_sku": [("string_pattern_mismatch", "items[0].sku", "/items/0/sku", 6, 14)],
    }


def test_union_tags_are_left_out_of_the_path_but_kept_in_loc():
    report = validate_text(
        f'{{"user_id": "{UUID}", "amount": 1, "messages": [{{"type": "ai", "content": 5}}]}}'
    )
    assert [(e.loc, e.path, e.type, e.line, e.col) for e in report.errors] == [
        (("messages", 0, "ai", "content", "str"), "messages[0].content", "string_type", 1, 105),
        (
            ("messages", 0, "ai", "content", "list[union[str,dict[any,any]]]"),
            "messages[0].content",
            "list_type",
            1,
            105,
        ),
    ]


class _Message(BaseModel):
    message: str


class _Log(BaseModel):
    message: _Message


def test_a_key_missing_under_a_parent_of_the_same_name_is_named_in_full():
    text = '{"message": {"level": 1}}'
    expected = FieldError(
        ("message", "message"),
        "message.message",
        "/message/message",
        "missing",
        "Field required",
        {"level": 1},
        None,
        "https://errors.pydantic.dev/2.14/v/missing",
        1,
        13,  # the object the key is missing from
    )
    assert validate_text(text, _Log).errors == [expected]
    assert validate_value(json.loads(text), _Log).errors == [replace(expected, line=None, col=None)]


_NO_TYPE = (
    "Validation itself raised TypeError: Expected either a dictionary with a 'type' key or an "
    "object with a 'type' attribute. Instead got type <class 'dict'>."
)


def test_a_message_dict_without_type_is_pinned_to_its_element_not_raised():
    report = validate_text(PRESETS["untyped_message"].value)
    assert report.errors == [
        FieldError(
            loc=("messages", 0),
            path="messages[0]",
            pointer="/messages/0",
            type="validator_exception",
            msg=_NO_TYPE,
            input={"role": "user", "content": "OpenAI-style dict without a type"},
            line=12,
            col=5,
        )
    ]


def test_a_raising_message_hides_no_other_field_error():
    payload = copy.deepcopy(SEED_PAYLOAD)
    payload.update(user_id="nope", amount=-1)
    payload["items"][0].update(sku="bad sku", qty=0)
    # Two typeless messages around a valid one whose content is wrong: the third error's
    # index is the one in the payload, though the pinned messages were set aside.
    payload["messages"] = [{"content": "a"}, {"content": "b"}, {"type": "human", "content": 5}]
    text = json.dumps(payload, indent=1)
    rows = [(e.path, e.type, e.line, e.col) for e in validate_text(text).errors]
    assert rows == [
        ("user_id", "uuid_parsing", 2, 13),
        ("amount", "greater_than_equal", 3, 12),
        ("items[0].sku", "string_pattern_mismatch", 6, 11),
        ("items[0].qty", "greater_than_equal", 7, 11),
        ("messages[0]", "validator_exception", 12, 3),
        ("messages[1]", "validator_exception", 15, 3),
        ("messages[2].content", "string_type", 20, 15),
        ("messages[2].content", "list_type", 20, 15),
    ]
    assert [e.loc for e in validate_text(text).errors][-1] == (
        "messages",
        2,
        "human",
        "content",
        "list[union[str,dict[any,any]]]",
    )
    python = validate_value(payload).errors
    assert [(e.path, e.type, e.line) for e in python] == [(p, t, None) for p, t, _, _ in rows]


def test_syntax_errors_carry_line_and_column_and_no_field_errors():
    report = validate_text('{\n  "amount": 1,\n}')
    assert (
        report.ok,
        report.errors,
        report.syntax_error.line,
        report.syntax_error.col,
        report.syntax_error.code,
    ) == (False, [], 2, 14, "json_syntax")  # the trailing comma, not the } after it


def test_a_top_level_array_is_a_root_model_type_error():
    assert _rows(validate_text("[1, 2]")) == [("model_type", "(root)", "", 1, 1)]


def test_validate_value_gives_paths_without_positions():
    report = validate_value({"amount": -1, "items": [{"sku": "AB-1", "qty": 0, "unit_price": 1}]})
    assert _rows(report) == [
        ("missing", "user_id", "/user_id", None, None),
        ("greater_than_equal", "amount", "/amount", None, None),
        ("greater_than_equal", "items[0].qty", "/items/0/qty", None, None),
    ]


def test_rows_truncate_the_input_and_never_hold_the_whole_payload():
    report = validate_text(PRESETS["too_many_items"].value)
    row = report.to_rows()[0]
    assert len(row["input"]) == 80 and row["input"].endswith("…")
    assert row == {
        **row,
        "path": "items",
        "line:col": "4:12",
        "type": "too_long",
        "docs": DOCS + "too_long",
    }


def test_exports_have_pydantic_errors_shape_and_csv_header():
    report = validate_text(PRESETS["negative_amount"].value)
    assert report.to_errors() == [
        {
            "type": "greater_than_equal",
            "loc": ["amount"],
            "msg": "Input should be greater than or equal to 0",
            "input": -1,
            "ctx": {"ge": 0.0},
            "url": DOCS + "greater_than_equal",
        }
    ]
    assert report.to_csv().splitlines() == [
        "path,pointer,type,msg,input,ctx,url,line,col",
        'amount,/amount,greater_than_equal,Input should be greater than or equal to 0,-1,"{""ge"": 0.0}",'
        + DOCS
        + "greater_than_equal,3,13",
    ]


def test_exported_errors_are_strict_json_even_for_nan_and_infinite_inputs():
    report = validate_text(PRESETS["nan_infinity"].value)
    assert report.to_errors() == [
        {
            "type": "finite_number",
            "loc": ["amount"],
            "msg": "Input should be a finite number",
            "input": "NaN",
            "url": DOCS + "finite_number",
        },
        {
            "type": "finite_number",
            "loc": ["items", 0, "unit_price"],
            "msg": "Input should be a finite number",
            "input": "Infinity",
            "url": DOCS + "finite_number",
        },
    ]
    json.dumps(report.to_errors(), allow_nan=False)  # raises on a bare NaN token


def test_nesting_at_the_parsers_limit_is_read_and_one_level_more_is_too_deep_where_it_starts():
    def nested(depth: int) -> str:
        return '{"a": ' * depth + "1" + "}" * depth

    at_limit, beyond = validate_text(nested(200)), validate_text(nested(201))

    assert at_limit.syntax_error is None
    assert [(e.type, e.path) for e in at_limit.errors] == [
        ("missing", "user_id"),
        ("missing", "amount"),
        ("extra_forbidden", "a"),
    ]
    error = beyond.syntax_error
    assert (error.code, error.line, error.col, error.message) == (
        "too_deep",
        1,
        1201,
        "The payload nests deeper than 200 levels; flatten it.",
    )


def test_the_gate_disagrees_only_where_python_mode_refuses_what_json_mode_accepts():
    strict = build_model(SchemaOptions(strict=True))
    seed_strict = validate_text(SEED_TEXT, strict)
    gate = gate_disagrees(seed_strict)

    assert seed_strict.ok
    assert [(e.path, e.type, e.line, e.col, e.msg) for e in gate.errors] == [
        ("user_id", "is_instance_of", 2, 14, "Input should be an instance of UUID")
    ]
    assert gate_disagrees(validate_text(SEED_TEXT)) is None  # lax: both modes accept it
    assert gate_disagrees(validate_text('{"amount": -1}', strict)) is None  # JSON mode says it


def test_the_depth_limit_holds_inside_a_field_pydantic_would_read_deeper():
    # An untyped field (a message's content) lets Pydantic's parser go past 200 levels; the
    # Validate page said valid while Trace and the form refused the same text as too deep.
    content = '[{"a": ' + "[" * 196 + "]" * 196 + "}]"
    text = '{"amount": 1, "messages": [{"type": "human", "content": ' + content + "}]}"
    report = validate_text(text)

    assert not report.ok and report.errors == []
    error = report.syntax_error
    assert (error.code, error.line, error.col) == ("too_deep", 1, 259)
    assert gate_disagrees(report) is None


class _Inner(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str


class _Outer(BaseModel):
    model_config = ConfigDict(extra="forbid")
    inner: _Inner
    tags: list[_Inner] = []


def test_an_unknown_key_is_placed_at_its_key_and_a_missing_key_at_its_object():
    text = '{"inner": {\n  "nme" : {"x": [1]},\n  "q\\"t": 2}, "tags": [{"name": "a", "b": 3}]}'
    report = validate_text(text, _Outer)
    with pytest.raises(ValidationError) as pydantic:
        _Outer.model_validate_json(text)
    assert [(e.loc, e.type) for e in report.errors] == [
        (tuple(e["loc"]), e["type"]) for e in pydantic.value.errors()
    ]
    assert [(e.path, e.type, e.line, e.col) for e in report.errors] == [
        ("inner.name", "missing", 1, 11),  # the object that lacks it
        ("inner.nme", "extra_forbidden", 2, 3),
        ('inner["q\\"t"]', "extra_forbidden", 3, 3),
        ("tags[0].b", "extra_forbidden", 3, 38),
    ]


def test_many_unknown_keys_are_placed_at_their_keys_in_one_token_pass_too():
    keys = [f"k{n}" for n in range(60)]  # past the lazy lookups' limit: index_all runs
    text = '{"inner": {"name": "a"},\n' + ",\n".join(f' "{k}": [{{}}]' for k in keys) + "}"
    report = validate_text(text, _Outer)
    assert [(e.path, e.type, e.line, e.col) for e in report.errors] == [
        (k, "extra_forbidden", n + 2, 2) for n, k in enumerate(keys)
    ]
