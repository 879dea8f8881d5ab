"""Validate page: paste an order payload, see every field error, where it is and why."""

from __future__ import annotations

from ui.validate.first_paint import paint_first

# On a cold server (app.py decides): the editor on screen before the heavy imports below, then
# a rerun draws the whole page around it.
paint_first()

import inspect
from typing import Any

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.links.validate import EDITORS, TABLES, VIEWS, ValidateLink
from core.order import AgentState
from core.order.graph import CompiledGraph
from core.order.presets import PRESETS, SEED_TEXT
from core.order.schema_options import SchemaOptions, build_model, model_source
from core.validate.annotated import annotated_text
from core.validate.coercion import coercion_rows
from core.validate.entry import (
    EntryComparison,
    Rejecter,
    compare_entry,
    headline,
    pick_entry,
    project_entry,
    rejected_errors,
)
from core.validate.field_errors import FieldError
from core.validate.json_schema import json_schema_text
from core.validate.report import Report, validate_text
from core.words import count
from ui import keys
from ui.editor.payload import editor_text, payload_editor, set_payload_text
from ui.errors.focus import report_marks, selected_spot
from ui.errors.view import (
    GATE,
    PYTHON_MODE_NOTE,
    entry_banner,
    error_table,
    exports,
    forget_selection,
    select_row,
    verdict,
)
from ui.project import active_project, gallery, init_payload
from ui.schema_options import schema_options_form
from ui.share import name_dropped, opened_link, share_button, shown_link
from ui.tables import fitted
from ui.text import plain
from ui.validate.first_paint import EDITOR_HEIGHT, head, heading, more, workbench
from ui.validate.model_form import model_form
from ui.validate.preset_box import load_fresh, preset_box

MODELS = {"project": "Your model", "seed": "Seed order (AgentState)"}
# LangGraph's entry against the model alone, inside the page's 938 px at 1400 (#32 item 8).
DIFFERENCE_WIDTHS = {"aspect": 220, "your model alone": 340, "LangGraph": 340}
BROKEN_EXAMPLE = "bad_sku"  # the first-contact button's preset: one error, marked mid-text


def _choose_model(project_model: type[BaseModel] | None) -> type[BaseModel]:
    """The project's model when one is configured (the seed order stays one click away)."""
    if project_model is None or project_model is AgentState:
        return AgentState
    st.radio(
        "Validate against",
        list(MODELS),
        format_func=MODELS.get,
        key=keys.VALIDATE_MODEL,
        persist_state="session",
        horizontal=True,
    )
    st.caption("Your model, as configured (its module and class):")
    st.code(f"{project_model.__module__}:{project_model.__qualname__}", language=None)
    return project_model if st.session_state[keys.VALIDATE_MODEL] == "project" else AgentState


def _source(model: type[BaseModel]) -> str:
    try:
        return inspect.getsource(model)
    except (OSError, TypeError):  # built with create_model, or no source file on the server
        return f"# The source of {model.__qualname__} is not available; see the JSON Schema view."


def _restore_share() -> None:
    opened = opened_link("validate", ValidateLink)
    if opened is None:
        return
    link, dropped = opened
    st.session_state[keys.VALIDATE_MODEL] = link.model
    if link.payload is not None:
        set_payload_text(link.payload)
    st.session_state[keys.SCHEMA_OPTIONS] = link.options.to_dict()
    if link.view is not None:
        st.session_state[keys.VALIDATE_VIEW] = link.view
    if link.editor is not None:
        st.session_state[keys.EDITOR_VIEW] = link.editor
    st.session_state[keys.SCHEMA_SHOW] = link.schema_show
    for table in TABLES:  # whatever was selected before belongs to the text it replaced
        forget_selection(table)
    if link.error is not None:  # the sender's row: selected when its table is drawn, below
        st.session_state[keys.LINK_ERROR] = (link.error.table, link.error.row)
    name_dropped(dropped)


with head():  # the title and caption, then the controls that choose the model and the text
    project = active_project()
    entry = project_entry(project)  # your graph (or the one over your model) and your model
    own = entry.model  # a graph's payload is written through its input schema
    default_text = init_payload(own)
    st.session_state.setdefault(keys.VALIDATE_MODEL, "project")
    _restore_share()
    if own is None:
        st.info(
            "The configured graph's state is not a Pydantic model and no --model was given, so "
            "there is no model of yours to validate against: the seed order model is used here."
        )
    chosen = _choose_model(own)
    for note in project.notes if chosen is own else ():
        if note.code == "state_not_pydantic":
            st.info("What is checked here: your graph's state is not a Pydantic model.")
            st.code(str(note), language=None, wrap_lines=True)
    presets = gallery(chosen)
    if chosen is not AgentState and not presets:
        st.warning(
            "No example payload could be built for this model; add json_schema_extra examples."
        )
    if chosen is AgentState:
        options = schema_options_form()
        model = build_model(options)
    else:
        st.caption(
            "Schema options apply to the seed order model only; your model is used as written."
        )
        options, model = SchemaOptions(), chosen
    graph = pick_entry(model=model, seed=True).graph if chosen is AgentState else entry.graph


@st.fragment  # typing in the editor reruns only this part, not the sidebar and options above
def _workbench(
    chosen: type[BaseModel],
    options: SchemaOptions,
    model: type[BaseModel],
    graph: CompiledGraph,
    default_text: str,
    presets: dict[str, tuple[str, str]],
) -> None:
    # Segmented controls, not st.tabs: only the chosen view is computed, and the browser
    # renders a Validate rerun with about 115 ms less CPU than with two stateful tab sets.
    st.session_state.setdefault(keys.EDITOR_VIEW, EDITORS[0])  # no default=: a share link
    st.session_state.setdefault(keys.VALIDATE_VIEW, VIEWS[0])  # may have set the view already
    # Validate first and fill the result column before the editor: the error table reaches
    # the browser ahead of the editor's widgets (the editor shows this same text).
    reset_text = SEED_TEXT if chosen is AgentState else default_text
    text = editor_text(keys.PAYLOAD, reset_text)
    report = validate_text(text, model)
    comparison = _comparison(report, graph)
    entry = (
        None
        if comparison is None
        else Report(model=model, text=text, errors=comparison.verdict.errors)
    )
    # One table for both verdicts: each located error once, with who rejects it.
    rejected = None if comparison is None else rejected_errors(report, comparison)
    by = None if rejected is None else [row.by for row in rejected]
    theirs = None if rejected is None else [row.theirs for row in rejected]
    shown = (  # what the table and the exports hold
        report
        if rejected is None
        else Report(model=model, text=text, errors=[row.error for row in rejected])
    )
    # The verdict spans the page above the editor: on a phone, where the columns stack, it
    # is the first thing under the options rather than a screen below the top.
    # The editor keeps one width whatever the verdict: it narrowed (480 -> 315 px at 1400)
    # when errors arrived, and its lines wrapped anew under the user's hands (issue 41, item 9).
    verdict_box, controls, edit, result = workbench()
    with verdict_box:
        if comparison is None:  # not JSON we can give LangGraph: the text's own problem
            verdict(report, texts=GATE)
        else:
            entry_banner(headline(report, comparison))
    with result:
        heading("Errors")
        if entry and report.ok and not entry.errors and not report.duplicates:
            st.caption("No errors: your model and LangGraph's entry both accept this payload.")
        chosen_error, pick = _selectable(shown, keys.ERRORS, by, theirs)
        if entry and report.ok and any(e.type == "is_instance_of" for e in entry.errors):
            st.info(PYTHON_MODE_NOTE)
        exports(shown, key=keys.EXPORT, by=by)
        view = st.session_state[keys.VALIDATE_VIEW]
        shared = shown_link(
            ValidateLink,
            payload=text,
            options=options.to_dict(),
            view=view,
            editor=st.session_state[keys.EDITOR_VIEW],  # the JSON text or the form, as shown
            # a name, never a module path: links cannot load code
            model="seed" if chosen is AgentState else "project",
            # the schema shown on the page, not only its download
            schema_show=view == "JSON Schema" and bool(st.session_state.get(keys.SCHEMA_SHOW)),
            error=pick,  # the details beside the table, the caret at the error
        )
        st.session_state.pop(keys.LINK_ERROR, None)  # a link's row, only in the run it opened
        share_button("validate", shared, key=keys.SHARE)
    # The form above the text it rewrites, both in view. All of it in the controls' box,
    # whether shown or not: the editor keeps its place in the page, so Streamlit never
    # remounts its iframe when the form comes and goes (a remount lost its undo history, and
    # could leave it blank: "component message for unregistered ComponentInstance").
    with controls:
        heading("Payload")
        # Here, with the text as typed this run: the box names the preset the text holds.
        preset_box(presets, text, key=keys.PRESET, table=keys.ERRORS)
        if chosen is AgentState:
            _first_contact(presets)
        editor = st.segmented_control(
            "Edit as", EDITORS, required=True, key=keys.EDITOR_VIEW, persist_state="session"
        )
        if editor == "Form":
            model_form(text, model, report.errors)  # the errors the table shows
    with edit:
        payload_editor(
            keys.PAYLOAD,
            reset_text,
            height=EDITOR_HEIGHT,
            marks=report_marks(report, entry),
            goto=selected_spot(chosen_error, key=keys.ERRORS),
        )

    with more():
        heading("More about this payload")
        view = st.segmented_control(
            "View", VIEWS, required=True, key=keys.VALIDATE_VIEW, persist_state="session"
        )
        if view == "Annotated text":
            _annotated(report, entry)
        elif view == "Coercion lens":
            _lens(report)
        elif view == "What LangGraph would do":
            _entry(comparison, graph)
        elif view == "Model source":
            source = model_source(options) if chosen is AgentState else _source(model)
            st.code(source, language="python")
        else:
            _json_schema(model)


def _annotated(report: Report, entry: Report | None) -> None:
    """The text with every error marked: the model alone's, then LangGraph's own ones."""
    seen = {e.identity for e in report.errors}
    extra = [e for e in (entry.errors if entry else []) if e.identity not in seen]
    marked = Report(model=report.model, text=report.text, syntax_error=report.syntax_error)
    marked.errors = report.errors + extra
    if marked.ok and not report.duplicates:
        st.caption("No error positions to mark.")
    # Its lines fit the page at 1400 px (a long one goes on in pieces, each caret under its
    # own); narrower, the block scrolls sideways: wrapped, a line went on under the line
    # numbers' gutter on a phone and its caret left its character (issue 41, item 9).
    st.code(annotated_text(marked), language=None, wrap_lines=False)


def _lens(report: Report) -> None:
    if report.ok and report.value is not None:
        rows = [row.__dict__ for row in coercion_rows(report.input, report.value)]
        st.caption("Each input leaf next to what the model holds after validation.")
        st.dataframe(pd.DataFrame(rows), key=keys.LENS, hide_index=True)
    else:
        st.info("The coercion lens needs a payload that validates; fix the errors first.")


def _comparison(report: Report, graph: CompiledGraph) -> EntryComparison | None:
    """LangGraph's entry on the payload (a real interrupted run), kept for reruns that change
    neither the text nor the model; None when the text is not JSON LangGraph could take."""
    if report.syntax_error is not None:
        return None
    kept = st.session_state.get(keys.ENTRY_COMPARISON)
    if kept is not None and kept[0] == (report.text, report.model, id(graph)):
        reused: EntryComparison = kept[1]
        return reused
    comparison = compare_entry(report, graph)
    st.session_state[keys.ENTRY_COMPARISON] = ((report.text, report.model, id(graph)), comparison)
    return comparison


def _selectable(
    report: Report,
    table: str,
    by: list[Rejecter] | None = None,
    theirs: list[str | None] | None = None,
) -> tuple[FieldError | None, dict[str, Any] | None]:
    """`report`'s error table `table`, rows selectable, with who rejects each row (`by`):
    the error selected, and where it is as a link names it (its table and position). The
    row an opened link names in this table is selected before the table is drawn."""
    wanted = st.session_state.get(keys.LINK_ERROR)
    if wanted is not None and wanted[0] == table:
        select_row(table, wanted[1])
    chosen = error_table(report, key=table, texts=None, selectable=True, by=by, theirs=theirs)
    row = next((n for n, error in enumerate(report.errors) if error is chosen), None)
    return chosen, None if row is None else {"table": table, "row": row}


def _first_contact(presets: dict[str, tuple[str, str]]) -> None:
    """One click to a payload the gate rejects, next to the editor (the seed order is valid)."""
    # The button alone: the editor's own caption says the text is checked as you type (a
    # caption and a row beside it here cost each round trip's redraw about 20 components).
    st.button(
        "Try a broken order",
        key=keys.BROKEN_EXAMPLE,
        icon=":material/bug_report:",
        on_click=load_fresh,  # named in the preset box, as a preset picked there is
        args=(*presets[BROKEN_EXAMPLE], keys.ERRORS),
        help=f"Loads the preset {PRESETS[BROKEN_EXAMPLE].title!r}: "
        f"{PRESETS[BROKEN_EXAMPLE].summary} Errors are marked in the editor and listed "
        "in the table; select a row to jump to it.",
    )


def _entry(comparison: EntryComparison | None, graph: CompiledGraph) -> None:
    if comparison is None:
        st.info("LangGraph's entry needs JSON; fix the text first.")
        return
    nodes = ", ".join(comparison.verdict.first_nodes) or "END"
    verdict = "runs the first node" if comparison.langgraph_accepted else "raises before any node"
    st.caption(
        f"A real run of the graph up to its first node ({plain(nodes)}), stopped before any "
        f"node code runs: LangGraph {verdict}."
    )
    if comparison.langgraph_error:
        st.code(comparison.langgraph_error, language=None, wrap_lines=True)
    if comparison.differences:
        st.dataframe(
            pd.DataFrame(comparison.differences),
            key=keys.ENTRY_DIFF,
            hide_index=True,
            **fitted(comparison.differences, DIFFERENCE_WIDTHS),
        )
    else:
        st.caption("LangGraph and your model alone agree on this payload.")
    if comparison.node_saw is not None:
        st.caption("What the first node receives (LangGraph built it with its model):")
        st.json(comparison.node_saw, expanded=1)


def _json_schema(model: type[BaseModel]) -> None:
    schema_text = json_schema_text(model)
    st.download_button(
        "Download JSON Schema", schema_text, file_name="schema.json", key=keys.SCHEMA_DOWNLOAD
    )
    if st.toggle(
        "Show the schema here",
        key=keys.SCHEMA_SHOW,
        persist_state="session",
        help=f"It is long: {count(len(schema_text.encode()), 'byte')}.",
    ):
        st.json(schema_text, expanded=2)


_workbench(chosen, options, model, graph, default_text, presets)
