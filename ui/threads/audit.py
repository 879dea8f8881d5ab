"""The audit section: every thread against a model, part by part, with progress and Cancel."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel
from streamlit.errors import StreamlitAPIException

from core.stores.audit import AuditResult
from core.stores.audit_summary import (
    error_counts,
    invalid_rows,
    merge_audits,
    to_csv,
    unreadable_rows,
)
from core.stores.errors import coded
from core.stores.reader import audit_any, open_any
from core.stores.serde import strict_serde
from core.words import count
from ui import keys
from ui.heavy import heavy_slot
from ui.text import plain
from ui.threads.columns import AUDIT_INVALID_LAYOUT, fit_words
from ui.threads.listing import short_ids
from ui.threads.source import StoreChoice

__all__ = ["SLICES", "audit_section"]

SLICES = 10  # the audit runs as this many disjoint slices: progress and Cancel between them


def _short_checkpoints(rows: pd.DataFrame) -> pd.DataFrame:
    """`rows` with each checkpoint id as the timeline shows it, its start and end (a uuid
    wrapped over three lines split it mid-word); the CSV and JSON hold each id whole."""
    if "checkpoint_id" not in rows:
        return rows
    ids = list(dict.fromkeys(rows["checkpoint_id"].astype(str)))
    short = dict(zip(ids, short_ids(ids), strict=True))
    return rows.assign(checkpoint_id=rows["checkpoint_id"].astype(str).map(short))


def _cancel() -> None:
    job = st.session_state.get(keys.THREADS_AUDIT_JOB)
    if job is not None:
        job["cancelled"] = True


def _start(signature: tuple[str, ...]) -> None:
    st.session_state[keys.THREADS_AUDIT_JOB] = {
        "signature": signature,
        "parts": [],
        "cancelled": False,
    }


def _results(result: AuditResult, finished: bool) -> None:
    unreadable = count(len(result.unreadable), "checkpoint")
    st.text(
        f"{count(result.threads, 'thread')}, {count(result.checkpoints, 'checkpoint')} audited; "
        f"{count(len(result.invalid), 'invalid state')} in "
        f"{count(len({s.thread_id for s in result.invalid}), 'thread')}"
        + (f", {unreadable} unreadable" if result.unreadable else "")
        + ("" if finished else " (so far)")
    )
    if result.clean:
        return
    if result.invalid:
        st.caption("Errors by type and field")
        st.dataframe(
            pd.DataFrame(error_counts(result)), key=keys.THREADS_AUDIT_COUNTS, hide_index=True
        )
        st.caption("States that fail the model (one row per error), with the node that wrote them")
        rows = _short_checkpoints(pd.DataFrame(invalid_rows(result)))
        st.dataframe(rows, key=keys.THREADS_AUDIT_INVALID, **fit_words(AUDIT_INVALID_LAYOUT, rows))
    if result.unreadable:
        st.caption("Checkpoints that cannot be read (each with its code; the rest was read on)")
        st.dataframe(
            _short_checkpoints(pd.DataFrame(unreadable_rows(result))),
            key=keys.THREADS_AUDIT_UNREADABLE,
            hide_index=True,
        )
    csv_col, json_col = st.columns(2)
    csv_col.download_button(
        "Download CSV", to_csv(result), "audit.csv", "text/csv", key=keys.THREADS_AUDIT_CSV
    )
    json_col.download_button(
        "Download JSON",
        json.dumps(result.to_json(), ensure_ascii=False, indent=2, default=str),
        "audit.json",
        "application/json",
        key=keys.THREADS_AUDIT_JSON,
    )


def _progress(job: dict[str, Any]) -> None:
    """The progress, what Cancel stopped, Cancel while parts remain, the counts so far."""
    parts: list[AuditResult] = job["parts"]
    merged = merge_audits(parts)
    st.progress(len(parts) / SLICES, text=_checked(merged.threads, len(parts) == SLICES))
    if job["cancelled"] and len(parts) < SLICES:
        st.warning(
            f"Audit cancelled: the counts below cover the {count(merged.threads, 'thread')} "
            "checked before Cancel."
        )
    elif len(parts) < SLICES:
        st.button("Cancel", key=keys.THREADS_AUDIT_CANCEL, on_click=_cancel)
    _results(merged, finished=len(parts) == SLICES)


def _checked(threads: int, finished: bool) -> str:
    """The progress bar's words: the threads checked so far, or all of them."""
    checked = f"{count(threads, 'thread')} checked"
    return f"All {checked}" if finished else f"{checked} so far"


@st.fragment
def audit_section(choice: StoreChoice, model: type[BaseModel], allowed: Sequence[type]) -> None:
    """Run the audit against `model` (the page's one, named in its header) part by part (a
    fragment rerun each), reading with the page's `allowed` types; show the counts."""
    name = plain(model.__name__)
    history = st.checkbox(
        "Every checkpoint, not only each thread's latest", key=keys.THREADS_AUDIT_HISTORY
    )
    st.button(
        f"Run audit against {name}", key=keys.THREADS_AUDIT_RUN, on_click=_start,
        args=((choice.source, choice.label, model.__qualname__, str(history)),),
    )  # fmt: skip
    signature = (choice.source, choice.label, model.__qualname__, str(history))
    job = st.session_state.get(keys.THREADS_AUDIT_JOB)
    if job is None or job["signature"] != signature:
        st.caption(f"Run the audit to validate every thread's stored state against {name}.")
        return
    parts: list[AuditResult] = job["parts"]
    if job["cancelled"] and not parts:
        st.warning(
            "Audit cancelled before any thread was checked: press Run audit to start it again."
        )
        return
    if len(parts) == SLICES or job["cancelled"]:
        _progress(job)
        return
    # Each part queues for one of the server's heavy-job slots (its place shown where the
    # progress is), and holds it while it is drawn and run.
    with heavy_slot(keys.THREADS_AUDIT, "The audit", _cancel):
        _progress(job)
        try:
            serde = strict_serde(allowed)
            with open_any(choice.spec, serde, assistant=choice.assistant) as store:
                shard = (len(parts), SLICES)
                parts.append(audit_any(store, model, history=history, shard=shard))
        except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, not a traceback
            job["cancelled"] = True
            st.error("The store cannot be read:")
            st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)
            return
    try:
        st.rerun(scope="fragment")  # the next part, redrawing only this section
    except StreamlitAPIException:  # a full run (the page's first, or AppTest): rerun it all
        st.rerun()
