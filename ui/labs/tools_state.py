"""Tools page state: scenario, preset and editor text, and its share links (`ToolsLink`)."""

from __future__ import annotations

import streamlit as st

from core.jsontext.write import to_text
from core.links.tools import ToolsLink
from core.tools import SCENARIOS, Scenario
from core.tools.provider_schema import PROVIDERS
from ui import keys
from ui.editor.payload import set_payload_text
from ui.share import apply_link

__all__ = [
    "EDITOR_KEY",
    "TABS",
    "current_scenario",
    "load_preset",
    "restore_share",
    "switch_scenario",
]

EDITOR_KEY = keys.TOOL_PAYLOAD  # this page's own text; the order page's payload_text is untouched
TABS = ["Pydantic", *PROVIDERS.values()]


def current_scenario() -> Scenario:
    """The scenario picked (the first one until a choice is made)."""
    return SCENARIOS[st.session_state.get(keys.SCENARIO) or next(iter(SCENARIOS))]


def load_preset() -> None:
    """Preset picker callback: the preset's payload into the editor."""
    scenario = current_scenario()
    set_payload_text(to_text(scenario.presets[st.session_state[keys.TOOL_PRESET]]), key=EDITOR_KEY)


def switch_scenario() -> None:
    """Scenario picker callback: its first preset and its own model's schema."""
    st.session_state[keys.TOOL_PRESET] = next(iter(current_scenario().presets))
    st.session_state[keys.SCHEMA_MODEL] = current_scenario().model.__name__
    load_preset()


def restore_share() -> None:
    """Scenario, preset, payload text, schema model and tab from a `?s=` link (`ToolsLink`)."""
    kept = st.session_state.get(keys.SCENARIO) or next(iter(SCENARIOS))
    context = {"scenario": kept, "tabs": TABS}
    apply_link("tools", ToolsLink, lambda link: _apply(link, kept), context)


def _apply(link: ToolsLink, kept: str) -> None:
    ss = st.session_state
    ss[keys.SCENARIO] = link.scenario or kept
    scenario = current_scenario()
    presets = scenario.presets
    ss[keys.TOOL_PRESET] = link.preset or next(iter(presets))
    ss[keys.SCHEMA_MODEL] = link.schema_model or scenario.model.__name__
    ss[keys.SCHEMA_TAB] = link.schema_tab or TABS[0]
    text = link.payload
    set_payload_text(
        to_text(presets[ss[keys.TOOL_PRESET]]) if text is None else text, key=EDITOR_KEY
    )
