"""The thread list: model choice, filters, one page of threads with their status, a pick."""

from __future__ import annotations

import math
from functools import partial

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.links.threads import PAGE_SIZES, STATUSES
from core.order import AgentState
from core.stores.backends.thread_ids import printable_id
from core.stores.demo import CandidateState
from core.stores.reader import AnyStore, page_starts, thread_page, thread_total
from core.stores.threads import ThreadPage, ThreadStatus, short_time
from core.stores.threads.server_list import NotAThread
from core.words import count
from ui import keys
from ui.tables import wrapped_row_height
from ui.text import plain
from ui.threads.columns import THREAD_LIST_DETAIL_WIDTHS, thread_list_layout

__all__ = ["choose_models", "offered_candidate", "page_numbers", "short_ids", "thread_list"]

_ALL = "all"
_TALL = 12  # the list's rows in view at once, beside the open thread (more: scrolled)
_HEADER = 35  # the grid's header row, in px


def offered_candidate(
    model: type[BaseModel], candidate: type[BaseModel] | None, source: str
) -> tuple[type[BaseModel], str] | None:
    """The changed model the page offers, and how it is labelled: the project's `candidate`
    (configured from `source`), else, on the seed order, the demo's CandidateState."""
    if candidate is not None:
        return candidate, f"{plain(candidate.__name__)} (your candidate, from {source})"
    if issubclass(CandidateState, model) and model is AgentState:
        return (
            CandidateState,
            "CandidateState (the demo's stricter next version: amount at most 500)",
        )
    return None


def choose_models(
    model: type[BaseModel], offered: tuple[type[BaseModel], str] | None, source: str = "default"
) -> type[BaseModel] | None:
    """The `offered` changed model when the user checks the stored states against it rather
    than against `model`, the configured one (None: `model` alone). `source` is where
    `model` was configured ("default": the seed order's state)."""
    where = "the seed order's state" if source == "default" else f"your model, from {source}"
    options = {"same": f"{plain(model.__name__)} ({where})"}
    if offered is not None:
        options["candidate"] = offered[1]
    if st.session_state.get(keys.THREADS_CURRENT) not in options:
        st.session_state[keys.THREADS_CURRENT] = "same"
    chosen = st.radio(
        "Check the stored states against",
        list(options),
        format_func=options.get,
        key=keys.THREADS_CURRENT,
        help="A state valid under the model it was written with, but not under a changed "
        "model, 'would not resume' once the change ships. Configure yours with --candidate, "
        "candidate = ... in playground.toml or PLAYGROUND_CANDIDATE.",
    )
    return offered[0] if offered is not None and chosen == "candidate" else None


def _reset_pages() -> None:
    st.session_state[keys.THREADS_CURSORS] = [""]


def _next(after: str) -> None:
    st.session_state[keys.THREADS_CURSORS].append(after)


def _previous() -> None:
    if len(st.session_state[keys.THREADS_CURSORS]) > 1:
        st.session_state[keys.THREADS_CURSORS].pop()


_ALL_PAGES = 200  # up to this many pages, the page box offers every one


def page_numbers(current: int, last: int) -> list[int]:
    """The pages the page box offers: every one of a list up to _ALL_PAGES long; of a longer
    one the first pages, those around `current`, every hundredth of the list and the last
    (a box of a few hundred options, whatever the store's size).

    Example:
        >>> page_numbers(2, 5), len(page_numbers(1, 40_000))
        ([1, 2, 3, 4, 5], 111)
        >>> page_numbers(5_000, 40_000)[:8], page_numbers(5_000, 40_000)[-2:]
        ([1, 2, 3, 4, 5, 400, 800, 1200], [39600, 40000])
    """
    if last <= _ALL_PAGES:
        return list(range(1, last + 1))
    step = math.ceil(last / 100)
    near = range(max(1, current - 10), min(last, current + 10) + 1)
    return sorted({*range(1, 6), *near, *range(step, last, step), last})


def _jump() -> None:
    st.session_state[keys.THREADS_PAGE_JUMP] = st.session_state[keys.THREADS_PAGE]


def _open_row(ids: list[str]) -> None:
    """A click on a row of the table (`ids`, its threads in order), on any of its cells or on
    its mark, opens that thread; a row naming no thread (`NotAThread`) opens nothing. The
    row shown is kept marked (`_select`), so a cell clicked comes beside that mark, and a
    mark clicked replaces it; the shown row's own mark, cleared, leaves it shown (and
    marked again)."""
    selection = st.session_state[keys.THREADS_TABLE]["selection"]
    if not selection["rows"]:
        return
    row = selection["cells"][0][0] if selection["cells"] else selection["rows"][0]
    if 0 <= row < len(ids) and not isinstance(ids[row], NotAThread):
        st.session_state[keys.THREADS_THREAD] = ids[row]


def _select(row: int) -> None:
    """The table's selected row follows the thread shown (picked in the Thread box, by a link
    or first listed): only a row the user clicked would leave the two apart."""
    selected = st.session_state.get(keys.THREADS_TABLE)
    if selected is None or list(selected["selection"]["rows"]) != [row]:
        st.session_state[keys.THREADS_TABLE] = {
            "selection": {"rows": [row], "columns": [], "cells": []}
        }


_SHORT = 24  # ids up to this long are shown whole (a column's width); a uuid (36) is cut
_TAIL_MAX = 40  # past this, ids that still look alike are shown whole


def short_ids(ids: list[str]) -> list[str]:
    """The list's thread ids as it shows them: each id up to _SHORT characters whole, a
    longer one as its first 8 and its last characters around "…", its end as long as it
    takes to tell it from the others listed.

    Example:
        >>> short_ids(["model-change", "10000000-0000-4000-8000-000000000004",
        ...            "10000000-0000-4000-8000-000000000014"])
        ['model-change', '10000000…0004', '10000000…0014']
    """
    # ids come from the store: a tail longer than _TAIL_MAX gains nothing a reader can use
    # and made this quadratic in the ids' length (two 120,000-character ids took 9 s)
    for tail in range(4, min(max(map(len, ids), default=0), _TAIL_MAX)):
        shown = [i if len(i) <= _SHORT else f"{i[:8]}…{i[-tail:]}" for i in ids]
        if len(set(shown)) == len(set(ids)):
            return shown
    return list(ids)


def _frame(page: ThreadPage) -> pd.DataFrame:
    """The list's table, as wide as its pane beside the open thread: each thread's id
    (shortened where it is long), status and detail. Its counts and time are said of the
    open thread under the list (`_counts`): as columns they took the table past its pane."""
    rows = page.rows
    return pd.DataFrame({
        "thread_id": short_ids([row.printable_id for row in rows]),  # a BLOB: b'...'
        "status": [row.label() for row in rows],
        "detail": [row.detail for row in rows],
    })  # fmt: skip


def _counts(page: ThreadPage, thread: str | None) -> None:
    """The open thread's checkpoints, last step and last time: what the store gives."""
    row = next((row for row in page.rows if row.thread_id == thread), None)
    if row is None:
        return
    said = [count(row.checkpoints, "checkpoint")] if row.checkpoints is not None else []
    said += [f"last step {row.last_step}"] if row.last_step is not None else []
    said += [f"last written {short_time(row.last_time)}"] if row.last_time else []
    if said:
        st.caption(plain("The open thread: " + " · ".join(said)))


def _fit_note(page: ThreadPage, model: type[BaseModel]) -> None:
    """When no thread listed ever fit the model: say so of the store, not "broken"."""
    misfits = [row for row in page.rows if row.status is ThreadStatus.DOES_NOT_FIT]
    if not misfits or len(misfits) < len(page.rows):
        return
    st.warning(
        f"This store's states do not fit {plain(model.__name__)}: none of the "
        f"{count(len(page.rows), 'thread')} listed has a state that fits it, from its first "
        "checkpoint on. If they were written with another model, choose that one (--model, "
        "playground.toml or PLAYGROUND_MODEL). The first fields that differ:"
    )
    st.code(misfits[0].detail, language=None, wrap_lines=True)


def thread_list(
    store: AnyStore, model: type[BaseModel], current: type[BaseModel] | None
) -> str | None:
    """Filters, one page of threads as a table, paging buttons; returns the picked thread."""
    search, status_col, size_col = st.columns([3, 2, 2])
    contains = search.text_input(
        "Thread id contains", key=keys.THREADS_CONTAINS, on_change=_reset_pages
    )
    status = status_col.selectbox(
        "Status", STATUSES, key=keys.THREADS_STATUS, on_change=_reset_pages
    )
    size = size_col.selectbox(
        "Per page", PAGE_SIZES, key=keys.THREADS_PAGE_SIZE, on_change=_reset_pages
    )
    total = thread_total(store, contains)
    # Page numbers to jump to when the list's length is known: every thread, or every one
    # whose id holds the text (a status filter is known only thread by thread, as read)
    pages = None if total is None or status != _ALL else max(1, math.ceil(total / size))
    jump = st.session_state.pop(keys.THREADS_PAGE_JUMP, None)
    if pages is not None and isinstance(jump, int) and 1 <= jump <= pages:
        st.session_state[keys.THREADS_CURSORS] = page_starts(store, contains, size, jump)
    cursors = st.session_state.setdefault(keys.THREADS_CURSORS, [""])
    page = thread_page(
        store,
        model,
        current=current,
        contains=contains,
        status=None if status == _ALL else ThreadStatus(status),
        after=cursors[-1] if len(cursors) > 1 else None,  # the first page's is a placeholder
        limit=size,
    )
    listed = [row.thread_id for row in page.rows]  # the table's rows, in order
    # the threads a pick opens: not a row the server's list held something else in
    ids = [thread for thread in listed if not isinstance(thread, NotAThread)]
    if not ids:  # a thread picked before (in another store, or other filters) is not listed
        st.session_state.pop(keys.THREADS_THREAD, None)
    elif st.session_state.get(keys.THREADS_THREAD) not in ids:
        st.session_state[keys.THREADS_THREAD] = ids[0]
    if not page.rows and page.next_after is not None:
        st.info(
            f"None of the {count(page.scanned, 'thread')} looked at matches; press Next to look "
            "further (a status filter reads each thread's latest checkpoint)."
        )
    elif not page.rows:
        st.info(
            "No thread matches these filters."
            if contains or status != _ALL or len(cursors) > 1
            else "This store holds no threads yet."
        )
    else:
        _fit_note(page, model)
        st.caption("Click a row to open its thread.")
        if ids:
            _select(listed.index(st.session_state[keys.THREADS_THREAD]))
        frame = _frame(page)
        row_height = wrapped_row_height(  # a list: three lines a row at most, the whole
            [{"detail": row.detail} for row in page.rows],  # detail is the thread's own
            {"detail": THREAD_LIST_DETAIL_WIDTHS["detail"]},
            most_lines=3,
        )
        st.dataframe(
            frame,
            key=keys.THREADS_TABLE,
            on_select=partial(_open_row, listed),
            selection_mode=["single-row", "single-cell"],
            row_height=row_height,
            # every row in view up to _TALL (a wrapped detail makes rows taller than the
            # ten of Streamlit's "auto"); a longer page scrolls inside, beside the thread
            height=_HEADER + row_height * min(len(listed), _TALL) + 2,
            **thread_list_layout(
                list(frame),
                short_ids=list(frame["thread_id"]) != [row.printable_id for row in page.rows],
            ),
        )
    # One row that never stacks (st.columns would put the buttons above and below on a phone)
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        st.button(
            "← Previous", key=keys.THREADS_PREV, on_click=_previous, disabled=len(cursors) < 2
        )
        st.button(
            "Next →",
            key=keys.THREADS_NEXT,
            on_click=_next,
            args=(page.next_after,),
            disabled=page.next_after is None,
        )
        counted = "" if total is None else f" of {total:,}" + (" matching" if contains else "")
        shown = f"{count(len(page.rows), 'thread')} shown{counted}"
        if pages is None:
            st.caption(f"Page {len(cursors)} · {shown}")
        else:
            last = max(pages, len(cursors))  # a link may open a page past the count's last
            st.session_state[keys.THREADS_PAGE] = len(cursors)
            st.selectbox(
                "Page",
                page_numbers(len(cursors), last),
                format_func=lambda number: f"Page {number} of {last:,}",
                key=keys.THREADS_PAGE,
                on_change=_jump,
                label_visibility="collapsed",
                width=170,
                help="Go to a page of the list",
            )
            st.caption(shown)
    if not ids:
        return None
    picked: str | None = st.selectbox(
        "Thread",
        ids,
        format_func=printable_id,  # as the list and the audit print it: b'...', int(42)
        key=keys.THREADS_THREAD,
        help="The thread open beside the list. Click its row, or pick it here from the "
        "threads of the page shown (with the keyboard: type part of its id).",
    )
    _counts(page, picked)
    return picked
