"""One thread before and after the plan: its stored state and the migrated one, side by side."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.jsontext.paths import format_path
from core.jsontext.write import plural
from core.migrate.migrated import migrated
from core.migrate.plan import Plan
from core.migrate.preview import Preview
from core.stores.errors import coded
from core.stores.reader import open_any, timeline_of
from core.stores.rows import RowProblem
from core.stores.serde import strict_serde
from core.stores.state import json_state_errors, state_errors
from ui import keys
from ui.text import plain
from ui.threads.coded import show_coded
from ui.threads.columns import MIGRATE_CHANGES_LAYOUT
from ui.threads.migrate.chained import Migration, serde_models
from ui.threads.migrate.outcomes import Outcome, outcomes, thread_plan
from ui.threads.source import StoreChoice
from ui.threads.timeline import as_json

__all__ = ["diff_section"]

_OPTIONS = 200  # threads offered (the fixed first); any other is opened in the list
Option = tuple[str, str]  # (thread id, checkpoint id; "" for the thread's latest)
_NO_THREAD_IN_STORE = (
    "No thread to show before and after: this store holds no threads yet. Open a store that "
    "holds threads."
)
_NO_THREAD_READ = (
    "No thread to show before and after: no thread's latest state can be read (the preview "
    "names the checkpoints it could not read)."
)


def _options(preview: Preview, picked: str | None, found: list[Outcome]) -> dict[Option, str]:
    """The thread picked in the list, then the threads the plan fixes, those it leaves
    broken, those it changes, then the rest."""
    options: dict[Option, str] = {}
    if picked is not None:
        options[(picked, "")] = f"{picked} (the thread open in the list)"
    for outcome in found:
        if outcome.fixed:
            options.setdefault((outcome.thread_id, ""), f"{outcome.thread_id} (fixed by the plan)")
    for state in preview.still_broken[:_OPTIONS]:
        at = f" at checkpoint {state.checkpoint_id}" if state.checkpoint_id else ""
        options.setdefault((state.thread_id, state.checkpoint_id),
                           f"{state.thread_id} (still broken{at})")  # fmt: skip
    broken = {state.thread_id for state in preview.still_broken}
    rest = [o for o in found if not o.fixed and o.thread_id not in broken]
    for outcome in sorted(rest, key=lambda o: not o.changed):  # the changed ones first
        said = "changed by the plan" if outcome.changed else "the plan leaves it as it is"
        options.setdefault((outcome.thread_id, ""), f"{outcome.thread_id} ({said})")
    return options


def _changes(plan: Plan, changed_by: list[list[str]]) -> pd.DataFrame:
    rows = [(path, index, plan.steps[index].action)
            for index, paths in enumerate(changed_by) for path in paths]  # fmt: skip
    return pd.DataFrame(
        {
            "field": [path for path, _, _ in rows],
            "step": pd.Series([index + 1 for _, index, _ in rows], dtype="int64"),
            "action": [action for _, _, action in rows],
        }
    )


def diff_section(
    choice: StoreChoice,
    model: type[BaseModel],
    candidate: type[BaseModel],
    migration: Migration,
    preview: Preview,
) -> None:
    """Pick a thread (the list's, one the plan fixes, or any other); show its state before
    and after (of a chain: through the plans after where the thread stands)."""
    serde = strict_serde(serde_models(model, candidate, migration))
    # the thread open in the list; none while the list shows none (thread_list)
    listed = st.session_state.get(keys.THREADS_THREAD)
    picked = listed if isinstance(listed, str) else None
    try:
        with open_any(choice.spec, serde, assistant=choice.assistant) as store:
            read = outcomes(store, model, candidate, migration, limit=_OPTIONS)
    except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, never a traceback
        st.error("The store cannot be read:")
        st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)
        return
    options = _options(preview, picked, read)
    if not options:  # no thread listed, none read
        st.info(_NO_THREAD_READ if preview.threads else _NO_THREAD_IN_STORE)
        return
    if picked is None:
        st.caption(
            "The thread list shows no thread with these filters: the store's threads are "
            "offered here, those the plan fixes first."
        )
    # the list's pick, when it changes, is shown here (else the pick here stays)
    followed = keys.part(keys.THREADS_MIGRATE_THREAD, "of")
    if (st.session_state.get(followed) != picked
            or st.session_state.get(keys.THREADS_MIGRATE_THREAD) not in options):  # fmt: skip
        st.session_state[keys.THREADS_MIGRATE_THREAD] = next(iter(options))
    st.session_state[followed] = picked
    thread_id, checkpoint_id = st.selectbox(
        "Thread", list(options), format_func=options.__getitem__, key=keys.THREADS_MIGRATE_THREAD,
        help="Any thread: the ones the plan fixes first (or open one in the thread list).",
    )  # fmt: skip
    try:
        with open_any(choice.spec, serde, assistant=choice.assistant) as store:
            timeline = timeline_of(store, thread_id, model)
            json_mode = store.values_are_json  # a server's values are JSON: as preview
            checkpoints = timeline.checkpoints if timeline is not None else []
            found = [c for c in checkpoints if c.checkpoint_id == checkpoint_id] or checkpoints[-1:]
            plan = (
                thread_plan(store, migration, thread_id, found[0].checkpoint_id,
                            found[0].state, json_mode=json_mode)
                if found and found[0].unreadable is None
                else None
            )  # fmt: skip
    except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, never a traceback
        st.error("The store cannot be read:")
        st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)
        return
    if plan is None:
        st.info("This checkpoint cannot be read: there is no state to migrate.")
        return
    checkpoint = found[0]
    try:
        result = migrated(plan, checkpoint.state, candidate, json_mode=json_mode)
    except RowProblem as problem:
        show_coded("This checkpoint cannot be migrated", problem, level="info")
        return
    after, changed_by, errors = result.state, result.changed, result.errors
    check = json_state_errors if json_mode else state_errors
    before = check(checkpoint.state, candidate) if result.broken_before else []
    st.caption("Thread and checkpoint")
    st.code(f"{thread_id} · {checkpoint.checkpoint_id}", language=None, wrap_lines=True)
    stored_col, after_col = st.columns(2)
    name = plain(candidate.__name__)
    stored_col.caption(f"Stored ({plural(len(before), 'error')} under {name})")
    stored_col.json(as_json(checkpoint.state), expanded=2)
    after_col.caption(f"After the plan ({plural(len(errors), 'error')} under {name})")
    after_col.json(as_json(after), expanded=2)
    changes = _changes(plan, changed_by)
    if changes.empty:
        st.caption("No step changes this state.")
    else:
        st.caption("The fields the plan changed")
        st.dataframe(changes, key=keys.THREADS_MIGRATE_CHANGES, **MIGRATE_CHANGES_LAYOUT)
    if errors:
        st.caption(f"What {plain(candidate.__name__)} still rejects after the plan")
        st.code("\n".join(f"{format_path(e.get('loc', [])) if e.get('loc') else '(the state)'}: "
                          f"{e.get('msg', '')} [{e.get('type', '')}]" for e in errors),
                language=None, wrap_lines=True)  # fmt: skip
