"""The server audit's get_state answer for an invalid thread, however oddly shaped, keeps the
thread's row (its checkpoint id and step only when the answer names them); only a 400 is the
server declining to prepare the thread: any other refusal stops the audit."""

from __future__ import annotations

from concurrent.futures import Future
from typing import Any

import pytest

from core.order import AgentState
from core.stores.audit.audit import AuditResult, InvalidState
from core.stores.audit.server_audit import _checked
from core.stores.backends.server import ServerRefusal

VALUES = {"user_id": "u", "amount": 1, "status": "shipped", "items": [], "logs": [],
          "messages": []}  # fmt: skip
ERRORS = [{"loc": ["status"], "type": "literal_error", "msg": "bad"}]


def _answered(answer: Any) -> Future[Any]:
    asked: Future[Any] = Future()
    if isinstance(answer, BaseException):
        asked.set_exception(answer)
    else:
        asked.set_result(answer)
    return asked


def _rows(answer: Any) -> tuple[list[InvalidState], list[Any]]:
    result = AuditResult()
    _checked("t-1", VALUES, ERRORS, _answered(answer), AgentState, result)
    return result.invalid, result.unreadable


@pytest.mark.parametrize(
    "answer",
    [
        None,
        [],
        "state",
        {"checkpoint": "x", "values": VALUES},
        {"metadata": "m", "values": VALUES},
        {"checkpoint": None, "metadata": [], "values": VALUES},
        ServerRefusal(400, "cannot prepare the next step"),
    ],
    ids=["none", "list", "text", "checkpoint-text", "metadata-text", "null-parts", "400"],
)
def test_an_odd_answer_keeps_the_searchs_row_without_an_id_or_step(answer):
    assert _rows(answer) == ([InvalidState("t-1", "", None, None, ERRORS)], [])


def test_a_well_shaped_answer_names_its_checkpoint_and_step():
    answer = {"checkpoint": {"checkpoint_id": "c-9"}, "metadata": {"step": 3}, "values": VALUES}
    assert _rows(answer) == ([InvalidState("t-1", "c-9", 3, None, ERRORS)], [])


@pytest.mark.parametrize("status", [401, 404, 500])
def test_a_refusal_other_than_400_is_raised(status):
    refusal = ServerRefusal(status, "no")
    with pytest.raises(ServerRefusal) as raised:
        _rows(refusal)
    assert (raised.value.status, raised.value.message) == (status, "no")
