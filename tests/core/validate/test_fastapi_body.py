"""Report.to_fastapi() equals, byte for byte, what FastAPI answers with 422 (FastAPI as oracle)."""

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from core.order import AgentState
from core.order.presets import PRESETS
from core.validate.report import validate_text

app = FastAPI()


@app.post("/orders")
def create_order(body: AgentState) -> dict:
    return {}


CLIENT = TestClient(app)
CASES = {
    name: preset.value
    for name, preset in PRESETS.items()
    if preset.expect and name not in {"nan_infinity", "untyped_message", "typeless_message"}
}
CASES |= {
    "syntax": '{\n  "amount": 1,\n}',
    "top-level-array": "[1, 2]",
    "wrong-item-types": '{"user_id": 5, "items": "x", "messages": [{"type": "ai", "content": 5}]}',
}


@pytest.mark.parametrize("name", list(CASES))
def test_to_fastapi_matches_fastapi_byte_for_byte(name):
    text = CASES[name]
    response = CLIENT.post(
        "/orders", content=text.encode(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 422
    ours = json.dumps(validate_text(text).to_fastapi(), ensure_ascii=False, separators=(",", ":"))
    assert ours.encode() == response.content


SERVER_ERRORS = {
    "nan_infinity": "ValueError('Out of range float values are not JSON compliant')",
    "untyped_message": (
        "TypeError(\"Expected either a dictionary with a 'type' key or an object with a 'type' "
        "attribute. Instead got type <class 'dict'>.\")"
    ),
}
SERVER_ERRORS["typeless_message"] = SERVER_ERRORS["untyped_message"]


@pytest.mark.parametrize("name", list(SERVER_ERRORS))
def test_a_body_fastapi_cannot_answer_with_422_is_described_as_its_500(name):
    text = PRESETS[name].value
    response = TestClient(app, raise_server_exceptions=False).post(
        "/orders", content=text.encode(), headers={"content-type": "application/json"}
    )
    assert (response.status_code, response.text) == (500, "Internal Server Error")
    assert validate_text(text).to_fastapi() == {
        "status_code": 500,
        "body": "Internal Server Error",
        "raised": SERVER_ERRORS[name],
    }
