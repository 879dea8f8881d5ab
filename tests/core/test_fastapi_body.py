"""Report.to_fastapi() equals, byte for byte, what FastAPI answers with 422 (FastAPI as oracle)."""

import json

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from core.order import AgentState
from core.presets import PRESETS
from core.report import validate_text

app = FastAPI()


@app.post("/orders")
def create_order(body: AgentState) -> dict:
    return {}


CLIENT = TestClient(app)
CASES = {
    name: preset.text
    for name, preset in PRESETS.items()
    if preset.expect and name not in {"nan_infinity", "untyped_message"}
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
