"""The Trace page draws a value of megabytes bounded: each long line cut and said cut as the
Validate page says it ("… N more characters"), at most MAX_VALUE_LINES lines, the whole value
a download away; the run's verdicts are those of the same payload drawn whole."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from tests.app._editor import editor
from ui import keys
from ui.text import plain

PAGE = str(Path(__file__).resolve().parents[2] / "views" / "trace.py")
USER_ID = "550e8400-e29b-41d4-a716-446655440000"
CONTENT = "日本🎉" + "x" * 1_990_000  # ~1.99 MB of one message: Validate accepts it
BIG = {
    "user_id": USER_ID,
    "amount": 5,
    "items": [{"sku": "SKU-01", "qty": 1, "unit_price": 1.5}],
    "messages": [{"type": "human", "content": CONTENT}],
}
# The content's line as drawn: its first 300 characters (18 of indent and key, the three of
# 日本🎉, then 279 x), then the count of the rest: 1,990,023 characters less those 300.
CONTENT_LINE = ['      "content": "日本🎉' + "x" * 279, "… 1,989,722 more characters"]
# What the page draws for the __start__ row's update, the payload as LangGraph was given it.
BIG_UPDATE = "\n".join(
    [
        "{",
        f'  "user_id": "{USER_ID}",',
        '  "amount": 5,',
        '  "items": [',
        "    {",
        '      "sku": "SKU-01",',
        '      "qty": 1,',
        '      "unit_price": 1.5',
        "    }",
        "  ],",
        '  "messages": [',
        "    {",
        '      "type": "human",',
        *CONTENT_LINE,
        "    }",
        "  ]",
        "}",
    ]
)


@contextmanager
def deferred_downloads() -> Iterator[dict[str, Callable[[], Any]]]:
    """The downloads whose data is made on a click (a callable), by file name: calling one
    is what Streamlit does when the button is clicked."""
    offered: dict[str, Callable[[], Any]] = {}
    original = MediaFileManager.add_deferred

    def record(self, data_callable, mimetype, coordinates, file_name=None, **kwargs):
        offered[file_name] = data_callable
        return original(self, data_callable, mimetype, coordinates, file_name, **kwargs)

    with patch.object(MediaFileManager, "add_deferred", record):
        yield offered


def _ran(payload: dict[str, Any]) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    editor(at, keys.PAYLOAD).input(json.dumps(payload, ensure_ascii=False)).run()
    return at.button(key=keys.RUN).click().run()


def _drawn_texts(at: AppTest) -> list[str]:
    """Every text the page draws for the run (the editors' own text aside: they edit it)."""
    kinds = ("markdown", "caption", "code", "text", "json", "success", "info", "warning", "error")
    texts = [str(element.value) for kind in kinds for element in at.get(kind)]
    for table in at.dataframe:
        texts += [str(cell) for row in table.value.itertuples(index=False) for cell in row]
    return texts


def _table(at: AppTest) -> list[tuple[Any, ...]]:
    frame = next(d for d in at.dataframe if "check" in d.value.columns).value
    return list(frame[["step", "node", "status", "check", "error"]].itertuples(index=False))


@pytest.fixture(scope="module")
def big() -> Iterator[tuple[AppTest, dict[str, Callable[[], Any]]]]:
    with deferred_downloads() as offered:
        yield _ran(BIG), offered


def test_a_megabyte_message_is_drawn_cut_with_the_cut_said_and_the_verdicts_kept(big):
    at, _ = big
    assert not at.exception
    texts = _drawn_texts(at)
    # Drawn whole, the page held the 1.99 MB message seven times over (12 million characters).
    assert sum(len(text) for text in texts) < 12_000, sorted(map(len, texts))[-5:]
    codes = [code.value for code in at.code]
    assert codes[0] == BIG_UPDATE
    assert [line for code in codes for line in code.split("\n") if "more character" in line] == [
        "… 1,989,722 more characters",  # the update (the payload as written)
        "… 1,989,723 more characters",  # the whole state: the message has its id
        "… 1,989,723 more characters",  # invoke() returns
        "… 1,989,723 more characters",  # the validated output
    ]
    assert _table(at) == [
        (0, "__start__", "pending", "✓", ""),
        (1, "validate_order", "validated", "✓", ""),
        (2, "confirm", "confirmed", "✓", ""),
    ]
    assert [s.value for s in at.success] == ["LangGraph finished the run without raising."]
    assert ([e.value for e in at.error], [w.value for w in at.warning]) == ([], [])


def test_each_cut_value_says_its_size_and_downloads_whole(big):
    at, offered = big
    cut = [c.value for c in at.caption if c.value.startswith("Cut to fit")]
    assert cut == [
        f"Cut to fit the page (each … says what is left out); the whole {name} is {size}:"
        for name, size in [
            ("update", "1,990,242 characters"),
            ("state", "1,990,277 characters"),
            ("output", "1,990,436 characters"),
            ("validated output", "1,990,438 characters"),
        ]
    ]
    assert [(b.label, b.key) for b in at.get("download_button")][:4] == [
        ("Download the whole update (JSON)", "step__update__whole"),
        ("Download the whole state (JSON)", "step__state__whole"),
        ("Download the whole output (JSON)", "output__raw__whole"),
        ("Download the whole validated output (JSON)", "output__model__whole"),
    ]
    assert json.loads(offered["update.json"]()) == BIG
    contents = [
        [m["content"] for m in json.loads(offered[f"{name}.json"]())["messages"]]
        for name in ("state", "output", "validated_output")
    ]
    assert contents == [[CONTENT], [CONTENT, "Order validated"], [CONTENT, "Order validated"]]


def test_the_merge_tables_cells_are_cut_as_the_code_is(big):
    at, _ = big
    (merge,) = [d.value for d in at.dataframe if "reducer" in d.value.columns]
    row = merge.set_index("field").loc["messages"]
    head = '[{"type": "human", "content": "日本🎉'
    assert (row["update"], row["after"]) == (
        head + "x" * (300 - len(head)) + "… 1,989,737 more characters",
        head + "x" * (300 - len(head)) + "… 1,989,752 more characters",
    )


def test_stepping_a_cut_run_stays_bounded():
    at = _ran(BIG)
    at.button(key=keys.step_button(keys.STEP_SLIDER, "next")).click().run()
    assert at.session_state[keys.STEP_SLIDER] == 1
    assert sum(len(text) for text in _drawn_texts(at)) < 12_000
    # validate_order's input (the validated model: amount 5.0, the message with its id) is
    # cut; its update is small and drawn whole.
    assert at.code[0].value.split("\n")[-9:] == [
        '  "messages": [',
        "    {",
        '      "type": "human",',
        CONTENT_LINE[0],
        "… 1,989,723 more characters",  # 1 more than the payload's: the id's comma
        '      "id": "msg-1"',
        "    }",
        "  ]",
        "}",
    ]
    assert [(b.label, b.key) for b in at.get("download_button")][:2] == [
        ("Download the whole input (JSON)", "step__input__whole"),
        ("Download the whole state (JSON)", "step__state__whole"),
    ]
    assert json.loads(at.code[1].value) == {
        "status": "validated",
        "logs": ["amount=5.0 items=1"],
        "messages": [{"type": "ai", "content": "Order validated", "id": "msg-2"}],
    }


def test_a_value_of_many_lines_shows_the_first_and_counts_the_rest():
    at = _ran({"user_id": USER_ID, "amount": 5, "logs": ["a"] * 1000})
    assert not at.exception
    update = at.code[0].value.split("\n")
    # 1,006 lines in all: the first 200 drawn ("{", user_id, amount, "logs": [ and 196 logs).
    assert update == [
        "{",
        f'  "user_id": "{USER_ID}",',
        '  "amount": 5,',
        '  "logs": [',
        *['    "a",'] * 196,
        "… 806 more lines",
    ]


def test_an_error_that_quotes_a_megabyte_value_is_drawn_cut_and_downloads_whole():
    # add_messages quotes the whole message in its error: the headline, the stopped panel and
    # "LangGraph's error, in full" each drew it whole (a million characters each)
    content = "y" * 1_000_000
    payload = {"user_id": USER_ID, "amount": 5, "messages": [{"content": content}]}
    with deferred_downloads() as offered:
        at = AppTest.from_file(PAGE, default_timeout=120).run()
        at.radio(key=keys.TRACE_MODE).set_value("native").run()
        editor(at, keys.PAYLOAD).input(json.dumps(payload)).run()
        at.button(key=keys.RUN).click().run()
    assert not at.exception
    assert sum(len(text) for text in _drawn_texts(at)) < 12_000
    (headline,) = [e.value for e in at.error if e.value.startswith("LangGraph stopped")]
    # LangGraph's first line, cut after 300 characters as Validate cuts a line (Markdown-safe)
    assert headline.endswith(plain("yyyy … 999,772 more characters."))
    assert len(headline) < 600
    whole = offered["error.txt"]()
    assert content in whole and len(whole) > 1_000_000
    assert [(b.label, b.key) for b in at.get("download_button") if b.key.startswith("trace_")] == [
        ("Download the whole error (text)", "trace_error__whole")
    ]
