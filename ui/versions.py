"""The sidebar's table of installed versions (every behaviour shown is observed on these)."""

from __future__ import annotations

from functools import cache
from importlib import metadata

import streamlit as st

__all__ = ["PACKAGES", "installed_versions", "versions_table"]

PACKAGES = ("pydantic", "langgraph", "langchain-core", "streamlit")


@cache  # module level, so once per server: app.py is re-executed on every rerun
def installed_versions() -> tuple[str, ...]:
    """The installed version of each of PACKAGES (reading package metadata is slow)."""
    return tuple(metadata.version(name) for name in PACKAGES)


def versions_table() -> None:
    """Caption and a two-column table of PACKAGES and their versions."""
    st.caption("Installed versions (every behaviour shown is observed on these)")
    st.dataframe(
        {"package": list(PACKAGES), "version": list(installed_versions())},
        hide_index=True,
        key="versions",
    )
