"""The unbrick section: what it writes and from which checkpoint, the broken state to edit,
its dry run, the write on confirmation, then what was written and how to resume."""

from __future__ import annotations

import json
from typing import Any

import pandas as pd
import streamlit as st
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.jsontext.payload import PayloadError, parse
from core.jsontext.write import dumps
from core.stores.reader import write_fork
from core.stores.serde import strict_serde
from core.stores.timeline import Checkpoint, Timeline
from core.stores.unbrick import UnbrickCode, UnbrickError, UnbrickPlan, plan_unbrick
from core.trace.fork import edit_errors
from core.validate.report import validate_value
from ui import keys
from ui.editor.json_editor import Mark
from ui.editor.payload import editor_text, payload_editor, set_payload_text
from ui.errors.state_table import STATE_ERROR_TABLE
from ui.text import plain
from ui.threads.coded import show_coded
from ui.threads.columns import MIGRATE_WRITTEN_LAYOUT
from ui.threads.source import StoreChoice
from ui.threads.store_write import (
    planned_table,
    server_assistant,
    store_write,
    what_next,
    written_table,
)
from ui.threads.timeline import as_json

__all__ = ["unbrick_section"]


def _editor_text(timeline: Timeline) -> str:
    state = (timeline.blamed or timeline.checkpoints[-1]).state
    return json.dumps(as_json(state), ensure_ascii=False, indent=2)


def _fork_point(timeline: Timeline) -> tuple[Checkpoint, str | None] | None:
    """The checkpoint the fork starts from and the node it is written as, as plan_unbrick
    picks them (None: the input itself is broken, no checkpoint precedes it)."""
    blamed = timeline.blamed
    if blamed is None:
        latest = timeline.checkpoints[-1]
        return latest, latest.node
    parent = [c for c in timeline.checkpoints if c.checkpoint_id == blamed.parent_id]
    if not parent or blamed.source == "input":
        return None
    return parent[0], blamed.node


def _intro(timeline: Timeline) -> bool:
    """The one sentence before the write: what it writes, from which checkpoint, as which
    node; False (and why) when there is no checkpoint to fork from."""
    found = _fork_point(timeline)
    thread = timeline.thread_id
    if found is None:
        st.info(plain(
            f"Thread {thread} cannot be unbricked here: its input itself is invalid, so no "
            "valid checkpoint precedes it to fork from. Start a new thread with a corrected "
            "input."
        ))  # fmt: skip
        return False
    base, node = found
    writer = node.split(",")[0].strip() if node else None
    why = (
        f"the last valid one, before {writer or 'an update'}'s write broke the state), "
        if timeline.blamed is not None
        else "its latest), "
    )
    latest = timeline.checkpoints[-1]
    if timeline.blamed is None and not latest.errors and latest.unreadable is None:
        # a valid thread (one just unbricked, too): nothing to repair, an edit stays possible
        st.caption(plain(f"Thread {thread}'s latest state is valid: nothing needs unbricking."))
    said = (
        f"Unbrick writes the state below, once you edit, dry-run and confirm it, as one new "
        f"checkpoint of thread {thread} forked from checkpoint {base.checkpoint_id} (step "
        f"{base.step}, {why}"
        + (f"written as {writer} so the run goes on with what follows it" if writer
           else "written as an update from outside the graph")
        + "; no stored row changes."
    )  # fmt: skip
    st.caption(plain(said))
    return True


def _written(choice: StoreChoice, timeline: Timeline) -> None:
    """What the last write wrote (shown once, in the run after it), and how to resume."""
    written = st.session_state.pop(keys.THREADS_UNBRICK_WRITTEN, None)
    if written is None:
        return
    st.success("Written. The thread's new latest checkpoint (the list above includes it):")
    st.json(written["config"])
    row = {"thread_id": written["thread_id"], "from_checkpoint_id": written["from"],
           "new_checkpoint_id": written["config"]["configurable"]["checkpoint_id"]}  # fmt: skip
    written_table([row], keys.THREADS_UNBRICK_WRITTEN_TABLE, **MIGRATE_WRITTEN_LAYOUT)
    head = [c for c in timeline.checkpoints if c.checkpoint_id == row["new_checkpoint_id"]]
    pending = head[0].pending if head else []
    said = {
        "None": f"Next: the thread waits at the new checkpoint to run {', '.join(pending)} (the "
        "list reads it as interrupted until then). Resume it, and the run goes on from the "
        "repaired state:",
        "new_input": "Next: no node is due at the new checkpoint, so the thread's run is "
        "complete; its next input starts a new run from the repaired state:",
    }
    assistant = server_assistant(choice, timeline.thread_id)
    what_next(choice, {timeline.thread_id: pending}, {k: plain(v) for k, v in said.items()},
              assistant)  # fmt: skip


def _dry_run_said(plan: UnbrickPlan) -> dict[str, Any]:
    """The dry run as the page shows it: the fields a reducer would merge named in words."""
    shown = plan.dry_run()
    replaced = shown.pop("replaced_whole (reducer bypassed with Overwrite)", [])
    # operator.add or add_messages would merge the new value into the stored one: such a
    # field is written with LangGraph's Overwrite, so the edit replaces it whole
    return shown | {"replaced whole, not merged by the field's reducer": replaced}


def unbrick_section(
    choice: StoreChoice,
    timeline: Timeline,
    model: type[BaseModel],
    graph: CompiledStateGraph[Any, Any, Any, Any] | None,
) -> None:
    """Only shown when the server enables writes; the page checks `writes_enabled()`."""
    if graph is None:
        st.info(
            "Unbrick writes through your graph's update_state: configure it with --graph "
            "(or PLAYGROUND_GRAPH) to unbrick threads of this store."
        )
        return
    # One block whether or not a write was just made: the editor below keeps its place in
    # the page, so Streamlit keeps its frame (a frame remounted mid-run stayed blank)
    with st.container():
        _written(choice, timeline)
    if not _intro(timeline):
        return
    default = _editor_text(timeline)
    if st.session_state.get(keys.THREADS_UNBRICK_OF) != timeline.thread_id:
        set_payload_text(
            default, key=keys.THREADS_UNBRICK_TEXT
        )  # another thread: its own broken state
        st.session_state[keys.THREADS_UNBRICK_OF] = timeline.thread_id
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
    # Checked as typed: each error of the edit is marked where it is before the dry run.
    marks = [
        Mark(*where)
        for where in edit_errors(editor_text(keys.THREADS_UNBRICK_TEXT, default), model)
    ]
    text = payload_editor(
        keys.THREADS_UNBRICK_TEXT,
        default,
        marks=marks,
        label="The state to write (edit the broken fields)",
    )
    if st.button("Validate and dry run", key=keys.THREADS_UNBRICK_VALIDATE):
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
        try:
            edited = parse(text)
            st.session_state[keys.THREADS_UNBRICK_PLAN] = (
                text,
                plan_unbrick(timeline, edited, model, graph),
            )
        except PayloadError as error:
            # where in the text (line, column) and what to change; JSON too deep, too large or
            # with a number too long is refused, not broken; a size or an empty text has no
            # position (it reads 1:1)
            syntax = error.code == ErrorCode.JSON_SYNTAX
            lead = "The edited state is not valid JSON" if syntax else "The edited state is refused"
            placed = error.code not in (ErrorCode.TOO_LARGE, ErrorCode.EMPTY)
            show_coded(
                lead, CodedError(ErrorCode(error.code), str(error) if placed else error.message)
            )
        except UnbrickError as error:
            show_coded("Nothing will be written", error)
            if error.code == UnbrickCode.INVALID_EDIT:
                # a parsed state has no text, so no line:col: the Timeline's table for a
                # state's errors (path and whole message first; error_table's was empty, cut)
                rows = pd.DataFrame(validate_value(edited, model).to_rows())
                st.dataframe(rows, key=keys.table(keys.THREADS_UNBRICK_ERRORS), **STATE_ERROR_TABLE)
    planned = st.session_state.get(keys.THREADS_UNBRICK_PLAN)
    if planned is None or planned[0] != text:  # the dry run of this very text, never a stale one
        return
    plan = planned[1]
    st.success("Valid. This is exactly what will be written (a new checkpoint; no row changes):")
    planned_table([{
        "thread": plan.thread_id, "from checkpoint": plan.checkpoint_id,
        "as node": plan.as_node or "(an update from outside the graph)",
        "fields written": dumps(as_json(plan.values)),
    }], keys.THREADS_UNBRICK_PLANNED_TABLE)  # fmt: skip
    st.json(as_json(_dry_run_said(plan)))
    st.caption(plain(
        f"Confirm: write it as one new checkpoint of thread {plan.thread_id}, forked from "
        f"checkpoint {plan.checkpoint_id}."
    ))  # fmt: skip
    if st.button("Write 1 checkpoint", key=keys.THREADS_UNBRICK_WRITE, type="primary"):
        written = store_write(
            lambda: write_fork(choice.spec, plan, graph, strict_serde([model])),
            after="nothing was changed. Check that the server may write to it.",
        )
        if written is None:
            return
        st.session_state.pop(keys.THREADS_UNBRICK_PLAN, None)
        st.session_state.pop(keys.THREADS_UNBRICK_OF, None)
        st.session_state[keys.THREADS_UNBRICK_WRITTEN] = {
            "thread_id": plan.thread_id, "from": plan.checkpoint_id, "config": as_json(written),
        }  # fmt: skip
        # the timeline opens on the new head: the slider's old index would name another row
        st.session_state[keys.THREADS_OPEN_AT] = written["configurable"]["checkpoint_id"]
        st.rerun()  # the list and the timeline above now read the new checkpoint
