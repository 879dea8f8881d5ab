"""core.warnings_capture: two sessions capturing warnings at once each get their own."""

from __future__ import annotations

import threading
import time
import warnings

from core.warnings_capture import recorded_warnings


def _capture(name: str, start: float, results: dict[str, list[str]]) -> None:
    time.sleep(start)
    with recorded_warnings() as caught:
        warnings.warn(f"from {name}, first", stacklevel=1)
        time.sleep(0.05)  # the other thread starts its capture meanwhile
        warnings.warn(f"from {name}, second", stacklevel=1)
    results[name] = [str(w.message) for w in caught]


def test_overlapping_captures_in_two_threads_each_record_only_their_own_warnings():
    results: dict[str, list[str]] = {}
    filters = list(warnings.filters)
    threads = [
        threading.Thread(target=_capture, args=(name, start, results))
        for name, start in (("A", 0.0), ("B", 0.02))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert results == {
        "A": ["from A, first", "from A, second"],
        "B": ["from B, first", "from B, second"],
    }
    assert warnings.filters == filters  # restored


def test_a_capture_inside_a_capture_does_not_wait_for_itself():
    with recorded_warnings() as outer:
        with recorded_warnings() as inner:
            warnings.warn("inner", stacklevel=1)
        warnings.warn("outer", stacklevel=1)
    assert ([str(w.message) for w in outer], [str(w.message) for w in inner]) == (
        ["outer"],
        ["inner"],
    )
