"""core.validate.coercion: each input leaf next to the validated value, with the kind of change."""

from typing import Any

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, field_validator
from typing_extensions import TypedDict

from core.order.presets import PRESETS
from core.order.schema_options import SchemaOptions, build_model
from core.validate.coercion import CoercionRow, coercion_rows
from core.validate.report import validate_text

UUID = '"550e8400-e29b-41d4-a716-446655440000"'


def _lens(preset, options=None):
    report = validate_text(PRESETS[preset].value, build_model(options or SchemaOptions()))
    return coercion_rows(report.input, report.value)


def test_coerced_strings_become_numbers_and_defaults_are_listed():
    assert _lens("coerced_strings") == [
        CoercionRow("user_id", UUID, "str", f"UUID('{UUID[1:-1]}')", "UUID", "converted"),
        CoercionRow("amount", '"42"', "str", "42.0", "float", "coerced"),
        CoercionRow("items[0].sku", '"SKU-01"', "str", '"SKU-01"', "str", "same"),
        CoercionRow("items[0].qty", '"2"', "str", "2", "int", "coerced"),
        CoercionRow("items[0].unit_price", '"2.5"', "str", "2.5", "float", "coerced"),
        CoercionRow("messages[0].type", '"human"', "str", '"human"', "str", "same"),
        CoercionRow(
            "messages[0].content", '"Order, please"', "str", '"Order, please"', "str", "same"
        ),
        CoercionRow("status", "", "", '"pending"', "str", "default"),
        CoercionRow("logs", "", "", "[]", "list", "default"),
    ]


def test_stripping_shows_as_a_rewrite_only_when_line_item_strips():
    rows = {row.path: row for row in _lens("padded_sku", SchemaOptions(strip_item=True))}
    assert rows["items[0].sku"] == CoercionRow(
        "items[0].sku", '"  SKU-01  "', "str", '"SKU-01"', "str", "rewritten"
    )


def test_unknown_keys_show_as_dropped_when_extra_is_ignore():
    rows = {row.path: row for row in _lens("unknown_key", SchemaOptions(extra="ignore"))}
    assert rows["coupon"] == CoercionRow("coupon", '"WELCOME10"', "str", "", "", "dropped")


class _Aliased(BaseModel):
    model_config = ConfigDict(extra="ignore")
    user_name: str = Field(alias="userName")
    nick: str = Field(default="", validation_alias=AliasChoices("nickname", "handle"))
    scores: dict[int, str]
    ratio: float


def test_aliases_converted_dict_keys_and_nan_are_followed_not_called_dropped():
    text = (
        '{"userName": "ann", "handle": "a", "user_name": "x", "scores": {"1": "a", "02": "b"}, '
        '"ratio": NaN}'
    )
    report = validate_text(text, _Aliased)
    assert coercion_rows(report.input, report.value) == [
        CoercionRow("userName", '"ann"', "str", '"ann"', "str", "same"),
        CoercionRow("handle", '"a"', "str", '"a"', "str", "same"),
        # by name, where the model takes only its alias: ignored, as extra="ignore" says
        CoercionRow("user_name", '"x"', "str", "", "", "dropped"),
        CoercionRow('scores["1"]', '"a"', "str", '"a"', "str", "same"),
        CoercionRow('scores["02"]', '"b"', "str", '"b"', "str", "same"),
        CoercionRow("ratio", "NaN", "float", "NaN", "float", "same"),
    ]


class _Pair(TypedDict):
    a: int
    b: str


class _Keys(BaseModel):
    pair: _Pair  # validated in its own field order
    ints: dict[int, str]
    tags: dict[str, Any]

    @field_validator("tags")
    @classmethod
    def _sorted(cls, tags: dict[str, Any]) -> dict[str, Any]:
        return dict(sorted(tags.items()))


def test_dict_values_pair_with_their_own_keys_whatever_order_or_key_conversion():
    value = {
        "pair": {"b": "x", "a": "1"},
        "ints": {"1": "a", "01": "b", "2": "c"},  # "1" and "01" are both 1: the last wins
        "tags": {"z": 1, "a": "s"},
    }
    assert coercion_rows(value, _Keys.model_validate(value)) == [
        CoercionRow("pair.b", '"x"', "str", '"x"', "str", "same"),
        CoercionRow("pair.a", '"1"', "str", "1", "int", "coerced"),
        CoercionRow('ints["1"]', '"a"', "str", "", "", "dropped"),
        CoercionRow('ints["01"]', '"b"', "str", '"b"', "str", "same"),
        CoercionRow('ints["2"]', '"c"', "str", '"c"', "str", "same"),
        CoercionRow("tags.z", "1", "int", "1", "int", "same"),
        CoercionRow("tags.a", '"s"', "str", '"s"', "str", "same"),
    ]
