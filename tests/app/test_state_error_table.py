"""The fitted state-error table (ui.errors.state_table.state_error_table) on what a hostile
store can hold: Pydantic copies a stored value into its message (union_tag_invalid), so a
message may carry any number of line breaks or be huge. The widths come back at once and
bounded (the message column once widened forever: more width never removes a line break)."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager

from core.order.models import AgentState
from core.stores.decode.state import json_state_errors
from core.validate.field_errors import value_errors
from core.validate.report import Report
from ui.errors.state_table import state_error_table

VALID = {"user_id": "550e8400-e29b-41d4-a716-446655440000", "amount": 1}


@contextmanager
def _within(seconds: int) -> Iterator[None]:
    """Fail, not hang, should the body run past `seconds`."""

    def stop(*_: object) -> None:
        raise TimeoutError(f"state_error_table still running after {seconds} s")

    before = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def _rows(tag: str) -> list[dict[str, str]]:
    """The table's rows for a state whose message's type is `tag`, as the Threads page
    builds them (Pydantic's own errors of the stored values)."""
    values = VALID | {"messages": [{"type": tag, "content": "hi"}]}
    errors = [e | {"loc": tuple(e["loc"])} for e in json_state_errors(values, AgentState)]
    return Report(model=AgentState, raw=values, errors=value_errors(errors, values)).to_rows()


def _widths(rows: list[dict[str, str]]) -> dict[str, int]:
    with _within(5):
        table = state_error_table(rows)
    return {name: table["column_config"][name]["width"] for name in table["column_order"]}


def test_a_message_of_many_line_breaks_gets_the_widest_message_column_at_once() -> None:
    rows = _rows("\n".join(["x"] * 20))
    assert [(row["type"], row["message"].count("\n")) for row in rows] == [
        ("union_tag_invalid", 19)
    ]
    assert _widths(rows) == {"path": 91, "message": 900, "type": 125, "input": 120, "ctx": 120}


def test_a_huge_message_is_measured_by_its_start_in_bounded_time() -> None:
    rows = _rows("word " * 40_000)  # 200 KB, copied into Pydantic's message
    assert len(rows[0]["message"]) > 200_000
    start = time.perf_counter()
    widths = _widths(rows)
    assert (widths["message"], time.perf_counter() - start < 2.0) == (900, True)
