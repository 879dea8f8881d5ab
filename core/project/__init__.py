"""The user's own model and graph: where they come from (flags, playground.toml, env) and checks."""

from __future__ import annotations

from core.project.load import (
    CANDIDATE_ENV,
    CONFIG_FILE,
    GRAPH_ENV,
    MODEL_ENV,
    Project,
    ProjectSpec,
    load_project,
)

__all__ = [
    "CANDIDATE_ENV",
    "CONFIG_FILE",
    "GRAPH_ENV",
    "MODEL_ENV",
    "Project",
    "ProjectSpec",
    "load_project",
]
