"""The sidebar's installed versions (every behaviour shown is observed on these)."""

from __future__ import annotations

from functools import cache
from importlib import metadata

import streamlit as st

__all__ = ["PACKAGES", "installed_versions", "versions_text", "versions_view"]

# Whose behaviour the pages show: the Retry lab runs PydanticAI; stored threads and every run's
# checkpoints go through langgraph-checkpoint's serializer.
PACKAGES = (
    "pydantic",
    "langgraph",
    "langgraph-checkpoint",
    "langchain-core",
    "pydantic-ai-slim",
    "streamlit",
)


_WIDTH = max(map(len, PACKAGES)) + 1  # the sidebar is narrow: one space after the longest


@cache  # module level, so once per server: app.py is re-executed on every rerun
def installed_versions() -> tuple[str, ...]:
    """The installed version of each of PACKAGES (reading package metadata is slow)."""
    return tuple(metadata.version(name) for name in PACKAGES)


def versions_text() -> str:
    """One aligned `package version` line per package."""
    return "\n".join(
        f"{name:<{_WIDTH}}{version}"
        for name, version in zip(PACKAGES, installed_versions(), strict=True)
    )


def versions_view() -> None:
    """Caption and the versions as plain text.

    Text, not a table: a second data grid on every page cost the browser about 30 ms on
    each Validate rerun (bench/browser_roundtrip.py, 2026-12-02).
    """
    st.caption("Installed versions (every behaviour shown is observed on these)")
    st.code(versions_text(), language=None, wrap_lines=True)  # never cut at the right
