"""The open thread as core.guard reads it: checkpoints a guard stored in "warn" mode (with
`state_errors` in their metadata), and what the lazy migration would hand LangGraph."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.guard.on_read import Migrate
from core.guard.plans import PlanMigration
from core.guard.store_read import GuardRead, GuardUnreadable, guard_read, warn_marks
from core.jsontext.paths import format_path
from core.jsontext.write import jsonable
from core.migrate.chain import Chain
from core.stores.reader import AnyStore
from core.stores.timeline import Timeline
from core.trace.reducers import dump_json
from core.words import count
from ui import keys
from ui.errors.view import MESSAGE_ROW_HEIGHT
from ui.text import plain
from ui.threads.judge import Judging

__all__ = ["guard_view", "page_migration"]


def page_migration(judged: Judging) -> Migrate | None:
    """The Migrate tab's migration as the guard runs it: its uploaded chain, else the last
    complete plan of its table; None when there is none, or when the page judges by the
    configured model (the plans carry states to the candidate)."""
    if judged.current is None:
        return None
    chain = st.session_state.get(keys.THREADS_MIGRATE_CHAIN)
    if isinstance(chain, Chain):
        return PlanMigration(chain, "the Migrate tab's chain")
    last = st.session_state.get(keys.THREADS_MIGRATE_LAST_PLAN)
    if last is None or last["of"] != [judged.model.__qualname__, judged.current.__qualname__]:
        return None
    return PlanMigration(Chain.of(last["plan"]), "the Migrate tab's plan")


def guard_view(store: AnyStore, timeline: Timeline, judged: Judging) -> None:
    """The thread's guard marks and its head as a guarded saver hands it to LangGraph, in
    one box (`.st-key-threads_guard`), read through core.guard itself; nothing is written."""
    with st.container(key=keys.THREADS_GUARD, border=True):
        st.markdown("**Guard** — this thread as core.guard's GuardedSaver reads it")
        saver = store.pick(database=lambda database: database.saver, server=lambda _: None)
        if saver is None:
            st.caption(
                "On a LangGraph server the guard runs inside the server (the checkpointer "
                "langgraph.json names); here it reads files and databases."
            )
            return
        _marks(saver, timeline)
        head = timeline.checkpoints[-1] if timeline.checkpoints else None
        if head is not None and head.unreadable is not None:  # read with bounds: not again
            _unreadable(
                f"[{head.unreadable.code}] The guard reads no state from this thread's head: "
                f"{head.unreadable.message}"
            )
            return
        migrate = page_migration(judged)
        read = guard_read(saver, judged.judge, migrate, timeline.thread_id)
        if isinstance(read, GuardUnreadable):
            _unreadable(read.line)
        elif read is not None:
            _handed(read, judged.judge.__name__, migrate is not None)


def _unreadable(line: str) -> None:
    st.error("This thread cannot be read as the guard reads it:")
    st.code(line, language=None, wrap_lines=True)


def _marks(saver: Any, timeline: Timeline) -> None:
    marks = warn_marks(saver, timeline.thread_id)
    if isinstance(marks, GuardUnreadable):
        _unreadable(marks.line)
        marks = marks.marks
    if not marks:
        st.caption(
            'No checkpoint of this thread was stored by a guard in "warn" mode (none carries '
            "state_errors in its metadata)."
        )
        return
    one = len(marks) == 1
    st.warning(
        f"{count(len(marks), 'checkpoint')} of this thread {'was' if one else 'were'} stored "
        f'by a guard in "warn" mode although the model rejected {"it" if one else "them"}: '
        f"the errors are in {'its' if one else 'their'} metadata (state_errors)."
    )
    steps = {c.checkpoint_id: c.step for c in timeline.checkpoints}  # as the timeline read them
    rows = [
        {
            "step": _step(steps.get(mark.checkpoint_id, mark.step)),
            "checkpoint_id": mark.checkpoint_id,
            "errors": len(mark.errors),
            "paths": ", ".join(format_path(error["loc"]) for error in mark.errors),
            "first message": mark.errors[0]["msg"] if mark.errors else mark.problem or "",
        }
        for mark in marks
    ]
    st.dataframe(pd.DataFrame(rows), key=keys.part(keys.THREADS_GUARD, "marks"), hide_index=True)


def _step(step: int | None) -> str:
    return "" if step is None else str(step)


def _handed(read: GuardRead, model: str, has_plan: bool) -> None:
    """What LangGraph would be given for the thread's head."""
    if not read.stored_errors:
        st.success(
            "The model accepts this thread's head: the guard hands it to LangGraph as stored."
        )
        return
    if not has_plan:
        st.info(
            plain(
                f"{model} rejects this thread's head and no plan is set (the Migrate tab, "
                "judging by the candidate): the guard hands it to LangGraph as stored."
            )
        )
        _errors(read.stored_errors, "stored")
        return
    if not read.errors:
        changed = sorted(k for k in {*read.stored, *read.handed}
                         if read.stored.get(k, _NONE) != read.handed.get(k, _NONE))  # fmt: skip
        st.success(
            "The lazy migration hands LangGraph this state (migrated in memory as it is read; "
            "nothing is written; the next checkpoint a run stores holds it):"
        )
        st.caption("Fields the migration changed:")
        st.code(", ".join(changed), language=None, wrap_lines=True)
        st.json(jsonable(read.handed), expanded=1)
        return
    st.error(
        "The plan cannot fix it: the guard hands LangGraph the state as stored, with these "
        "errors (and logs a warning naming the thread and checkpoint)."
    )
    _errors(read.errors, "handed")


_NONE = object()  # a field one side lacks


def _errors(errors: list[dict[str, Any]], name: str) -> None:
    rows = [
        {
            "path": format_path(error.get("loc") or []),
            "message": str(error.get("msg", "")),
            "type": str(error.get("type", "")),
            "input": dump_json(error.get("input")),
        }
        for error in errors
    ]
    st.dataframe(
        pd.DataFrame(rows),
        key=keys.part(keys.THREADS_GUARD, name),
        hide_index=True,
        row_height=MESSAGE_ROW_HEIGHT,
    )
