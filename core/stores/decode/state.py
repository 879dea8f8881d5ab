"""A stored checkpoint's state, and its verdict under a model: every value checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.checkpoint.base import CheckpointTuple
from pydantic import BaseModel, ValidationError

from core.errors import ErrorCode
from core.jsontext.write import dumps, jsonable, preview
from core.stores.decode.instances import plain_data, plain_fields
from core.stores.decode.rows import RowProblem
from core.stores.decode.serde import Refused, find_refused
from core.validate.channels import write_input
from core.validate.entry_run import entry_graph
from core.validate.field_errors import FieldError
from core.validate.report import validate_text, validate_value
from core.words import count

__all__ = [
    "INPUT_PREVIEW",
    "checkpoint_errors",
    "cut_input",
    "json_state_errors",
    "plain_data",
    "state_errors",
    "stored_state",
]

INPUT_PREVIEW = 200  # characters of a rejected value an error shows (its size is named)


def stored_state(saved: CheckpointTuple, model: type[BaseModel] | None = None) -> Any:
    """The state a checkpoint holds: its state channels (LangGraph's own channels left out).

    An input checkpoint (`source == "input"`) holds the graph's input, not yet written to
    the state channels: with `model`, the input is written into the state so far through
    the channels of a graph over `model`, each reducer applied, as LangGraph will write
    it (`core.validate.channels.write_input`: role-style messages become messages, keys no
    channel takes are dropped); without, the input's keys are laid over the state.
    """
    return _with_input(saved, model)[0]


def checkpoint_errors(
    saved: CheckpointTuple, model: type[BaseModel], *, may_hold_refusals: bool = True
) -> tuple[Any, list[dict[str, Any]]]:
    """A checkpoint's state (`stored_state` with `model`) and its errors: what a reducer
    raised writing an input checkpoint's input (that field is left as it was), then the
    state's `state_errors`.

    Raises `RowProblem` for a state that cannot be checked (nested too deep).
    """
    try:
        state, raised = _with_input(saved, model)
    except RecursionError:
        raise _too_deep() from None
    errors = [_safe(row) for row in raised]
    return state, errors + state_errors(state, model, may_hold_refusals=may_hold_refusals)


def _with_input(
    saved: CheckpointTuple, model: type[BaseModel] | None
) -> tuple[Any, list[dict[str, Any]]]:
    checkpoint: Any = saved.checkpoint  # the strict serializer may give a Refused instead
    if isinstance(checkpoint, Refused):
        return checkpoint, []
    values = checkpoint.get("channel_values") or {}
    state = {k: v for k, v in values.items() if not k.startswith("_") and ":" not in k}
    start = values.get("__start__")
    if saved.metadata.get("source") != "input" or not isinstance(start, dict):
        return state, []
    if model is None:
        return {**state, **start}, []
    return write_input(entry_graph(model), state, start)


def state_errors(
    state: Any, model: type[BaseModel], *, may_hold_refusals: bool = True
) -> list[dict[str, Any]]:
    """Pydantic's errors for `state` (JSON-safe, each input cut to `INPUT_PREVIEW`
    characters with its size named), or one `refused_value` error per refusal.

    Model instances in the state are checked from the data they hold (`plain_data`). A
    validator that raises something other than ValidationError is pinned to the part of
    the state that makes it raise (`validator_exception` there), as on the Validate page.
    `may_hold_refusals=False` skips the search for `Refused` markers (the serializer
    counted none while this state was read). A state nested too deep to be checked raises
    `RowProblem` (`row_too_deep`).

    Example:
        >>> from core.order import LineItem
        >>> [e["type"] for e in state_errors({"sku": "ab", "qty": 1, "unit_price": 1}, LineItem)]
        ['string_too_short']
    """
    try:
        refused = find_refused(state) if may_hold_refusals else []
        if refused:
            return [
                {
                    "type": "refused_value",
                    "loc": list(at),
                    "msg": hit.describe(),
                    "input": hit.what,
                }  # fmt: skip
                for at, hit in refused
            ]
        plain = plain_fields(state, model)
        return _errors_of(
            lambda: model.model_validate(plain), lambda: validate_value(plain, model).errors
        )
    except RecursionError:
        raise _too_deep() from None


def json_state_errors(state: Any, model: type[BaseModel]) -> list[dict[str, Any]]:
    """`state_errors` in JSON mode: `state` is JSON data (a LangGraph server's values), so it
    is validated as the JSON text it arrived as: a strict model then gets what the server
    really sent (a UUID as text, a Decimal as a number), as the server's own reader would.

    Example:
        >>> from core.order import LineItem
        >>> line = {"sku": "ab", "qty": 1, "unit_price": 1}
        >>> [e["type"] for e in json_state_errors(line, LineItem)]
        ['string_too_short']
    """
    try:
        try:
            text = dumps(state)  # a server's values are JSON data already
        except (TypeError, ValueError):
            text = dumps(jsonable(state))
        return _errors_of(
            lambda: model.model_validate_json(text), lambda: validate_text(text, model).errors
        )
    except RecursionError:
        raise _too_deep() from None


def _errors_of(
    validate: Callable[[], object], pinned: Callable[[], list[FieldError]]
) -> list[dict[str, Any]]:
    """The errors `validate()` raises, as Pydantic's JSON gives them; when a validator (a
    model's, LangChain's) raises something else, each raising part is pinned (`pinned()`,
    as the Validate page pins it) and the rest validated."""
    try:
        validate()
    except ValidationError as exc:
        return _json_errors(exc)
    except Exception:  # noqa: BLE001 - a validator raised: pinned, as on the Validate page
        return [_safe(_row(error)) for error in pinned()]
    return []


def _too_deep() -> RowProblem:
    return RowProblem(
        ErrorCode.ROW_TOO_DEEP, "the stored state is nested deeper than can be checked."
    )


def _json_errors(exc: ValidationError) -> list[dict[str, Any]]:
    """Pydantic's errors as its JSON gives them (a context's exception as its text), each
    input cut: a stored value may be huge, or bytes that are not text."""
    rows = []
    for error in exc.errors(include_url=False):
        row: dict[str, Any] = {
            "type": error["type"],
            "loc": list(error["loc"]),
            "msg": error["msg"],
            "input": cut_input(error["input"]),
        }
        if "ctx" in error:
            row["ctx"] = {
                key: str(value) if isinstance(value, BaseException) else value
                for key, value in error["ctx"].items()
            }
        rows.append(jsonable(row))
    return rows


def _row(error: FieldError) -> dict[str, Any]:
    row = {"type": error.type, "loc": list(error.loc), "msg": error.msg, "input": error.input}
    return row | ({"ctx": error.ctx} if error.ctx else {})


def _safe(error: dict[str, Any]) -> dict[str, Any]:
    """A raw error row (a reducer's crash) as JSON-safe data, its input cut."""
    safe: dict[str, Any] = jsonable({k: v for k, v in error.items() if k != "input"})
    return safe | {"input": cut_input(error.get("input"))}


def cut_input(value: Any) -> Any:
    """A rejected value as JSON data when it is short; else its first `INPUT_PREVIEW`
    characters as text, with its size named (never dumped whole).

    Example:
        >>> cut_input("shipped"), cut_input(-1.0), cut_input({"sku": "ab"})
        ('shipped', -1.0, {'sku': 'ab'})
        >>> cut_input("x" * 1_000)[-23:]
        'xxx… (1,000 characters)'
    """
    if isinstance(value, int | float | bool) or value is None:
        return value
    if isinstance(value, str):
        if len(value) <= INPUT_PREVIEW:
            return value
        return value[:INPUT_PREVIEW] + f"… ({count(len(value), 'character')})"
    if not isinstance(value, bytes | bytearray | list | tuple | dict):
        value = jsonable(value)  # a model, a UUID: data, then cut
    text = preview(value, INPUT_PREVIEW)
    return jsonable(value) if len(text) <= INPUT_PREVIEW else text
