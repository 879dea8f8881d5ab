"""What ui.editor.json_editor sends its frontend, run by AppTest on the demo page (no browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from streamlit.testing.v1 import AppTest

APP = Path(__file__).resolve().parents[1] / "e2e" / "editor_app.py"
TEXT = '{\n  "order_id": "A-1",\n  "qty": "three",\n  "items": []\n}\n'
QTY = {
    "line": 3,
    "col": 10,
    "message": "Input should be a valid integer, unable to parse string as an integer",
    "severity": "error",
}
ITEMS = {
    "line": 4,
    "col": 12,
    "message": "List should have at least 1 item after validation",
    "severity": "warning",
}


def editor_args(at: AppTest) -> dict[str, Any]:
    (element,) = at.get("component_instance")
    return json.loads(element.proto.json_args)


def test_first_run_sends_the_text_its_marks_and_no_go_to() -> None:
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    assert not at.exception
    assert editor_args(at) == {
        "text": TEXT,
        "rev": 0,
        "marks": [QTY, ITEMS],
        "marks_at": "rev:0",
        "goto": None,
        "height": 240,
        "debounce_ms": 400,
        "label": "JSON",
        "default": None,
        "key": "editor",
    }
    assert [code.value for code in at.code] == [TEXT.rstrip("\n")]


def test_each_go_to_click_is_a_new_request_even_for_the_same_spot() -> None:
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.button(key="goto_qty").click().run()
    assert editor_args(at)["goto"] == {"line": 3, "col": 10, "nonce": 1}
    at.button(key="goto_qty").click().run()
    assert editor_args(at)["goto"] == {"line": 3, "col": 10, "nonce": 2}
    at.run()
    assert editor_args(at)["goto"] is None


def test_a_text_the_page_sets_is_a_new_revision_with_its_own_marks() -> None:
    at = AppTest.from_file(str(APP), default_timeout=30).run()
    at.session_state["doc"] = '{"qty": "three"}'
    at.run()
    args = editor_args(at)
    assert (args["text"], args["rev"], args["marks"], args["marks_at"]) == (
        '{"qty": "three"}',
        1,
        [{**QTY, "line": 1, "col": 9}],
        "rev:1",
    )
    at.run()  # passing the same text again is not another replacement
    assert editor_args(at)["rev"] == 1
    at.button(key="reset").click().run()
    assert (editor_args(at)["text"], editor_args(at)["rev"]) == (TEXT, 2)
    assert [code.value for code in at.code] == [TEXT.rstrip("\n")]
