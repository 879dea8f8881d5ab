"""The migration's preview: the plan's counts over the whole store, redone as it is edited.

A store of at most ONE_GO_THREADS threads is previewed whole in every run. A larger one (or a
server that cannot count its threads) runs as SLICES disjoint thread shards, one per
fragment rerun, with progress and Cancel between them, as the audit does: a shard is a set
of threads a slice reads from the start, so no cursor has to outlive a rerun (a `keep_going`
stop could end a walk, but not resume it), and each slice is a short script run.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from functools import partial
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel
from streamlit.errors import StreamlitAPIException

from core.jsontext.paths import format_path
from core.jsontext.write import dumps
from core.migrate.preview import Preview, merge_previews, preview_migration
from core.stores.errors import coded
from core.stores.reader import open_any, thread_total
from core.stores.serde import strict_serde
from core.words import count
from ui import keys
from ui.heavy import heavy_slot
from ui.tables import wrapped_row_height
from ui.text import plain
from ui.threads.columns import (
    MIGRATE_BROKEN_DETAIL_WIDTHS,
    MIGRATE_BROKEN_LAYOUT,
    MIGRATE_STEPS_LAYOUT,
    fit_words,
)
from ui.threads.listing import short_ids
from ui.threads.migrate.chained import Migration, migration_text, serde_models
from ui.threads.source import StoreChoice

__all__ = ["ONE_GO_THREADS", "SLICES", "preview_section"]

ONE_GO_THREADS = 200
SLICES = 10
_SHOWN_BROKEN = 1000  # rows of the still-broken table; the JSON download holds them all


def _cancel(signature: tuple[str, ...]) -> None:
    """Stop the preview of `signature` where it is (a preview waiting for its first slot
    stops with no part)."""
    job = st.session_state.get(keys.THREADS_MIGRATE_JOB)
    if job is None or job["signature"] != signature:
        job = {"signature": signature, "parts": []}
        st.session_state[keys.THREADS_MIGRATE_JOB] = job
    job["cancelled"] = True


def _again() -> None:
    st.session_state.pop(keys.THREADS_MIGRATE_JOB, None)


def _field(loc: list[Any]) -> str:
    return format_path(loc) if loc else "(the state)"


def _broken_frame(preview: Preview) -> pd.DataFrame:
    shown = preview.still_broken[:_SHOWN_BROKEN]
    firsts = [state.errors[0] if state.errors else {} for state in shown]
    return pd.DataFrame(
        {
            "thread": [state.thread_id for state in shown],
            "field": [_field(list(error.get("loc", []))) for error in firsts],
            "type": [str(error.get("type", "")) for error in firsts],
            "msg": [str(error.get("msg", "")) for error in firsts],
            "errors": pd.Series([len(state.errors) for state in shown], dtype="int64"),
            # its start and end, as the timeline shows ids: the preview's JSON has it whole
            "checkpoint": short_ids([state.checkpoint_id for state in shown]),
        }
    )


def _results(preview: Preview, candidate: type[BaseModel], finished: bool) -> None:
    with st.container(horizontal=True, key=keys.THREADS_MIGRATE_COUNTS):
        st.metric("Threads", preview.threads)
        st.metric("Checkpoints", preview.checkpoints)
        st.metric("Broken before", preview.broken_before,
                  help="States the candidate rejects as they are stored")  # fmt: skip
        st.metric("Fixed", preview.fixed, help="Of those, the states the plan makes valid")
        st.metric("Still broken", len(preview.still_broken),
                  help="States the candidate rejects after the plan")  # fmt: skip
    if not finished:
        st.caption("So far: the counts grow as more threads are previewed.")
    if not preview.checkpoints:
        st.info("No stored state was previewed: the store holds no threads yet.")
        return
    if preview.steps:
        st.caption("What each step did (states it changed, and fixed)")
        chained = any(count.plan for count in preview.steps)  # a plan with an id, or a chain
        layout = MIGRATE_STEPS_LAYOUT
        if chained:
            layout = layout | {"column_order": ["plan", *layout["column_order"]]}
        frame = pd.DataFrame(
            {
                **({"plan": [count.plan or "" for count in preview.steps]} if chained else {}),
                "path": [count.path for count in preview.steps],
                "action": [count.action for count in preview.steps],
                "changed": pd.Series([c.changed for c in preview.steps], dtype="int64"),
                "fixed": pd.Series([c.fixed for c in preview.steps], dtype="int64"),
            }
        )
        st.dataframe(frame, key=keys.THREADS_MIGRATE_STEP_COUNTS, **layout)
    if preview.still_broken:
        more = len(preview.still_broken) - _SHOWN_BROKEN
        st.caption(
            "States still broken after the plan, with the candidate's first error"
            + (f" (the first {_SHOWN_BROKEN:,}; the JSON has all)" if more > 0 else "")
        )
        frame = _broken_frame(preview)
        st.dataframe(
            frame,
            key=keys.THREADS_MIGRATE_BROKEN,
            row_height=wrapped_row_height(
                frame[list(MIGRATE_BROKEN_DETAIL_WIDTHS)].to_dict("records"),
                MIGRATE_BROKEN_DETAIL_WIDTHS,
                most_lines=3,
            ),
            **fit_words(MIGRATE_BROKEN_LAYOUT, frame),  # no word split over lines
        )
    elif finished:
        st.success(f"After the plan, {plain(candidate.__name__)} accepts every state previewed.")
    if preview.unreadable:
        st.caption("Checkpoints that cannot be read (each with its code; the rest was read on)")
        rows = pd.DataFrame([row.to_json() for row in preview.unreadable]).astype(str)
        st.dataframe(rows, key=keys.THREADS_MIGRATE_UNREADABLE, hide_index=True)
    st.download_button(
        "Download the preview (JSON)",
        dumps(preview.to_json(), indent=2, default=str),
        "migration-preview.json",
        "application/json",
        key=keys.THREADS_MIGRATE_JSON,
        on_click="ignore",
    )


def _failed(error: Exception, choice: StoreChoice) -> None:
    st.error("The store cannot be read:")
    st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)


def preview_section(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Migration,
    history: bool,
) -> Preview | None:
    """The plan's preview over the page's store (None: the store cannot be read, or the
    preview was cancelled before any part); in a large store, the threads previewed so far.
    Each read queues for one of the server's heavy-job slots."""
    signature = (choice.source, choice.label, str(choice.assistant), model.__qualname__,
                 candidate.__qualname__, migration_text(plan), str(history))  # fmt: skip
    job = st.session_state.get(keys.THREADS_MIGRATE_JOB)
    if job is not None and job["signature"] == signature and job["cancelled"] and not job["parts"]:
        st.warning("Preview cancelled before any thread was previewed: press Preview again to "
                   "start it again.")  # fmt: skip
        st.button("Preview again", key=keys.THREADS_MIGRATE_AGAIN, on_click=_again)
        return None
    try:
        serde = strict_serde(serde_models(model, candidate, plan))
        with _slot(signature), open_any(choice.spec, serde, assistant=choice.assistant) as store:
            total = thread_total(store)
            if total is not None and total <= ONE_GO_THREADS:
                st.session_state.pop(keys.THREADS_MIGRATE_JOB, None)
                preview = preview_migration(store, model, candidate, plan, history=history)
                _results(preview, candidate, finished=True)
                return preview
    except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, never a traceback
        _failed(error, choice)
        return None
    return _sliced(choice, model, candidate, plan, history, signature)


def _slot(signature: tuple[str, ...]) -> AbstractContextManager[None]:
    return heavy_slot(keys.THREADS_MIGRATE_PREVIEW, "The preview", partial(_cancel, signature))


def _progress(job: dict[str, Any], plan: Migration, candidate: type[BaseModel]) -> Preview:
    """The progress, Cancel while parts remain (else what Cancel stopped, and Preview again),
    the counts so far; returns them."""
    parts: list[Preview] = job["parts"]
    running = len(parts) < SLICES and not job["cancelled"]
    merged = merge_previews(plan, parts)
    done = len(parts) == SLICES
    previewed = f"{count(merged.threads, 'thread')} previewed"
    st.progress(len(parts) / SLICES, text=f"All {previewed}" if done else f"{previewed} so far")
    if running:
        st.button("Cancel", key=keys.THREADS_MIGRATE_CANCEL, on_click=_cancel,
                  args=(job["signature"],))  # fmt: skip
    elif not done:
        st.warning(f"Preview cancelled: the counts cover the {previewed} before Cancel.")
    if not running:
        st.button("Preview again", key=keys.THREADS_MIGRATE_AGAIN, on_click=_again)
    _results(merged, candidate, finished=done)
    return merged


def _sliced(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    plan: Migration,
    history: bool,
    signature: tuple[str, ...],
) -> Preview:
    job = st.session_state.get(keys.THREADS_MIGRATE_JOB)
    if job is None or job["signature"] != signature:  # a new plan: its preview starts over
        job = {"signature": signature, "parts": [], "cancelled": False}
        st.session_state[keys.THREADS_MIGRATE_JOB] = job
    parts: list[Preview] = job["parts"]
    if len(parts) == SLICES or job["cancelled"]:
        return _progress(job, plan, candidate)
    # Each part queues for one of the server's heavy-job slots (its place shown where the
    # progress is), and holds it while it is drawn and run.
    with _slot(signature):
        merged = _progress(job, plan, candidate)
        try:
            with open_any(choice.spec, strict_serde(serde_models(model, candidate, plan)),
                          assistant=choice.assistant) as store:  # fmt: skip
                shard = (len(parts), SLICES)
                parts.append(preview_migration(store, model, candidate, plan, history=history,
                                               shard=shard))  # fmt: skip
        except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, not a traceback
            job["cancelled"] = True
            _failed(error, choice)
            return merged
    try:
        st.rerun(scope="fragment")  # the next part, redrawing only this section
    except StreamlitAPIException:  # a full run (the page's first, or AppTest): rerun it all
        st.rerun()  # raises: nothing after it runs
