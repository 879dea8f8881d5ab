"""ui.errors.keyboard with AppTest: a selectable error table brings its keyboard script (our
own, naming only its table) and says which keys pick a row; a plain table brings neither."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from ui import keys
from ui.errors.keyboard import ROW_KEYS_HELP

SCRIPT = (Path(__file__).parents[2] / "ui" / "errors" / "keyboard.js").read_text(encoding="utf-8")
HIDDEN = (
    "<style>[data-testid='stElementContainer']:has(script[data-error-table])"
    " { display: none; }</style>"
)


def _table(selectable: bool) -> None:
    from core.validate.report import validate_text
    from ui import keys
    from ui.errors.view import error_table

    report = validate_text('{"user_id": 1, "amount": "x"}')
    error_table(report, key=keys.ERRORS, texts=None, selectable=selectable)


def _html(at: AppTest) -> list[tuple[str, bool]]:
    return [(html.proto.body, html.proto.unsafe_allow_javascript) for html in at.get("html")]


def test_a_selectable_error_table_brings_its_keyboard_script_and_says_which_keys_pick_a_row():
    at = AppTest.from_function(_table, args=(True,)).run()
    assert not at.exception
    script = (
        f'{HIDDEN}<script data-error-table=".st-key-{keys.table(keys.ERRORS)}">{SCRIPT}</script>'
    )
    assert _html(at) == [(script, True)]
    assert [caption.value for caption in at.caption] == [
        ROW_KEYS_HELP,
        "First error (select a row for another) at 1:13",
    ]


def test_a_table_without_selection_brings_no_script_and_no_keys_to_name():
    at = AppTest.from_function(_table, args=(False,)).run()
    assert not at.exception
    assert _html(at) == []
    assert [caption.value for caption in at.caption] == []
