"""ui.editor.json_editor's run-to-run rules: whose text wins, which text marks are in, when go-to fires."""

from __future__ import annotations

from ui.editor.json_editor import _Sync, _Value

SEED = '{"qty": 1}'


def run(
    sync: _Sync, text: str, value: _Value | None, goto: tuple[int, int] | None = None
) -> tuple[str, dict[str, int] | None, str]:
    """One script run as json_editor does it: begin, the frontend's value, finish."""
    at, request = sync.begin(text, value, goto)
    return at, request, sync.finish(text, value)


def test_typing_wins_over_the_stale_text_the_caller_passes_back() -> None:
    sync = _Sync(0, SEED, SEED, "rev:0")
    assert run(sync, SEED, None) == ("rev:0", None, SEED)
    typed = _Value('{"qty": 12}', 0, "i:1")
    # The caller still passes the seed: that is the editor's own past, not a new text.
    assert run(sync, SEED, typed) == ("rev:0", None, '{"qty": 12}')
    more = _Value('{"qty": 123}', 0, "i:2")
    assert run(sync, '{"qty": 12}', more) == ("i:1", None, '{"qty": 123}')
    assert sync.rev == 0


def test_the_editors_current_text_passed_as_text_is_not_a_replacement() -> None:
    sync = _Sync(0, SEED, SEED, "rev:0")
    typed = _Value('{"qty": 12}', 0, "i:1")
    # A page that reads the value first and validates it passes exactly that text.
    assert run(sync, '{"qty": 12}', typed) == ("i:1", None, '{"qty": 12}')
    assert sync.rev == 0


def test_a_new_text_from_the_caller_replaces_and_outranks_older_typing() -> None:
    sync = _Sync(0, SEED, SEED, "rev:0")
    typed = _Value('{"qty": 12}', 0, "i:1")
    run(sync, SEED, typed)
    reset = '{"qty": 0}'
    # Typing sent before the frontend saw revision 1 is dropped; the caller's text wins.
    assert run(sync, reset, typed) == ("rev:1", None, reset)
    assert sync.rev == 1
    assert run(sync, reset, typed) == ("rev:1", None, reset)
    assert sync.rev == 1
    after = _Value('{"qty": 05}', 1, "i:2")
    assert run(sync, reset, after) == ("rev:1", None, '{"qty": 05}')


def test_go_to_fires_on_every_request_but_not_on_the_users_own_reruns() -> None:
    sync = _Sync(0, SEED, SEED, "rev:0")
    assert run(sync, SEED, None, (1, 9))[1] == {"line": 1, "col": 9, "nonce": 1}
    # The same spot asked for again (a button clicked twice): a new request.
    assert run(sync, SEED, None, (1, 9))[1] == {"line": 1, "col": 9, "nonce": 2}
    # A rerun caused by typing while the spot is still selected: the caret stays put.
    typed = _Value('{"qty": 12}', 0, "i:1")
    assert run(sync, SEED, typed, (1, 9))[1] is None
    assert run(sync, '{"qty": 12}', typed, None)[1] is None
    assert run(sync, '{"qty": 12}', typed, (1, 9))[1] == {"line": 1, "col": 9, "nonce": 3}
