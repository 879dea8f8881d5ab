"""Two AppTest sessions in one process never see each other's payload, report or trace."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from core.jsontext.write import to_text
from core.order import SEED_PAYLOAD
from core.order.presets import SEED_TEXT
from tests.app._editor import editor
from ui import keys

VIEWS = Path(__file__).parents[2] / "views"
# Each session's payload carries a key only it uses, so a leak shows up as a foreign path.
TEXT_A = to_text({**SEED_PAYLOAD, "amount": -1, "only_in_a": 1})
TEXT_B = to_text({**SEED_PAYLOAD, "only_in_b": 2})


def _session(page: str) -> AppTest:
    at = AppTest.from_file(str(VIEWS / page), default_timeout=60).run()
    assert not at.exception
    return at


def _error_rows(at: AppTest) -> list[list[tuple[str, str, str, str]]]:
    """Each error table's rows (the page draws one: both verdicts, who rejects each row)."""
    tables = [d.value for d in at.dataframe if "line:col" in d.value.columns]
    cells = [table[["path", "line:col", "type", "rejected by"]] for table in tables]
    return [list(rows.itertuples(index=False, name=None)) for rows in cells]


def _codes(at: AppTest) -> str:
    return "\n".join(code.value for code in at.code)


def test_validate_sessions_keep_their_own_payload_and_errors() -> None:
    a, b = _session("validate.py"), _session("validate.py")
    editor(a, keys.PAYLOAD).set_value(TEXT_A).run()
    editor(b, keys.PAYLOAD).set_value(TEXT_B).run()
    a.run()  # a rerun after the other session changed must still show a's own state

    assert (editor(a, keys.PAYLOAD).value, a.session_state[keys.PAYLOAD_TEXT]) == (TEXT_A, TEXT_A)
    assert (editor(b, keys.PAYLOAD).value, b.session_state[keys.PAYLOAD_TEXT]) == (TEXT_B, TEXT_B)
    assert _error_rows(a) == [
        [
            ("amount", "3:13", "greater_than_equal", "both"),
            ("only_in_a", "17:3", "extra_forbidden", "your model"),  # LangGraph dropped it
        ],
    ]
    # LangGraph runs b: the one row is your model's alone
    assert _error_rows(b) == [[("only_in_b", "17:3", "extra_forbidden", "your model")]]
    assert "only_in_b" not in _codes(a) and "only_in_a" not in _codes(b)

    fresh = _session("validate.py")
    assert editor(fresh, keys.PAYLOAD).value == SEED_TEXT


def test_trace_sessions_run_their_own_payload() -> None:
    a, b = _session("trace.py"), _session("trace.py")
    a.session_state[keys.PAYLOAD_TEXT] = TEXT_A
    a.button(key=keys.RUN).click().run()
    b.button(key=keys.RUN).click().run()
    a.run()

    trace_a = a.session_state[keys.TRACE_RESULT]["trace"]
    trace_b = b.session_state[keys.TRACE_RESULT]["trace"]
    assert a.session_state[keys.TRACE_RESULT]["settings"]["payload"] == TEXT_A
    assert b.session_state[keys.TRACE_RESULT]["settings"]["payload"] == SEED_TEXT
    assert [(e.path, e.type) for e in trace_a.gate_errors] == [
        ("amount", "greater_than_equal"),
        ("only_in_a", "extra_forbidden"),
    ]
    assert trace_a.steps == []
    assert trace_b.gate_errors == []
    assert [(s.node, s.status) for s in trace_b.steps] == [
        ("__start__", "pending"),
        ("validate_order", "validated"),
        ("confirm", "confirmed"),
    ]
    assert "only_in_a" not in _codes(b)
