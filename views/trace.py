"""Trace page: run the payload through a real LangGraph graph and step through every node."""

from __future__ import annotations

from typing import Any

import streamlit as st
from pydantic import BaseModel

from core.errors import CodedError
from core.guard.traced import guarded_run, guarded_saver
from core.order import FAULTS, AgentState
from core.order.schema_options import SchemaOptions, build_model
from core.trace import Trace
from core.trace.focus import opened_row
from core.trace.from_text import SEED_GRAPHS, trace_text
from ui import keys
from ui.access import hosting
from ui.editor.payload import current_payload_text, editor_text, payload_editor
from ui.errors.focus import details_text
from ui.errors.view import PYTHON_MODE_NOTE
from ui.project import active_project, gallery, init_payload, preset_picker
from ui.schema_options import current_options
from ui.tables import room_for_table_toolbars
from ui.trace.fork import forget_forks, fork_section, open_shared_forks
from ui.trace.guard import guard_panel
from ui.trace.marks import payload_marks
from ui.trace.share import restore_trace_share, select_shared_step, share_section
from ui.trace.stepping import current_row, pair_height, step_detail, stepper
from ui.trace.values import text_code
from ui.trace.view import output_panel, step_panels
from ui.trace_table import RUN_ROOM, trace_table
from ui.trace_verdict import run_headline

_GATE_FIX = (
    "Fix the payload in the editor above (each error is marked at its line:col), then press "
    "Run again."
)
MODES = {"checked": "Check every step", "native": "LangGraph native"}
_OPEN_UP_TO = 3  # errors: the gate's errors in full are shown open when this few
EDITOR_HEIGHT = 190  # px: 9 lines; with its tools, as tall as the settings beside it


def _state_model() -> type[BaseModel]:
    """The model the editor's marks check the text against: what the chosen graph's gate uses
    (the seed state shaped by the Validate page's schema options, or your project's model)."""
    if st.session_state[keys.TRACE_GRAPH] == "project" and project.model is not None:
        return project.model
    return build_model(current_options())


def _settings() -> dict[str, Any]:
    graph = st.session_state[keys.TRACE_GRAPH]
    settings = {
        "payload": current_payload_text(),
        "graph": graph,
        "faults": list(st.session_state[keys.TRACE_FAULTS] if graph == "seed" else []),
        "mode": st.session_state[keys.TRACE_MODE],
    }
    if graph in SEED_GRAPHS:  # the Validate page's schema options shape the seed state model
        settings["options"] = current_options().to_dict()
    if st.session_state.get(keys.TRACE_GUARD):  # only when on: a link without it runs unguarded
        settings["guard"] = True
    return settings


def _options_note(settings: dict[str, Any]) -> None:
    options = settings.get("options")
    defaults = SchemaOptions().to_dict()
    changed = {name: value for name, value in (options or {}).items() if value != defaults[name]}
    if changed:
        st.info(
            "The schema options set on the Validate page apply here too: the graph's state is "
            "the order model with these options (change them there)."
        )
        st.code(
            "\n".join(f"{name} = {value!r}" for name, value in changed.items()),
            language=None,
            wrap_lines=True,
        )


def _run(settings: dict[str, Any], *, run_anyway: bool = False) -> dict[str, Any]:
    forget_forks()
    # A per-session run number (not id(trace), which Python reuses) ties editor text to a run.
    run = st.session_state[keys.TRACE_RUNS] = st.session_state.get(keys.TRACE_RUNS, 0) + 1
    result: dict[str, Any] = {"settings": settings, "run": run, "run_anyway": run_anyway}
    guarded = bool(settings.get("guard"))
    try:
        outcome = trace_text(
            settings["payload"],
            graph=settings["graph"],
            faults=settings["faults"],
            checked=settings["mode"] == "checked",
            options=settings.get("options"),
            project=project,
            run_anyway=run_anyway,
            checkpointer=guarded_saver if guarded else None,
        )
    except CodedError as error:  # the guard needs a Pydantic state model
        result["guard_error"] = str(error)
        st.session_state[keys.TRACE_RESULT] = result
        return result
    if guarded:
        result["guard"] = guarded_run(outcome)
    if outcome.syntax is not None:
        result["syntax"] = outcome.syntax
    else:
        if outcome.json_accepts is not None:
            result["json_accepts"] = outcome.json_accepts
        result["trace"] = outcome.trace
    st.session_state[keys.TRACE_RESULT] = result
    # Open the run where it went wrong: the first failing (or blamed) row, else the first row
    # that lost data silently, else the first.
    opened = opened_row(outcome.trace) if outcome.trace is not None else None
    st.session_state[keys.STEP_SLIDER] = opened or 0
    return result


def _show(result: dict[str, Any]) -> None:
    if result["settings"] != _settings():
        st.warning("The settings or payload changed since this run; press Run to see them.")
    if "guard_error" in result:
        st.error("The guard cannot run this graph:")
        st.code(result["guard_error"], language=None, wrap_lines=True)
        return
    if "syntax" in result:
        st.error("The payload is not valid JSON, so nothing ran. Fix it in the editor above:")
        st.code(result["syntax"], language=None, wrap_lines=True)
        return
    trace = result["trace"]
    if not trace.steps:
        st.subheader("Node trace")  # our gate refused the payload, or LangGraph did before any step
        trace_table(trace, key=keys.TRACE, fix=_GATE_FIX)
        _gate_in_full(trace)
        _notes(result)
        if "guard" in result:
            guard_panel(result["guard"])
        if trace.ran:
            st.subheader("Final output")
            output_panel(trace, key=keys.OUTPUT)
        return
    run_headline(trace)
    _notes(result)
    if "guard" in result:
        guard_panel(result["guard"])
    index = current_row(trace)
    # The selected row's detail beside the table: after a failing run, the failure's. Both
    # are as tall for every row (the detail scrolls inside its box), so stepping never moves
    # the stepper under them (a detail's height moved it ~380 px: issue 41, item 7).
    table_col, detail_col = st.columns([7, 3])
    height = pair_height(trace)
    with table_col:
        trace_table(
            trace,
            key=keys.TRACE,
            fix=_GATE_FIX,
            selected=index,
            slider=keys.STEP_SLIDER,
            room=RUN_ROOM,
        )
    with detail_col, st.container(key=keys.TRACE_DETAIL, height=height):
        step_detail(trace, index)
    _gate_in_full(trace)
    st.subheader("Step through the run")
    index = stepper(trace)
    step_panels(trace, index, key=keys.STEP_PANELS)
    st.subheader("Final output")
    if trace.error is not None:  # the headline holds its first line; every row can reach it
        with st.expander("LangGraph's error, in full") as full:
            text_code(full, trace.error.message, key=keys.TRACE_ERROR, name="error")
    output_panel(trace, key=keys.OUTPUT)
    fork_section(trace, index, result["run"])


def _gate_in_full(trace: Trace) -> None:
    """Each of our gate's errors whole, under its table: the table's cells stop at their
    column's edge (a ctx read `{"error": "invalid character: found `n` a`), this wraps."""
    if not trace.gate_errors:
        return
    with st.expander("Each error in full", expanded=len(trace.gate_errors) <= _OPEN_UP_TO):
        st.code(
            "\n\n".join(details_text(error) for error in trace.gate_errors),
            language=None,
            wrap_lines=True,
        )


def _run_anyway(settings: dict[str, Any]) -> None:
    """The Run anyway button: the same run, past our gate's refusal."""
    _run(settings, run_anyway=True)


def _notes(result: dict[str, Any]) -> None:
    trace = result["trace"]
    if result.get("json_accepts"):
        st.info(PYTHON_MODE_NOTE)
    if trace.gate_errors and not trace.ran:
        st.button(
            "Run anyway",
            key=keys.RUN_ANYWAY,
            on_click=_run_anyway,
            args=(_settings(),),
            help="Record what our model says above, then run the graph on the payload all the "
            "same, to see what LangGraph itself does with it.",
        )
    hint = trace.error.hint if trace.error else None
    if hint:
        st.info(hint)


@st.fragment  # stepping (slider, Prev / Next, a table row, the fork) reruns only the results
def _results() -> None:
    result = st.session_state.get(keys.TRACE_RESULT)
    if result is None:  # nothing to export or share yet: no control before it can act
        st.info("Pick a graph and faults, then press Run.")
        return
    _show(result)
    share_section(result)


st.title("Trace")
room_for_table_toolbars()  # on a phone, no toolbar covers a caption
st.caption(
    "Run the payload through a real LangGraph StateGraph (the seed order's, or yours), "
    "then walk every node: what it saw, what it returned, what each reducer merged."
)
project = active_project()
default_text = init_payload(project.model)
GRAPHS = ({"project": "Your graph"} if project.graph is not None else {}) | SEED_GRAPHS
shared_step = restore_trace_share(GRAPHS, MODES, FAULTS)
if st.session_state.get(keys.TRACE_GRAPH) not in GRAPHS:
    st.session_state[keys.TRACE_GRAPH] = next(iter(GRAPHS))
st.session_state.setdefault(keys.TRACE_FAULTS, [])
st.session_state.setdefault(keys.TRACE_MODE, "checked")
st.session_state.setdefault(keys.TRACE_GUARD, False)

presets = gallery(project.model or AgentState)
# The payload beside the run's settings, as a debugger's input pane: edit it here (the same
# editor, and the same text, as the Validate page), then Run.
edit_col, settings_col = st.columns([3, 2])
with edit_col:
    typed = editor_text(keys.PAYLOAD, default_text)  # what was typed since the last run
    payload_editor(
        keys.PAYLOAD,
        default_text,
        height=EDITOR_HEIGHT,
        marks=payload_marks(typed, _state_model()),
    )
with settings_col:
    # The box shows the preset the payload holds, nothing under it (as on Validate).
    preset_picker(
        presets, key=keys.TRACE_PRESET, placeholder="Replace the payload with a preset…", text=typed
    )
    graph_col, mode_col = st.columns(2)
    graph_col.radio(
        "Graph", list(GRAPHS), format_func=GRAPHS.get, key=keys.TRACE_GRAPH, persist_state="session"
    )
    mode_col.radio(
        "Mode",
        list(MODES),
        format_func=MODES.get,
        key=keys.TRACE_MODE,
        persist_state="session",
        help="LangGraph native: only what LangGraph itself does and reports, no gate or blame "
        "of ours. Check every step: our model first gates the payload, then we validate the "
        "merged state after each step and blame the node whose write broke it.",
    )
    # Run beside the faults and the Guard switch: the run's table in view under the editor at
    # 1400 × 900.
    with st.container(horizontal=True, vertical_alignment="bottom"):
        st.multiselect(
            "Faults (seed graph)",
            list(FAULTS),
            format_func=lambda fault: f"{fault} — {FAULTS[fault]}",
            key=keys.TRACE_FAULTS,
            persist_state="session",
            disabled=st.session_state[keys.TRACE_GRAPH] != "seed",
        )
        st.toggle(
            "Guard",
            key=keys.TRACE_GUARD,
            persist_state="session",
            help="Store the run's checkpoints through core.guard's GuardedSaver, as a production "
            "graph would with the guard: see where it refuses a state the model rejects, and that "
            "the thread's history still reads afterwards.",
        )
        clicked = st.button("Run", key=keys.RUN, type="primary")
if st.session_state[keys.TRACE_GRAPH] == "project":
    st.caption("Your graph, as configured (faults apply to the seed graph only):")
    st.code(str(project.spec.graph), language=None, wrap_lines=True)
    for note in project.notes:
        st.code(str(note), language=None, wrap_lines=True)
_options_note(_settings())
if shared_step is not None and hosting().public:  # a link sets the run up; a click runs it
    st.session_state[keys.TRACE_LINK_WAITING], shared_step = shared_step, None
if clicked:
    shared_step = st.session_state.pop(keys.TRACE_LINK_WAITING, shared_step)
elif keys.TRACE_LINK_WAITING in st.session_state:
    st.info(
        "This link's run is set up above: press Run to run it (on this public server, a "
        "link never runs a graph by itself)."
    )
if clicked or shared_step is not None:
    result = _run(
        _settings(), run_anyway=st.session_state.pop(keys.TRACE_RUN_ANYWAY_REQUEST, False)
    )
    if shared_step is not None:
        select_shared_step(result, shared_step)
    open_shared_forks(result)

_results()
