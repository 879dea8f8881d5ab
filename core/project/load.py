"""Your own model and graph: resolve them from server configuration, import and check them."""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.lg_compat import builder_of, input_schema, state_schema
from core.project.checks import ProjectError, graph_caveats, is_model, load_graph, load_model

if TYPE_CHECKING:  # importing the seed order loads langgraph.graph: not for `audit --model`
    from core.order.graph import CompiledGraph

__all__ = [
    "CANDIDATE_ENV",
    "CONFIG_FILE",
    "GRAPH_ENV",
    "MODEL_ENV",
    "Project",
    "ProjectError",
    "ProjectSpec",
    "is_configured",
    "load_project",
    "playground_table",
]

CONFIG_FILE = "playground.toml"
MODEL_ENV, GRAPH_ENV = "PLAYGROUND_MODEL", "PLAYGROUND_GRAPH"
# A changed model the Threads page audits stored states against ("would not resume").
CANDIDATE_ENV = "PLAYGROUND_CANDIDATE"
_SPEC = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


@dataclass(frozen=True)
class ProjectSpec:
    """Where the model, graph and candidate come from: "pkg.mod:Attr" specs and sources."""

    model: str | None = None
    graph: str | None = None
    model_from: str = "default"  # "flag", "playground.toml", "environment" or "default"
    graph_from: str = "default"
    candidate: str | None = None
    candidate_from: str = "default"


def _seed_model() -> type[BaseModel]:
    from core.order import AgentState

    return AgentState


@dataclass(frozen=True)
class Project:
    """What the pages use: the model and the graph to run (None: seed). Your model, the one a
    payload is written for, and the graph it enters are picked from them by
    `core.validate.entry.project_entry`."""

    spec: ProjectSpec = field(default_factory=ProjectSpec)
    # None: a non-Pydantic state and no --model. The seed order by default, imported lazily.
    model: type[BaseModel] | None = field(default_factory=_seed_model)
    graph: CompiledGraph | None = None
    # A changed version of `model` (e.g. a new required field) to audit stored states
    # against; one that fails to load is a note, not an error: the rest works without it.
    candidate: type[BaseModel] | None = None
    errors: tuple[ProjectError, ...] = ()  # what failed; the seed order is used instead
    notes: tuple[ProjectError, ...] = ()  # loaded, with a caveat the pages must state

    @property
    def seed_model(self) -> bool:
        return self.model is _seed_model()


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


def is_configured(argv: Sequence[str], env: Mapping[str, str], cwd: Path | str) -> bool:
    """Whether a model, graph or candidate of the user's is named (by flag, playground.toml
    or environment, as `load_project` reads them); a configuration that cannot be read
    counts: loading it says why. Imports nothing of the user's.

    Example:
        >>> is_configured(["--server.port", "8501"], {}, "/nonexistent")
        False
        >>> is_configured(["--graph=shop.graph:builder"], {}, "/nonexistent")
        True
    """
    try:
        spec = _resolve(argv, env, Path(cwd))
    except ProjectError:
        return True
    return any((spec.model, spec.graph, spec.candidate))


def _resolve(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> ProjectSpec:
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--model")
    parser.add_argument("--graph")
    parser.add_argument("--candidate")
    flags, _ = parser.parse_known_args(list(argv))
    config = _config_file(cwd / CONFIG_FILE)
    found: dict[str, tuple[str | None, str]] = {}
    named = (("model", MODEL_ENV), ("graph", GRAPH_ENV), ("candidate", CANDIDATE_ENV))
    for name, env_name in named:
        sources = [
            (getattr(flags, name), "flag"),
            (config.get(name), CONFIG_FILE),
            (env.get(env_name) or None, "environment"),
        ]
        found[name] = next(((v, s) for v, s in sources if v), (None, "default"))
        value, source = found[name]
        if value is not None and not _SPEC.match(value):
            raise ProjectError(
                ErrorCode.BAD_SPEC,
                f"{name} {value!r} (from {source}) is not of the form 'package.module:Attribute'; "
                "write the module path, a colon, then the name, e.g. 'shop.state:OrderState'.",
            )
    (model, model_from), (graph, graph_from) = found["model"], found["graph"]
    candidate, candidate_from = found["candidate"]
    return ProjectSpec(model, graph, model_from, graph_from, candidate, candidate_from)


def playground_table(path: Path) -> dict[str, Any]:
    """playground.toml's `[playground]` table, the one reading of that file for the model, the
    graph, the store and public mode alike: {} without the file or the table.

    Raises `ProjectError` (`bad_config_file`) for a file that cannot be read as TOML, or whose
    `playground` is not a table, naming the file and never quoting it (it may hold a DSN).

    Example:
        >>> playground_table(Path("/nonexistent/playground.toml"))
        {}
    """
    if not path.is_file():
        return {}
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("playground", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        raise ProjectError(
            ErrorCode.BAD_CONFIG_FILE, f"{path} cannot be read as TOML; fix the [playground] table."
        ) from None
    if not isinstance(table, dict):
        raise ProjectError(
            ErrorCode.BAD_CONFIG_FILE,
            f"{path}: playground is not a table; write [playground] on a line of its own, then "
            "its entries under it.",
        )
    return table


def _config_file(path: Path) -> dict[str, str]:
    table = playground_table(path)
    if any(not isinstance(table.get(k, ""), str) for k in ("model", "graph", "candidate")):
        raise ProjectError(
            ErrorCode.BAD_CONFIG_FILE,
            f'{path}: write a [playground] table with string entries model = "pkg.mod:Model" '
            'and graph = "pkg.mod:builder" (and optionally candidate = "pkg.mod:NewModel").',
        )
    return table


def _build(spec: ProjectSpec) -> Project:
    model = load_model(spec.model) if spec.model else None
    graph = load_graph(spec.graph) if spec.graph else None
    candidate, notes = None, []
    if spec.candidate:
        try:
            candidate = load_model(spec.candidate, "candidate")
        except ProjectError as exc:
            notes.append(exc)
    if graph is None:
        return Project(spec, model or _seed_model(), candidate=candidate, notes=tuple(notes))
    builder = builder_of(graph)
    state, given = state_schema(builder), input_schema(builder)
    if model is None and is_model(state):
        model = state
    elif model is None and is_model(given):
        model = given
    notes += graph_caveats(graph, model)
    return Project(spec, model, graph, candidate, notes=tuple(notes))
