"""The migration plan's editor: the proposed steps in a table, a plan upload, its downloads."""

from __future__ import annotations

from typing import Any

import streamlit as st
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.migrate.export import export_module
from core.migrate.plan import MAX_PLAN_BYTES, PlanError, parse_plan, plan_toml
from core.migrate.propose import Proposal, propose
from ui import keys
from ui.text import plain
from ui.threads.coded import coded_lines, show_coded
from ui.threads.migrate.cells import TakesText, takes_text, unticked
from ui.threads.migrate.plan_grid import plan_grid
from ui.threads.migrate.plan_table import TablePlan, plan_rows, read_rows

__all__ = ["plan_editor", "steps_key"]

# What the browser sends (Streamlit's smallest cap, in MB): above the page's limit, so a plan
# over MAX_PLAN_BYTES reaches the page, which says what to do with it. Streamlit's drop zone
# would say "1MB per file"; the label says the page's limit instead.
_UPLOAD_CEILING_MB = 1
_UPLOAD_STYLE = f"""<style>
.st-key-{keys.THREADS_MIGRATE_UPLOAD} [data-testid="stFileUploaderDropzoneInstructions"] {{
  display: none; }}
</style>"""
_TOO_LARGE = (
    f"the plan is over {MAX_PLAN_BYTES:,} bytes; shorten it: one step whose path has [*] "
    "(items[*].sku) covers every element of a list."
)


def steps_key() -> str:
    """The plan table's widget key: `threads_migrate_steps`, then `-1`, `-2`... after each
    new start (an upload, the proposal again), so the browser drops the old edits."""
    generation = st.session_state.get(keys.THREADS_MIGRATE_BASE, {}).get("generation", 0)
    return keys.generation(keys.THREADS_MIGRATE_STEPS, generation)


def _start(
    rows: list[dict[str, Any]],
    origin: str,
    of: tuple[str, ...],
    header: dict[str, str] | None = None,
) -> None:
    """The table starts afresh on `rows` (its edits dropped); `header`: a chained plan's
    id, after and model, kept for the plan the table makes."""
    base = st.session_state.get(keys.THREADS_MIGRATE_BASE)
    st.session_state.pop(steps_key(), None)
    generation = base["generation"] + 1 if base is not None else 0
    st.session_state[keys.THREADS_MIGRATE_BASE] = {
        "of": of, "rows": rows, "origin": origin, "generation": generation,
        "header": header or {},
    }  # fmt: skip


def _uploaded(of: tuple[str, ...], text: TakesText) -> None:
    """The uploaded plan replaces the table; one that cannot be read is said, with its line."""
    st.session_state.pop(keys.THREADS_MIGRATE_UPLOAD_ERROR, None)
    file = st.session_state.get(keys.THREADS_MIGRATE_UPLOAD)
    if file is None:
        return
    try:
        if file.size > MAX_PLAN_BYTES:  # parse_plan's own refusal, before reading it all
            raise PlanError(ErrorCode.PLAN_TOML, _TOO_LARGE)
        plan = parse_plan(file.getvalue().decode("utf-8"))
    except UnicodeDecodeError:
        error = CodedError(ErrorCode.PLAN_TOML, "the file is not UTF-8 text; save it as UTF-8.")
        st.session_state[keys.THREADS_MIGRATE_UPLOAD_ERROR] = error
        return
    except PlanError as error:
        st.session_state[keys.THREADS_MIGRATE_UPLOAD_ERROR] = error
        return
    header = plan.model_dump(include={"id", "after", "model"}, exclude_none=True)
    _start(plan_rows(Proposal(plan=plan), text), f"the uploaded plan {file.name}", of, header)


def _proposed(proposal: Proposal, of: tuple[str, ...], text: TakesText) -> None:
    _start(plan_rows(proposal, text), "the proposal", of)


def _downloads(table: TablePlan, candidate: type[BaseModel]) -> None:
    plan = table.plan
    with st.container(horizontal=True, gap="small"):
        st.download_button(
            "Download plan (TOML)",
            plan_toml(plan, table.notes) if plan is not None else "",
            "migration-plan.toml",
            "application/toml",
            key=keys.THREADS_MIGRATE_TOML,
            on_click="ignore",
            disabled=plan is None,
        )
        st.download_button(
            "Download as a Python module",
            export_module(plan, model_name=candidate.__name__) if plan is not None else "",
            "migrate_state.py",
            "text/x-python",
            key=keys.THREADS_MIGRATE_MODULE,
            on_click="ignore",
            disabled=plan is None,
        )


def plan_editor(model: type[BaseModel], candidate: type[BaseModel]) -> TablePlan:
    """The steps as an editable table (proposed from `model` -> `candidate`, or uploaded);
    returns what the edited rows say."""
    proposal = propose(model, candidate)
    text = takes_text(model, candidate)
    of = (f"{model.__module__}.{model.__qualname__}",
          f"{candidate.__module__}.{candidate.__qualname__}")  # fmt: skip
    base = st.session_state.get(keys.THREADS_MIGRATE_BASE)
    if base is None or base["of"] != of:
        _proposed(proposal, of, text)
        base = st.session_state[keys.THREADS_MIGRATE_BASE]
    if proposal.warnings:
        st.caption(
            "The candidate model changes these fields in a way no step of a plan can repair; "
            "the preview counts the stored states that fail because of them:"
        )
        st.code("\n".join(map(unticked, proposal.warnings)), language=None, wrap_lines=True)
    asked = any(row["asked"] for row in base["rows"])
    st.caption(
        f"The plan, from {plain(base['origin'])}: one step per row, applied in order to each "
        "stored state. Edit a cell (Enter or Tab keeps it), type a new step on the last line, "
        "empty every cell of a line to drop its step; value, from and to are plain text where "
        "the field is text, JSON where it is not: a number, true, false, null, a list, an "
        'object, or a string that reads as one ("750"). '
        + ("Steps marked asked need your value. " if asked else "")
        + (
            "It starts with no step: add one if the preview shows states to fix."
            if not base["rows"]
            else ""
        )
    )
    edited = plan_grid(base["generation"], base["rows"])
    table = read_rows(edited, base["rows"], text, base.get("header", {}))
    if table.refusals:
        refused = st.container(key=keys.THREADS_MIGRATE_REFUSALS)
        refused.caption(
            "Not in the plan yet: what each row lacks (what you typed stays in the table)."
        )
        said = [
            coded_lines(CodedError(ErrorCode.PLAN_STEP, unticked(r.said)), r.where)
            for r in table.refusals
        ]
        refused.code("\n\n".join(said), language=None, wrap_lines=True)
    upload_col, again_col = st.columns([3, 1], vertical_alignment="bottom")
    st.html(_UPLOAD_STYLE)
    upload_col.file_uploader(
        f"Upload a plan (TOML [[step]] tables; up to {MAX_PLAN_BYTES // 1000:,} KB)",
        type=["toml"],
        key=keys.THREADS_MIGRATE_UPLOAD,
        on_change=_uploaded,
        args=(of, text),
        max_upload_size=_UPLOAD_CEILING_MB,
    )
    again_col.button(
        "Start again from the proposal",
        key=keys.THREADS_MIGRATE_PROPOSE,
        on_click=_proposed,
        args=(proposal, of, text),
    )
    upload_refused = st.session_state.get(keys.THREADS_MIGRATE_UPLOAD_ERROR)
    if isinstance(upload_refused, CodedError):
        show_coded("The uploaded plan cannot be used; the table is unchanged", upload_refused)
    _downloads(table, candidate)
    return table
