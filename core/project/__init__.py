"""The user's own model and graph: where they come from (flags, playground.toml, env) and checks."""

from __future__ import annotations

# The package's names are core.project.load's, re-exported one by one (`X as X`).
from core.project import load
from core.project.load import CANDIDATE_ENV as CANDIDATE_ENV
from core.project.load import CONFIG_FILE as CONFIG_FILE
from core.project.load import GRAPH_ENV as GRAPH_ENV
from core.project.load import MODEL_ENV as MODEL_ENV
from core.project.load import Project as Project
from core.project.load import ProjectSpec as ProjectSpec
from core.project.load import load_project as load_project

# What `import *` gives: the same names (ProjectError is core.project.checks').
__all__ = [name for name in load.__all__ if name != "ProjectError"]
