"""The project's model and graph: loaded once per process from server configuration, shown."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
from pydantic import BaseModel

from core.jsontext.write import to_text
from core.order import AgentState
from core.order.presets import PRESETS, SEED_TEXT
from core.project import CANDIDATE_ENV, CONFIG_FILE, GRAPH_ENV, MODEL_ENV, Project, load_project
from core.redact import redact, secrets_of
from core.validate.entry import project_entry
from core.validate.examples import Example, ExampleError, model_examples
from ui import keys
from ui.access import hosting, say_once, trusted
from ui.editor.payload import set_payload_text

__all__ = [
    "active_project",
    "gallery",
    "init_payload",
    "load_preset",
    "loaded_preset",
    "preset_picker",
    "project_sidebar",
]


@st.cache_resource(show_spinner="Loading the configured model and graph…")
def _load(argv: tuple[str, ...], env: tuple[str, str, str], cwd: str, stamp: int) -> Project:
    # Server configuration only (argv, environment, the working directory's file): the same
    # for every session, so caching it per process shares nothing user-specific.
    names = (MODEL_ENV, GRAPH_ENV, CANDIDATE_ENV)
    project = load_project(argv, dict(zip(names, env, strict=True)), cwd)
    for problem in (*project.errors, *project.notes):  # the host reads them whole, in the log
        say_once(f"the configured project: {problem}")
    return project


@st.cache_resource(show_spinner=False)
def _seed_project() -> Project:
    return Project()


def active_project() -> Project:
    """The model and graph configured by `--model/--graph`, playground.toml or the env vars;
    on a public server, for signed-in members only (`ui.access.trusted`): everyone else
    gets the seed order, and nothing of the host's project is imported for them."""
    if not trusted():
        return _seed_project()
    cwd = Path.cwd()
    config = cwd / CONFIG_FILE
    stamp = config.stat().st_mtime_ns if config.is_file() else 0  # an edited file reloads
    env = (
        os.environ.get(MODEL_ENV, ""),
        os.environ.get(GRAPH_ENV, ""),
        os.environ.get(CANDIDATE_ENV, ""),
    )
    return _load(tuple(sys.argv[1:]), env, str(cwd), stamp)


@st.cache_resource(show_spinner=False)
def _examples(name: str, _model: type[BaseModel]) -> dict[str, Example[Any]] | str:
    try:
        return model_examples(_model)
    except ExampleError as exc:
        return str(exc)


def _written_for(model: type[BaseModel]) -> type[BaseModel]:
    """The model payloads are written for: the project's graph's input_schema, if it has one,
    stands in for the project's model (LangGraph validates the input with it)."""
    project = active_project()
    return (project_entry(project).model or model) if model is project.model else model


def gallery(model: type[BaseModel]) -> dict[str, tuple[str, str]]:
    """Preset name -> (label, JSON text): the seed presets, or the model's own examples.

    For the project's model, the examples are its graph's input_schema's when it declares one.
    """
    model = _written_for(model)
    if model is AgentState:
        return {k: (f"{p.title} — {p.summary}", p.value) for k, p in PRESETS.items()}
    examples = _examples(f"{model.__module__}.{model.__qualname__}:{id(model)}", model)
    if isinstance(examples, str):
        return {}
    return {k: (f"{e.title} — {e.summary}", to_text(e.value)) for k, e in examples.items()}


def preset_picker(
    presets: dict[str, tuple[str, str]],
    *,
    key: str,
    placeholder: str,
    text: str,
    on_load: Callable[[], None] | None = None,
) -> None:
    """A select box over `presets` (from `gallery`); picking one replaces the shared payload
    (and then calls `on_load`, e.g. to untick a row that belonged to the text replaced).

    `text` is the payload as typed this run, read before the box is drawn: the box shows the
    preset `text` holds, or its placeholder once the text is edited, pasted or replaced, and
    nothing is drawn under it: the box itself says what is loaded, so a load moves nothing
    below it (issue 41, item 9). Picking the same preset again after an edit loads it again,
    as the box is back on its placeholder by then.
    """
    st.session_state[key] = loaded_preset(presets, text)  # before the box: its value this run
    st.selectbox(
        "Preset",
        list(presets),
        format_func=lambda name: presets[name][0],
        key=key,
        index=None,
        placeholder=placeholder,
        on_change=_load_preset,
        args=(presets, key, on_load),
    )


def loaded_preset(presets: dict[str, tuple[str, str]], text: str) -> str | None:
    """The preset whose text `text` is, when it was loaded as one; None once edited."""
    loaded = st.session_state.get(keys.PRESET_LOADED)
    if loaded is None or loaded[1] != text:
        return None
    return next((name for name, shown in presets.items() if shown == tuple(loaded)), None)


def load_preset(label: str, text: str) -> None:
    """Replace the shared payload with a preset's `text` (a widget callback); `label` names
    it in the preset pickers while the payload is that text."""
    set_payload_text(text)
    st.session_state[keys.PRESET_LOADED] = (label, text)


def _load_preset(
    presets: dict[str, tuple[str, str]],
    key: str,
    on_load: Callable[[], None] | None,
) -> None:
    name = st.session_state.get(key)
    if name in presets:
        load_preset(*presets[name])
        if on_load is not None:
            on_load()


def init_payload(model: type[BaseModel] | None) -> str:
    """The editor's default text for `model`; a new session starts from it."""
    if model is None or _written_for(model) is AgentState:
        return SEED_TEXT
    texts = [text for _, text in gallery(model).values()]
    default = texts[0] if texts else "{}"
    st.session_state.setdefault(keys.PAYLOAD_TEXT, default)
    return default


def _name(model: type[BaseModel] | None) -> str:
    return "(none)" if model is None else f"{model.__module__}:{model.__qualname__}"


def _project_text(project: Project) -> str:
    """What is loaded for the model and the graph, what was asked for, and from where.

    Text, not a table: in the sidebar's width a table cut the loaded names off.
    """
    spec = project.spec
    graph = spec.graph if project.graph is not None else "seed order graphs"
    lines: list[str] = []
    entries = [
        ("model", spec.model, spec.model_from, _name(project.model)),
        ("graph", spec.graph, spec.graph_from, graph),
    ]
    if spec.candidate:  # a changed model the Threads page audits stored states against
        entries.append(("candidate", spec.candidate, spec.candidate_from, _name(project.candidate)))
    for entry, requested, source, loaded in entries:
        lines += [entry, f"  {loaded}"]  # one name a line: the sidebar is narrow
        if requested and requested != loaded:
            lines.append(f"  requested {requested}")
        lines.append(f"  from {source}")
    return "\n".join(lines)


def project_sidebar(project: Project) -> None:
    """Which model and graph are loaded and from where; load errors and caveats as code,
    secrets cut out. On a public server, a visitor who is not a signed-in member is told
    only that the seed order is theirs: no module path or error text of the host's."""
    if hosting().public and not trusted():
        st.caption("Model and graph")
        st.code("the seed order (AgentState and its graphs)", language=None, wrap_lines=True)
        return
    st.caption("Model and graph (from the server's configuration)")
    st.code(_project_text(project), language=None, wrap_lines=True)
    known = secrets_of(os.environ)
    if project.errors:
        st.error("The configured project did not load; the seed order is used instead.")
        for error in project.errors:
            st.code(redact(str(error), known), language=None, wrap_lines=True)
    if project.notes:
        st.warning("Loaded, with caveats:")
        for note in project.notes:
            st.code(redact(str(note), known), language=None, wrap_lines=True)
