"""The one Preset shape every gallery uses, and the seed order's presets (its variations)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from core.jsontext.write import to_text
from core.order.seed import SEED_PAYLOAD, SEED_TEXT

__all__ = ["PRESETS", "SEED_TEXT", "Preset"]


_Value = TypeVar("_Value")


@dataclass(frozen=True)
class Preset(Generic[_Value]):
    """One entry of a preset gallery: the order payloads here, the retry lab's scripts, a
    model's examples (core.validate.examples). The pickers render `title — summary`.

    Example:
        >>> PRESETS["bad_sku"].expect
        ('string_pattern_mismatch',)
    """

    title: str
    summary: str
    value: _Value  # what picking it loads: payload text, a script, a payload value
    expect: tuple[str, ...] = ()  # error types it must produce, in order (order presets)
    options: dict[str, Any] = field(default_factory=dict, hash=False)  # e.g. {"retries": 2}


def _variant(change: Callable[[dict[str, Any]], object]) -> str:
    payload = copy.deepcopy(SEED_PAYLOAD)
    change(payload)
    return to_text(payload)


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def change(payload: dict[str, Any]) -> None:
        node: Any = payload
        for segment in path[:-1]:
            node = node[segment]
        node[path[-1]] = value

    return change


def _many_items(payload: dict[str, Any]) -> None:
    payload["items"] = [{"sku": f"SKU-{n:02d}", "qty": 1, "unit_price": 4.5} for n in range(1, 22)]


def _coerced(payload: dict[str, Any]) -> None:
    payload["amount"] = "42"
    payload["items"][0].update(qty="2", unit_price="2.5")


def _no_user(payload: dict[str, Any]) -> None:
    del payload["user_id"]


def _dict_messages(payload: dict[str, Any]) -> None:
    payload["messages"] = [
        {"type": "human", "content": "Order, please"},
        {"type": "ai", "content": "Sure", "id": "msg-1"},
    ]


def _untyped_message(payload: dict[str, Any]) -> None:
    payload["messages"] = [{"role": "user", "content": "OpenAI-style dict without a type"}]


def _typeless_everywhere(payload: dict[str, Any]) -> None:
    payload.update(user_id="not-a-uuid", amount=-1)
    payload["items"][0].update(sku="bad sku", qty=0)
    payload["messages"] = [{"content": "a message with neither type nor role"}]


def _hostile(payload: dict[str, Any]) -> None:
    payload["messages"][0]["content"] = "<img src=x onerror=alert(1)> **bold** [x](javascript:1)"
    payload["items"][0]["sku"] = "<script>alert(1)</script>"


PRESETS: dict[str, Preset[str]] = {
    "valid": Preset("Valid order", "The seed order: the gate opens.", SEED_TEXT, ()),
    "bad_uuid": Preset(
        "Bad UUID",
        "user_id is not a UUID.",
        _variant(_set(("user_id",), "not-a-uuid")),
        ("uuid_parsing",),
    ),
    "negative_amount": Preset(
        "Negative amount",
        "amount breaks ge=0.",
        _variant(_set(("amount",), -1)),
        ("greater_than_equal",),
    ),
    "bad_sku": Preset(
        "Bad SKU",
        "A space breaks the SKU pattern.",
        _variant(_set(("items", 0, "sku"), "bad sku")),
        ("string_pattern_mismatch",),
    ),
    "unknown_key": Preset(
        "Unknown key",
        "extra='forbid' rejects it; LangGraph itself drops it silently.",
        _variant(_set(("coupon",), "WELCOME10")),
        ("extra_forbidden",),
    ),
    "too_many_items": Preset(
        "21 items",
        "items has max_length=20.",
        _variant(_many_items),
        ("too_long",),
    ),
    "qty_zero": Preset(
        "qty 0",
        "qty breaks ge=1.",
        _variant(_set(("items", 0, "qty"), 0)),
        ("greater_than_equal",),
    ),
    "price_zero": Preset(
        "unit_price 0",
        "unit_price breaks gt=0.",
        _variant(_set(("items", 0, "unit_price"), 0)),
        ("greater_than",),
    ),
    "coerced_strings": Preset(
        'Strings Pydantic coerces ("42", "2.5")',
        "Lax mode turns numeric strings into numbers; strict mode rejects them.",
        _variant(_coerced),
        (),
    ),
    "padded_sku": Preset(
        "SKU with surrounding spaces",
        "str_strip_whitespace on AgentState is not inherited by LineItem.",
        _variant(_set(("items", 0, "sku"), "  SKU-01  ")),
        ("string_pattern_mismatch",),
    ),
    "nan_infinity": Preset(
        "NaN / Infinity",
        "Not standard JSON, but accepted by parsers; allow_inf_nan=False rejects them.",
        _variant(
            lambda p: (p.update(amount=float("nan")), p["items"][0].update(unit_price=float("inf")))
        ),
        ("finite_number", "finite_number"),
    ),
    "missing_user_id": Preset(
        "Missing user_id",
        "A required field is absent.",
        _variant(_no_user),
        ("missing",),
    ),
    "dict_messages": Preset(
        "Messages given as dicts",
        "Dicts with a 'type' key become HumanMessage / AIMessage objects.",
        _variant(_dict_messages),
        (),
    ),
    "untyped_message": Preset(
        "Message dict without 'type'",
        "LangGraph converts it and runs; your model alone raises TypeError at the message.",
        _variant(_untyped_message),
        ("validator_exception",),
    ),
    "typeless_message": Preset(
        "Message without type or role, and four bad fields",
        "LangGraph's add_messages raises ValueError at the message; every other error is listed.",
        _variant(_typeless_everywhere),
        (
            "uuid_parsing",
            "greater_than_equal",
            "string_pattern_mismatch",
            "greater_than_equal",
            "validator_exception",
        ),
    ),
    "wrong_status": Preset(
        "Wrong status literal",
        "status must be pending, validated or confirmed.",
        _variant(_set(("status",), "shipped")),
        ("literal_error",),
    ),
    "hostile_text": Preset(
        "HTML and Markdown in strings",
        "Shown as text, never rendered.",
        _variant(_hostile),
        ("string_pattern_mismatch",),
    ),
}
