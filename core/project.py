"""Your own model and graph: resolve them from server configuration, import and check them."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, is_typeddict

from langgraph.graph import StateGraph
from langgraph.graph.state import CompiledStateGraph
from pydantic import BaseModel

from core.order import AgentState

__all__ = [
    "CONFIG_FILE",
    "GRAPH_ENV",
    "MODEL_ENV",
    "Project",
    "ProjectError",
    "ProjectSpec",
    "explain_run_error",
    "load_project",
]

CONFIG_FILE = "playground.toml"
MODEL_ENV, GRAPH_ENV = "PLAYGROUND_MODEL", "PLAYGROUND_GRAPH"
_SPEC = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class ProjectError(Exception):
    """A model or graph the playground could not use (or a caveat about one), with a code."""

    def __init__(self, code: str, message: str) -> None:
        self.code, self.message = code, message
        super().__init__(f"[{code}] {message}")


@dataclass(frozen=True)
class ProjectSpec:
    """Where the model and graph come from: "pkg.mod:Attr" specs and their sources."""

    model: str | None = None
    graph: str | None = None
    model_from: str = "default"  # "flag", "playground.toml", "environment" or "default"
    graph_from: str = "default"


@dataclass(frozen=True)
class Project:
    """What the pages use: the model to validate against and the graph to run (None: seed)."""

    spec: ProjectSpec = field(default_factory=ProjectSpec)
    model: type[BaseModel] | None = AgentState  # None: a non-Pydantic state and no --model
    graph: CompiledStateGraph | None = None
    errors: tuple[ProjectError, ...] = ()  # what failed; the seed order is used instead
    notes: tuple[ProjectError, ...] = ()  # loaded, with a caveat the pages must state

    @property
    def seed_model(self) -> bool:
        return self.model is AgentState


def load_project(argv: Sequence[str], env: Mapping[str, str], cwd: Path | str) -> Project:
    """Resolve, import and check the model and graph: flag, then playground.toml, then env.

    `argv` is what follows `--` in `streamlit run app.py -- --model X --graph Y` (Streamlit's
    `sys.argv[1:]`); unknown arguments are ignored. Any error falls back to the seed order.

    Example:
        >>> project = load_project(["--model", "core.order:LineItem"], {}, ".")
        >>> project.model.__name__, project.spec.model_from, project.errors
        ('LineItem', 'flag', ())
    """
    spec = ProjectSpec()
    try:
        spec = _resolve(argv, env, Path(cwd))
        if str(Path(cwd).resolve()) not in sys.path:  # the user's modules sit beside the config
            sys.path.insert(0, str(Path(cwd).resolve()))
        return _build(spec)
    except ProjectError as exc:
        return Project(spec=spec, errors=(exc,))


def explain_run_error(message: str) -> str | None:
    """A hint when a run failed because the graph expected config, context or a resume.

    Example:
        >>> explain_run_error("KeyError: 'configurable'")[:38]
        'The graph reads config["configurable"]'
    """
    if "configurable" in message or "thread_id" in message:
        return (
            'The graph reads config["configurable"]; the playground passes only a thread_id. '
            "Give the keys defaults in your node, or wrap the graph in a factory that binds them."
        )
    if "context" in message.lower() and "runtime" in message.lower():
        return (
            "The graph reads runtime.context, which the playground does not pass. Give the "
            "context fields defaults, or point --graph at a variant that does not need them."
        )
    return None


def _resolve(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> ProjectSpec:
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--model")
    parser.add_argument("--graph")
    flags, _ = parser.parse_known_args(list(argv))
    config = _config_file(cwd / CONFIG_FILE)
    found: dict[str, tuple[str | None, str]] = {}
    for name, env_name in (("model", MODEL_ENV), ("graph", GRAPH_ENV)):
        sources = [
            (getattr(flags, name), "flag"),
            (config.get(name), CONFIG_FILE),
            (env.get(env_name) or None, "environment"),
        ]
        found[name] = next(((v, s) for v, s in sources if v), (None, "default"))
        value, source = found[name]
        if value is not None and not _SPEC.match(value):
            raise ProjectError(
                "bad_spec",
                f"{name} {value!r} (from {source}) is not of the form 'package.module:Attribute'; "
                "write the module path, a colon, then the name, e.g. 'shop.state:OrderState'.",
            )
    (model, model_from), (graph, graph_from) = found["model"], found["graph"]
    return ProjectSpec(model, graph, model_from, graph_from)


def _config_file(path: Path) -> dict[str, str]:
    if not path.is_file():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("playground", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ProjectError("bad_config_file", f"{path} cannot be read: {exc}. Fix it.") from exc
    if not isinstance(table, dict) or any(
        not isinstance(table.get(k, ""), str) for k in ("model", "graph")
    ):
        raise ProjectError(
            "bad_config_file",
            f'{path}: write a [playground] table with string entries model = "pkg.mod:Model" '
            'and graph = "pkg.mod:builder".',
        )
    return table


def _import(spec: str, kind: str) -> Any:
    module_name, _, attr = spec.partition(":")
    try:
        target: Any = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and f"{module_name}.".startswith(f"{exc.name}."):
            raise ProjectError(
                "module_not_found",
                f"{kind} module {module_name!r} was not found. Run the playground from the "
                "directory that holds it (or install it), and check the spelling.",
            ) from exc
        raise _import_failed(module_name, kind, exc) from exc
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - the user's module may raise anything
        raise _import_failed(module_name, kind, exc) from exc
    for part in attr.split("."):
        if not hasattr(target, part):
            raise ProjectError(
                "attribute_missing",
                f"{kind} module {module_name!r} has no attribute {part!r}; "
                "check the name after the colon.",
            )
        target = getattr(target, part)
    return target


def _import_failed(module_name: str, kind: str, exc: BaseException) -> ProjectError:
    return ProjectError(
        "module_import_failed",
        f"{kind} module {module_name!r} raised {type(exc).__name__} on import: {exc}. "
        "Fix the module so that importing it succeeds.",
    )


def _load_model(spec: str) -> type[BaseModel]:
    target = _import(spec, "model")
    if isinstance(target, type) and issubclass(target, BaseModel):
        return target
    what = "a TypedDict" if is_typeddict(target) else f"{_kind(target)}"
    raise ProjectError(
        "not_a_model",
        f"model {spec!r} is {what}, not a Pydantic BaseModel subclass; point --model at a "
        "class that subclasses pydantic.BaseModel.",
    )


def _load_graph(spec: str) -> CompiledStateGraph:
    target = _import(spec, "graph")
    if callable(target) and not isinstance(target, StateGraph | CompiledStateGraph | type):
        try:
            target = target()
        except Exception as exc:  # noqa: BLE001 - the user's factory may raise anything
            raise ProjectError(
                "graph_factory_failed",
                f"graph factory {spec!r} raised {type(exc).__name__}: {exc}. A factory must "
                "take no arguments and return a StateGraph or a compiled graph.",
            ) from exc
    if isinstance(target, StateGraph):
        try:
            target = target.compile()
        except Exception as exc:  # noqa: BLE001 - e.g. a builder with no entry point
            raise ProjectError(
                "graph_compile_failed",
                f"graph {spec!r} did not compile: {type(exc).__name__}: {exc}. Fix the builder.",
            ) from exc
    if not isinstance(target, CompiledStateGraph):
        raise ProjectError(
            "not_a_graph",
            f"graph {spec!r} is {_kind(target)}; point --graph at a StateGraph builder, a "
            "compiled graph, or a zero-argument function returning one.",
        )
    return target


def _kind(value: Any) -> str:
    if isinstance(value, type):
        return f"the class {value.__qualname__}"
    return f"a {type(value).__name__} value"


def _build(spec: ProjectSpec) -> Project:
    model = _load_model(spec.model) if spec.model else None
    graph = _load_graph(spec.graph) if spec.graph else None
    if graph is None:
        return Project(spec=spec, model=model or AgentState)
    notes = _graph_notes(graph)
    state, given = graph.builder.state_schema, graph.builder.input_schema
    if model is None and _is_model(state):
        model = state
    elif model is None and _is_model(given):
        model = given
    if not _is_model(state):
        checked = (
            f"The gate and the per-step checks validate {model.__name__}'s fields only."
            if model
            else "No Pydantic model is checked: pass --model (or an input_schema) to validate."
        )
        kind = "a TypedDict" if is_typeddict(state) else _kind(state).removeprefix("the ")
        if dataclasses.is_dataclass(state):
            kind = "a dataclass"
        notes.insert(
            0,
            ProjectError(
                "state_not_pydantic",
                f"the graph's state {state.__name__} is {kind}: LangGraph validates nothing "
                f"between nodes. {checked}",
            ),
        )
    return Project(spec=spec, model=model, graph=graph, notes=tuple(notes))


def _is_model(value: Any) -> bool:
    return isinstance(value, type) and issubclass(value, BaseModel)


def _graph_notes(graph: CompiledStateGraph) -> list[ProjectError]:
    context = getattr(graph.builder.context_schema, "__name__", None)
    readers = [
        name
        for name, node in graph.builder.nodes.items()
        if {"config", "runtime"} & set(getattr(node.runnable, "func_accepts", {}))
    ]
    stops = ", ".join(map(str, [*graph.interrupt_before_nodes, *graph.interrupt_after_nodes]))
    checks = [
        (graph.checkpointer not in (None, False), "graph_checkpointer_replaced",
         "the graph was compiled with a checkpointer; every run here uses its own fresh "
         "in-memory checkpointer instead, so your store is never read or written."),
        (context is not None, "graph_needs_context",
         f"the graph declares context_schema {context}; runs here pass no context, so nodes "
         "reading runtime.context get None."),
        (bool(readers), "graph_reads_config",
         f"node(s) {', '.join(readers)} take config or runtime; runs here pass only a "
         "thread_id and no context, so keys your nodes expect there are missing."),
        (bool(stops), "graph_interrupts",
         f"the graph interrupts at {stops}; a run here stops there and is not resumed. "
         "Compile a variant without interrupt_before/after."),
    ]  # fmt: skip
    return [ProjectError(code, message) for hit, code, message in checks if hit]
