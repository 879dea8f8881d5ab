"""One stored thread: its checkpoint timeline, a stepper, the stored state, errors, writes."""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.jsontext.paths import format_path
from core.jsontext.write import clip, jsonable
from core.stores.serde import find_refused
from core.stores.state import plain_data
from core.stores.threads import short_time
from core.stores.timeline import Checkpoint, Timeline
from core.trace.reducers import dump_json, merge_rows, model_reducers, reducer_for
from core.validate.field_errors import value_errors
from core.validate.report import Report
from core.words import article
from ui import keys
from ui.errors.state_table import state_error_table
from ui.errors.view import Verdicts, verdict
from ui.stepper import step_controls
from ui.tables import wrapped_row_height
from ui.text import plain
from ui.threads.coded import show_coded
from ui.threads.columns import TIMELINE_LAYOUT, WRITES_LAYOUT, fit_words
from ui.threads.listing import short_ids

__all__ = ["as_json", "set_step", "thread_headline", "thread_view"]

STATE_VERDICTS = Verdicts(
    "Valid — this stored state passes the model.",
    "Invalid — {count} in this stored state.",
    "Invalid — this stored state cannot be read.",
)


def as_json(value: Any) -> Any:
    """A stored value as JSON-safe data (messages as their fields, anything else as text)."""
    return jsonable(value)


def _text(value: Any, limit: int = 200) -> str:
    """A stored write as the merge view shows values (messages as type, content and id)."""
    text = dump_json(value)
    return clip(text, limit)


def _short(ids: list[str]) -> dict[str, str]:
    """Each id as a table shows it: its start and end (the stepped checkpoint has it whole)."""
    unique = list(dict.fromkeys(i for i in ids if i))
    return dict(zip(unique, short_ids(unique), strict=True)) | {"": ""}


def _timeline_frame(timeline: Timeline) -> pd.DataFrame:
    rows = timeline.checkpoints
    short = _short([c.checkpoint_id for c in rows] + [c.parent_id or "" for c in rows])
    return pd.DataFrame(
        {
            "step": ["" if c.step is None else str(c.step) for c in rows],
            "source": [c.source for c in rows],
            "written by": [c.node or "" for c in rows],
            "changed": [", ".join(c.changed) for c in rows],
            "errors": [len(c.errors) for c in rows],
            "unreadable": [c.unreadable.code if c.unreadable else "" for c in rows],
            "pending": [", ".join(c.pending) for c in rows],
            "time": [short_time(c.time) for c in rows],
            "checkpoint_id": [short[c.checkpoint_id] for c in rows],
            "parent_id": [short[c.parent_id or ""] for c in rows],
        }
    )


def _writes_frame(checkpoint: Checkpoint) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "node": [w.node or "(no node)" for w in checkpoint.writes],
            "channel": [w.channel for w in checkpoint.writes],
            "value": [_text(w.value) for w in checkpoint.writes],
            "task_id": list(
                map(
                    _short([w.task_id for w in checkpoint.writes]).get,
                    [w.task_id for w in checkpoint.writes],
                )
            ),  # fmt: skip
        }
    )


def _merge_frame(
    checkpoint: Checkpoint, before: Any, model: type[BaseModel]
) -> pd.DataFrame | None:
    """Trace's merge view for a stored step: per write to a state field, the value before
    (the parent's state), the update, the reducer LangGraph applies, the value after."""
    declared = model_reducers(model)
    previous = before if isinstance(before, dict) else {}
    after = checkpoint.state if isinstance(checkpoint.state, dict) else {}
    rows = [
        {"node": write.node or "(no node)", **row}
        for write in checkpoint.writes
        if not write.channel.startswith("_") and ":" not in write.channel
        for row in merge_rows(
            previous,
            {write.channel: write.value},
            after,
            {write.channel: reducer_for(declared, write.channel, write.value)},
        )
    ]
    return pd.DataFrame(rows) if rows else None


def _label(timeline: Timeline, index: int) -> str:
    """A slider option as a screen reader reads it: plain words, no symbols; a part the
    store does not say (a server's checkpoint may have no step) is left out, never "None".

    Example:
        >>> from core.stores.threads.timeline import Checkpoint, Timeline
        >>> def made(step, source):
        ...     return Checkpoint("c", None, step, source, "", {}, {}, [], [], [])
        >>> line = Timeline("t", [made(-1, "input"), made(None, "")], blamed=None)
        >>> [_label(line, 0), _label(line, 1)]
        ['checkpoint 1 of 2 · step -1 · input', 'checkpoint 2 of 2']
    """
    checkpoint, count = timeline.checkpoints[index], len(timeline.checkpoints)
    mark = "unreadable" if checkpoint.unreadable else "invalid" if checkpoint.errors else ""
    step = "" if checkpoint.step is None else f"step {checkpoint.step}"  # a server may not say
    parts = (f"checkpoint {index + 1} of {count}", step, checkpoint.source or "", mark)
    return " · ".join(part for part in parts if part)


def _errors(checkpoint: Checkpoint, model: type[BaseModel], key: str) -> None:
    if checkpoint.unreadable is not None:  # nothing of it was validated: say why, coded
        show_coded("This checkpoint cannot be read, so it is not validated", checkpoint.unreadable)
        return
    if find_refused(checkpoint.state):  # markers, not values: the audit's refusal rows
        st.error("Invalid — the playground's allow-list refused a stored value (it was not run).")
        st.dataframe(
            pd.DataFrame(
                {
                    "field": [format_path(e["loc"]) for e in checkpoint.errors],
                    "type": [e["type"] for e in checkpoint.errors],
                    "message": [e["msg"] for e in checkpoint.errors],
                }
            ),
            key=keys.each(key, "refused"),
            hide_index=True,
        )
        return
    # the errors the audit found (instances checked from their data, an input written
    # through the reducers), placed by the Validate page's paths
    plain = plain_data(checkpoint.state)
    rows = [error | {"loc": tuple(error["loc"])} for error in checkpoint.errors]
    report = Report(model=model, raw=plain, errors=value_errors(rows, plain))
    verdict(report, texts=STATE_VERDICTS)
    # A state's errors, each column as wide as its words in the thread's pane (the input
    # was cut to "inp" there), and no line:col (a stored state has no text).
    if report.errors:
        shown = report.to_rows()
        st.dataframe(pd.DataFrame(shown), key=keys.table(key), **state_error_table(shown))


def _said_again(note: str | None, get_state: str) -> bool:
    """Whether LangGraph's get_state only repeats the error the history note already holds
    (a server refuses both with the same validation message)."""
    _, _, message = get_state.partition(": ")
    return note is not None and len(message) > 20 and message in note


def thread_headline(
    timeline: Timeline, name: str, get_state: str | None = None, *, candidate: bool = False
) -> None:
    """The open thread: its whole id (a copy button), what its stored states are under the
    model judging them (`name`; `candidate`: a changed model, so "would not resume"), and
    LangGraph's own get_state only when it was run (`get_state`: its outcome, None when no
    graph ran it). An error is said once: get_state repeating the history's note is not."""
    latest = timeline.checkpoints[-1]
    st.code(timeline.printable_id, language=None, wrap_lines=True)
    with st.container(key=keys.THREADS_BLAME):
        if latest.unreadable is not None:
            st.error("The latest checkpoint of this thread cannot be read.")
        elif timeline.blamed is None:
            st.success(f"The latest state of this thread is valid under {plain(name)}.")
        elif candidate:
            st.error(
                f"This thread would not resume under {plain(name)}: its latest state fails it."
            )
        elif timeline.does_not_fit:
            st.warning(
                f"No stored state of this thread fits {plain(name)}, from its first checkpoint "
                "on: it was written with another model, or with an input the model rejects."
            )
        else:
            st.error(f"This thread's latest state fails {plain(name)}.")
        st.code(timeline.blame_line(), language=None, wrap_lines=True)
        if timeline.note is not None:  # why the history is not all there: coded, plain text
            st.code(timeline.note, language=None, wrap_lines=True)
        if get_state is not None and _said_again(timeline.note, get_state):
            st.caption("Asked just now, LangGraph's own get_state fails with the same error.")
        elif get_state is not None:
            st.caption("Asked just now, of LangGraph itself:")
            st.code(get_state, language=None, wrap_lines=True)


def thread_view(timeline: Timeline, model: type[BaseModel]) -> Checkpoint:
    """The timeline table, the stepper, then the chosen checkpoint in full (the headline is
    `thread_headline`, above the thread's tabs)."""
    if timeline.interrupts:
        st.caption("Pending interrupts (what interrupt() was called with):")
        st.json(as_json(timeline.interrupts), expanded=False)
    if timeline.namespaces:
        st.caption("Subgraph namespaces stored for this thread:")
        st.code("\n".join(timeline.namespaces), language=None)
    frame = _timeline_frame(timeline)
    layout = fit_words(TIMELINE_LAYOUT, frame)  # no word split over lines
    widths = {name: column["width"] for name, column in layout["column_config"].items()
              if isinstance(column.get("width"), int)}  # fmt: skip
    st.dataframe(
        frame,
        key=keys.THREADS_TIMELINE,
        row_height=wrapped_row_height(  # what wraps (a time, changed fields), in its column
            frame[list(widths)].astype(str).to_dict("records"), widths, most_lines=3
        ),
        **layout,
    )
    set_step(timeline)
    last = len(timeline.checkpoints) - 1
    # Trace's stepper: Prev / Next side by side, then the slider
    index = step_controls(
        last + 1,
        functools.partial(_label, timeline),
        slider=keys.THREADS_STEP,
        label="Checkpoint",
    )
    checkpoint = timeline.checkpoints[index]
    parent = next(
        (c for c in timeline.checkpoints if c.checkpoint_id == checkpoint.parent_id), None
    )
    state_col, detail_col = st.columns(2)
    with state_col:
        st.caption("Stored channel values (raw, as the saver returns them)")
        if checkpoint.unreadable is None:
            st.json(as_json(checkpoint.values), expanded=2)
        else:
            st.text("Not read: see why beside.")
    with detail_col:
        st.caption("This checkpoint's ids, whole (the tables show their start and end)")
        st.code(_ids(checkpoint), language=None, wrap_lines=True)
        st.caption("This state against the model")
        _errors(checkpoint, model, key=keys.THREADS_ERRORS)
        st.caption("The writes that produced it, with the node that made each")
        if checkpoint.writes:
            st.dataframe(_writes_frame(checkpoint), key=keys.THREADS_WRITES, **WRITES_LAYOUT)
        else:
            st.text(_no_writes(checkpoint))
    if checkpoint.unreadable is not None:
        return checkpoint
    merges = _merge_frame(checkpoint, parent.state if parent else {}, model)
    st.caption("Merge — per written field: before, update, reducer, after (as on Trace)")
    if merges is not None:
        st.dataframe(merges, key=keys.THREADS_MERGE, hide_index=True)
    else:
        st.text("No write to a state field made this checkpoint.")
    return checkpoint


def set_step(timeline: Timeline) -> None:
    """Put the stepper where the timeline opens, before it is drawn: a thread newly opened at
    its blamed checkpoint (its latest when valid), a checkpoint asked for by id at itself.

    The slider keeps its choice as the label it showed, and a label counts the checkpoints
    ("4 of 4"): once a write grows the timeline, that label names no option and Streamlit
    would fall back to the first. So a timeline whose checkpoints changed since the stepper
    was drawn is set to the checkpoint it showed, found by id (a write elsewhere must not move
    the user off it; one this page made says where to open with THREADS_OPEN_AT), else opens
    as a thread newly opened does; one whose labels alone changed (another verdict) is set to
    the same checkpoint, under its new label. Called before anything reads THREADS_STEP (the
    share link), and again by `thread_view` (then a no-op)."""
    ss = st.session_state
    last = len(timeline.checkpoints) - 1
    ids = [c.checkpoint_id for c in timeline.checkpoints]
    labels = [_label(timeline, index) for index in range(last + 1)]
    drawn = ss.get(keys.THREADS_STEP_DRAWN) or {}
    ss[keys.THREADS_STEP_DRAWN] = {"thread": timeline.thread_id, "ids": ids, "labels": labels}
    kept = ss.get(keys.THREADS_STEP)
    opened = ss.pop(keys.THREADS_OPEN_AT, None)  # e.g. an unbrick's new head
    moved = ss.get(keys.THREADS_STEP_OF) != timeline.thread_id  # (a link sets both)
    same = drawn.get("thread") == timeline.thread_id  # drawn over this thread last run
    blamed = timeline.checkpoints.index(timeline.blamed) if timeline.blamed else last
    if opened in ids:
        ss[keys.THREADS_STEP] = ids.index(opened)
    elif moved:
        ss[keys.THREADS_STEP] = blamed
    elif same and drawn["ids"] != ids:  # checkpoints written since: the same one, if kept
        was = drawn["ids"][kept] if kept in range(len(drawn["ids"])) else None
        ss[keys.THREADS_STEP] = ids.index(was) if was in ids else blamed
    elif kept not in range(last + 1):
        ss[keys.THREADS_STEP] = blamed
    elif same and drawn["labels"] != labels:
        ss[keys.THREADS_STEP] = kept
    ss[keys.THREADS_STEP_OF] = timeline.thread_id


def _ids(checkpoint: Checkpoint) -> str:
    """The checkpoint's id, its parent's, and each write's task id, whole, one a line."""
    lines = [
        f"checkpoint_id  {checkpoint.checkpoint_id}",
        f"parent_id      {checkpoint.parent_id or '(none: the thread starts here)'}",
    ]
    lines += [f"task_id        {w.task_id}  ({w.node or 'no node'} -> {w.channel})"
              for w in checkpoint.writes]  # fmt: skip
    return "\n".join(lines)


def _no_writes(checkpoint: Checkpoint) -> str:
    """Why a checkpoint shows no writes, in plain words."""
    if checkpoint.unreadable is not None:
        return "Not shown: this checkpoint could not be read."
    if checkpoint.source == "input":
        return "None: the thread's input checkpoint."
    return (
        f"None stored: {article(checkpoint.source)} checkpoint "
        "(update_state or a fork writes no task)."
    )
