"""The 422 body FastAPI returns for a `body: Model` endpoint, computed without FastAPI."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from core.jsontext.write import dumps

__all__ = ["fastapi_422_body"]


def fastapi_422_body(model: type[BaseModel], payload: Any) -> dict[str, Any]:
    """What FastAPI answers for `payload` (text, or an already parsed value).

    FastAPI reads the body with `json.loads`, validates in Python mode with
    `from_attributes=True`, drops the docs URLs and prefixes every `loc` with "body".
    A valid payload gives `{}` (FastAPI would call the endpoint instead). When the model's
    own code raises, or the errors hold NaN or an infinity (which Starlette's JSON response
    refuses), FastAPI answers 500 instead: that is described, not a 422 body.

    Example:
        >>> from core.order import AgentState
        >>> fastapi_422_body(AgentState, '{"amount": 1}')["detail"][0]["loc"]
        ['body', 'user_id']
    """
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except (ValueError, RecursionError) as exc:  # JSONDecodeError, digit limit, depth
            return {
                "detail": [
                    {
                        "type": "json_invalid",
                        "loc": ["body", getattr(exc, "pos", 0)],
                        "msg": "JSON decode error",
                        "input": {},
                        "ctx": {"error": getattr(exc, "msg", str(exc))},
                    }
                ]
            }
    try:
        model.model_validate(payload, from_attributes=True)
    except ValidationError as exc:
        errors = [{**err, "loc": ("body", *err["loc"])} for err in exc.errors(include_url=False)]
        body = {"detail": _jsonable(errors)}
        try:  # Starlette's JSONResponse refuses NaN and infinities: the 422 becomes a 500
            dumps(body, allow_nan=False)
        except ValueError as refused:
            return _server_error(refused)
        return body
    except Exception as exc:  # noqa: BLE001 - FastAPI turns these into a bare 500
        return _server_error(exc)
    return {}


def _server_error(exc: Exception) -> dict[str, Any]:
    return {"status_code": 500, "body": "Internal Server Error", "raised": repr(exc)}


def _jsonable(value: Any) -> Any:
    # The subset of fastapi.encoders.jsonable_encoder that error dicts can contain.
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    if isinstance(value, BaseModel):
        return _jsonable(value.model_dump(mode="json"))
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, Exception):
        return {}
    return str(value)
