"""The one model the Threads page judges stored states with: yours, or the candidate."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import streamlit as st
from pydantic import BaseModel

from core.order import AgentState, build_order_graph
from core.order.graph import CompiledGraph
from core.project import Project
from core.stores.errors import StoreError
from core.stores.session import allowed_types, store_session
from core.validate.entry import project_entry
from ui.text import plain
from ui.threads.listing import choose_models, offered_candidate
from ui.threads.source import StoreChoice

__all__ = ["Judging", "judging"]


@dataclass(frozen=True)
class Judging:
    """What the page reads a store with, and the one model every view judges it by."""

    model: type[BaseModel]  # the configured state model: the states were written with it
    offered: tuple[type[BaseModel], str] | None  # the changed model offered, with its label
    current: type[BaseModel] | None  # the offered model, when the user judges by it
    graph: CompiledGraph | None  # what LangGraph's own get_state runs with (None: nothing)
    allowed: tuple[type, ...]  # the types the strict deserializer reads

    @property
    def judge(self) -> type[BaseModel]:
        """The model the list, the open thread, the audit and the header name."""
        return self.current or self.model

    @property
    def candidate(self) -> type[BaseModel] | None:
        return self.offered[0] if self.offered is not None else None


def _state_model(project: Project) -> type[BaseModel]:
    """The model as `python -m core audit` takes it (`store_session`): your graph's state
    or your model; the seed order's state where neither is Pydantic."""
    try:
        model = store_session(project, os.environ, Path.cwd(), argv=sys.argv[1:]).model
    except StoreError:  # a playground.toml the store picker names: the model is still known
        model = project_entry(project).state
    return model or project.model or AgentState


def judging(project: Project, choice: StoreChoice) -> Judging:
    """The page's header: which model judges the states (a radio when a candidate is
    offered), said in one line every view below follows."""
    model = _state_model(project)
    offered = offered_candidate(model, project.candidate, project.spec.candidate_from)
    # where it was configured: your model's setting, else your graph's (its state)
    spec = project.spec
    where = (
        spec.model_from if project.model else "default" if model is AgentState else spec.graph_from
    )
    current = choose_models(model, offered, where)
    # The graph LangGraph's own get_state runs with: the demo's seed graph, or yours (none is
    # assumed for a store of your own when no graph is configured)
    graph = build_order_graph() if choice.is_demo else project.graph
    allowed = allowed_types(model, offered[0] if offered is not None else None, graph)
    found = Judging(model, offered, current, graph, allowed)
    judge = plain(found.judge.__name__)
    st.caption(
        f"Judged against **{judge}**: the list, the open thread and the audit."
        + (
            f" Migrate carries threads from {plain(model.__name__)} to "
            f"{plain(found.candidate.__name__)}."
            if found.candidate is not None
            else ""
        )
    )
    return found
