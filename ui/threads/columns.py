"""The Threads tables' column layouts: what names a row and its verdict first, sized for a phone.

The server cannot know the screen's width, so each table has one layout for every screen. A
390 px phone draws a table 356 px wide; the columns that say which row it is and what is
wrong with it come first and sum to at most 320 px, so they are drawn whole there, and wrap
(rows over 64 px) where a value is longer than its column. The columns after them are the
details: on a phone a swipe of the table away, and each also in the row's own view further
down (the picked thread, the stepped checkpoint, the audit's CSV and JSON). On a wide screen
Streamlit grows the columns to fill a table wider than their sum, so at 1400 px the tables
show what they showed before.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st
from pandas.api.types import is_numeric_dtype

from ui import keys
from ui.errors.widths import wrapped_column_px

__all__ = [
    "AUDIT_INVALID_LAYOUT",
    "MIGRATE_BROKEN_DETAIL_WIDTHS",
    "MIGRATE_BROKEN_LAYOUT",
    "MIGRATE_CHANGES_LAYOUT",
    "MIGRATE_PHONE_COLUMNS",
    "MIGRATE_STEPS_LAYOUT",
    "MIGRATE_WRITTEN_LAYOUT",
    "PHONE_COLUMNS",
    "THREAD_LIST_DETAIL_WIDTHS",
    "THREAD_LIST_LAYOUT",
    "THREAD_LIST_SHORT_ID",
    "TIMELINE_DETAIL_WIDTHS",
    "TIMELINE_LAYOUT",
    "WRAP_ROW_HEIGHT",
    "WRITES_LAYOUT",
    "fit_words",
    "thread_list_layout",
]

# Streamlit wraps a cell's text only in rows taller than 4rem (64 px); 66 px holds 3 lines.
WRAP_ROW_HEIGHT = 66
_Text = st.column_config.TextColumn


def _texts(widths: dict[str, int]) -> dict[str, Any]:
    """Text columns headed by their names, each of its width in px, in this order."""
    return {name: _Text(name, width=width) for name, width in widths.items()}


def _numbers(widths: dict[str, int]) -> dict[str, Any]:
    """Number columns headed by their names, each of its width in px, in this order."""
    return {
        name: st.column_config.NumberColumn(name, width=width) for name, width in widths.items()
    }


# A thread: its id, then its status ("broken at step 2", "would not resume"). A long id (a
# uuid is 250 px) is cut at 154 px, its start in view; the Thread picker below holds it whole.
# A click on a row opens its thread, so the table draws a row-mark column before them (as the
# plan editor below does): these sum to 280, not 320.
_THREAD_LIST = _texts({"thread_id": 154, "status": 126})
# A checkpoint: its step and source ("loop", "input"), then who wrote it and how many errors
# its state has. What changed, the time and the ids are in the stepped checkpoint below.
_TIMELINE = {
    **_texts({"step": 40, "source": 58, "written by": 110}),
    "errors": st.column_config.NumberColumn(
        "errors", width=56, help="How many errors the stored state has under the model."
    ),
}
# A write: the node and the channel it wrote, then the value (its start: the stored channel
# values beside hold it whole; rows stay one line, as at 1400 px). The task id follows.
_WRITES = _texts({"node": 100, "channel": 72, "value": 148})
# An invalid state's error: the thread it is in, the field and the error type, then the step.
# The node that wrote it, the message, the input and the checkpoint id follow.
# Each at least as wide as its longest word (fit_words): the demo's draw 154, 65 and 135 px,
# 354 in all, within a phone's 356 (the step, 36 more, a swipe away, as Migrate's table).
_AUDIT_INVALID = _texts({"thread_id": 108, "field": 60, "type": 108, "step": 36})

# What one step did over the store: its path and action, the states it changed and fixed.
_MIGRATE_STEPS = {
    **_texts({"path": 160, "action": 72}),
    **_numbers({"changed": 44, "fixed": 44}),
}
# A state the plan leaves broken: its thread, then its first error's field and type. The
# message, the count of its errors and the checkpoint id follow. ("thread", not "thread_id":
# the thread list is the one table headed thread_id whenever the audit has not run.)
# Each grows to its longest word (fit_words): the demo's draws them 154, 65 and 135 px,
# 354 in all, within a phone's 356 px table ("fault-negative_amount", "greater_than_equal").
_MIGRATE_BROKEN = _texts({"thread": 108, "field": 60, "type": 98})
# A field the plan changed in the thread shown: the field, then the step and its action.
_MIGRATE_CHANGES = {
    **_texts({"field": 200}),
    **_numbers({"step": 40}),
    **_texts({"action": 80}),
}
# A thread the plan was written to: its id, the checkpoint forked from and the new one, the
# ids as their start and end (short_ids; whole in the downloads), each column as wide as its
# longest word (fit_words: the demo's draws them 103, 107 and 104 px); a long thread id wraps
# between words (rows over 64 px).
_MIGRATE_WRITTEN = _texts({"thread": 100, "from checkpoint": 100, "new checkpoint": 100})


def _layout(
    first: dict[str, Any], rest: list[str], details: dict[str, Any] | None = None, **options: Any
) -> dict[str, Any]:
    """`st.dataframe` keyword arguments: the `first` columns (name: column config, each with
    a width) in order, then `rest`, some of them configured by `details`."""
    return {
        "column_order": [*first, *rest],
        "column_config": first | (details or {}),
        "hide_index": True,
    } | options


# The thread list's detail (the blamed node, pending nodes or first error), at a width that
# fits the list's pane beside the open thread at 1400 px (570 px with the row marks and the
# first two), wrapping inside its column (rows as tall as it needs:
# ui.tables.wrapped_row_height); on a phone a swipe away, as every table's details are. The
# open thread's counts and time are said under the list, not in columns past the pane.
THREAD_LIST_DETAIL_WIDTHS = {"detail": 250}
THREAD_LIST_LAYOUT = _layout(_THREAD_LIST, list(THREAD_LIST_DETAIL_WIDTHS),
                             _texts(THREAD_LIST_DETAIL_WIDTHS))  # fmt: skip
# The list's id column when its ids are shortened (a uuid's 36 characters wrapped over lines
# of every row): its start and end, the whole id in the open thread's box beside the list.
THREAD_LIST_SHORT_ID = _Text(
    "thread_id",
    width=_THREAD_LIST["thread_id"]["width"],
    help="Each id's start and end (…: the middle left out). The open thread shows it whole, "
    "with a copy button.",
)


def thread_list_layout(columns: list[str], *, short_ids: bool = False) -> dict[str, Any]:
    """THREAD_LIST_LAYOUT for a list holding only `columns` (a server does not count
    checkpoints or steps: no empty column); `short_ids`: its thread ids are shortened."""
    config = THREAD_LIST_LAYOUT["column_config"] | (
        {"thread_id": THREAD_LIST_SHORT_ID} if short_ids else {}
    )
    return THREAD_LIST_LAYOUT | {
        "column_order": [name for name in THREAD_LIST_LAYOUT["column_order"] if name in columns],
        "column_config": {name: config[name] for name in config if name in columns},
    }


# The timeline's details at widths that fit the 1400 px page's 938 px of grid with the first
# four (its "written by" as wide as its longest node name: ui.threads.columns.fit_words): a
# checkpoint's ids as their start and end (the stepped checkpoint has them whole; whole, they
# wrapped over three lines, split mid-word), the time over two lines (rows as tall as they
# need: ui.tables.wrapped_row_height), none past the table's edge (#32 item 8).
TIMELINE_DETAIL_WIDTHS = {
    "unreadable": 80,
    "changed": 116,
    "pending": 80,
    "time": 88,
    "checkpoint_id": 110,
    "parent_id": 110,
}
TIMELINE_LAYOUT = _layout(_TIMELINE, list(TIMELINE_DETAIL_WIDTHS), _texts(TIMELINE_DETAIL_WIDTHS))
WRITES_LAYOUT = _layout(
    _WRITES,
    ["task_id"],
    {
        "task_id": _Text(
            "task_id",
            width=120,
            help="Each id's start and end (…: the middle left "
            "out); the checkpoint's ids above hold it whole.",
        )
    },  # fmt: skip
)
# At 1400 px the message took its one line's width (330 px for a Literal's) and pushed the
# checkpoint id past the table's 938 px edge ("checkpo"): it wraps in its column instead (a
# row holds three lines), the input too, so every column is in view with the demo's widths
# (154 + 65 + 135 + 36 + 105 + 220 + 90 + 130 = 935 px).
AUDIT_INVALID_DETAIL_WIDTHS = {"msg": 220, "input": 90}
AUDIT_INVALID_LAYOUT = _layout(
    _AUDIT_INVALID,
    ["node", "msg", "input", "checkpoint_id"],
    {
        **_texts(AUDIT_INVALID_DETAIL_WIDTHS),
        "checkpoint_id": _Text(
            "checkpoint_id",
            width=130,
            help="Each id's start and end (…: the "
            "middle left out); the CSV and JSON below hold it whole.",
        ),
    },
    row_height=WRAP_ROW_HEIGHT,
)
MIGRATE_STEPS_LAYOUT = _layout(_MIGRATE_STEPS, [])
# The broken states' details at widths that fit the 1400 px page's 938 px of grid with the
# first three (154, 65 and 135 px on the demo, each as wide as its longest word): the message
# and the checkpoint id wrap inside their columns (rows as tall as they need, three lines at
# most: the preview's JSON has each whole), not past the table's edge (#32 item 8: the
# message at its natural width took the table 1 to 4 px past it).
MIGRATE_BROKEN_DETAIL_WIDTHS = {"msg": 330, "checkpoint": 130}
MIGRATE_BROKEN_LAYOUT = _layout(
    _MIGRATE_BROKEN,
    ["msg", "errors", "checkpoint"],
    {**_texts(MIGRATE_BROKEN_DETAIL_WIDTHS), **_numbers({"errors": 56})},
)
MIGRATE_CHANGES_LAYOUT = _layout(_MIGRATE_CHANGES, [])
MIGRATE_WRITTEN_LAYOUT = _layout(_MIGRATE_WRITTEN, [], row_height=WRAP_ROW_HEIGHT)

# Per table (by its widget key): the columns drawn whole on a phone.
PHONE_COLUMNS = {
    keys.THREADS_TABLE: list(_THREAD_LIST),
    keys.THREADS_TIMELINE: list(_TIMELINE),
    keys.THREADS_WRITES: list(_WRITES),
    keys.THREADS_AUDIT_INVALID: list(_AUDIT_INVALID)[:3],  # the step a swipe away
}
# The Migrate section's tables, kept apart because most are drawn only after an edit, a
# pick or a write (tests/app/test_threads_migrate.py draws them all).
MIGRATE_PHONE_COLUMNS = {
    keys.THREADS_MIGRATE_STEP_COUNTS: list(_MIGRATE_STEPS),
    keys.THREADS_MIGRATE_BROKEN: list(_MIGRATE_BROKEN),
    keys.THREADS_MIGRATE_CHANGES: list(_MIGRATE_CHANGES),
    keys.THREADS_MIGRATE_WRITTEN_TABLE: list(_MIGRATE_WRITTEN),
}


def fit_words(layout: dict[str, Any], frame: pd.DataFrame) -> dict[str, Any]:
    """`layout` with each sized text column at least as wide as the longest word its cells
    in `frame` hold, measured glyph by glyph (ui.errors.widths): a value wraps between
    words, never inside one ("validate_orde / r"). Ids are shortened before (a uuid is one
    36-character word): the row's detail has them whole.

    Example:
        >>> frame = pd.DataFrame({"written by": ["validate_order", "x"]})
        >>> fit_words(_layout(_texts({"written by": 80}), []), frame)["column_config"][
        ...     "written by"]["width"]
        105
    """
    config = dict(layout.get("column_config", {}))
    for name, column in config.items():
        width = column.get("width") if isinstance(column, dict) else None
        if not isinstance(width, int) or name not in frame or is_numeric_dtype(frame[name]):
            continue
        # the header on one line (headers do not wrap), each word of the values unbroken
        longest = wrapped_column_px(column.get("label") or name, frame[name].astype(str))
        config[name] = {**column, "width": max(width, longest)}
    return layout | {"column_config": config}
