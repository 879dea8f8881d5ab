"""One reading of what a store is read with, for the command line and the pages alike: which
store and assistant, which model judges its states, which candidate, which types it decodes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from core.lg_compat import builder_of, input_schema, output_schema, state_schema
from core.order.graph import CompiledGraph
from core.project import Project
from core.stores.config import ServerStore, server_store
from core.stores.decode.serde import StrictSerializer, strict_serde
from core.validate.entry import project_entry

__all__ = ["StoreSession", "allowed_types", "store_session"]


@dataclass(frozen=True)
class StoreSession:
    """What a store is read with. `store` is None where none is configured or given."""

    store: ServerStore | None  # the spec (never shown), where it came from, the assistant
    model: type[BaseModel] | None  # what stored states are checked against (None: nothing
    # Pydantic to check with: a graph whose state is a TypedDict, and no --model)
    candidate: type[BaseModel] | None  # a changed model, for "would not resume"
    graph: CompiledGraph | None  # the project's graph (its get_state, its writes)
    allowed: tuple[type, ...]  # the types the strict deserializer reads

    def serde(self) -> StrictSerializer:
        """The strict deserializer over `allowed` (a new one: each reader owns its own)."""
        return strict_serde(self.allowed)


def allowed_types(
    model: type[BaseModel], candidate: type[BaseModel] | None, graph: CompiledGraph | None
) -> tuple[type, ...]:
    """The model, the candidate and the graph's state, input and output schemas: the types a
    store written by that graph may hold (LangGraph's own allow-list is built from them).

    Example:
        >>> from core.order import AgentState, build_order_graph
        >>> [t.__name__ for t in allowed_types(AgentState, None, build_order_graph())]
        ['AgentState']
    """
    found: list[type] = [model]
    if candidate is not None:
        found.append(candidate)
    if graph is not None:
        builder = builder_of(graph)
        found += [state_schema(builder), input_schema(builder), output_schema(builder)]
    return tuple(dict.fromkeys(t for t in found if isinstance(t, type)))


def store_session(
    project: Project,
    env: Mapping[str, str],
    cwd: Path | str,
    *,
    store: str | None = None,
    assistant: str | None = None,
    argv: Sequence[str] = (),
) -> StoreSession:
    """The session a store is read in: `store` and `assistant` as given (the command line's
    arguments), else the server's configuration (`--store` in `argv`, playground.toml's
    `store`, PLAYGROUND_STORE; the same for the assistant); the state model as
    `pick_entry` chooses it for the project; its candidate; every type they and the graph
    declare. Raises `StoreError` for a playground.toml that cannot be read.

    Example:
        >>> from core.project import load_project
        >>> session = store_session(load_project([], {}, "."), {"PLAYGROUND_STORE": "a.db"}, ".")
        >>> session.store, session.model.__name__
        (ServerStore(spec='a.db', source='environment', assistant=None), 'AgentState')
    """
    found = server_store(argv, env, cwd)
    assistant = assistant or (found.assistant if found is not None else None)
    if store:
        found = ServerStore(store, "argument", assistant)
    elif found is not None:
        found = found._replace(assistant=assistant)
    model = project_entry(project).state  # None: a graph whose state is not Pydantic
    graph, candidate = project.graph, project.candidate
    allowed = allowed_types(model, candidate, graph) if model is not None else ()
    return StoreSession(found, model, candidate, graph, allowed)
