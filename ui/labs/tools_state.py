"""Tools page state: scenario, preset and editor text, and its share links type-checked."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.jsontext.payload import MAX_PAYLOAD_BYTES
from core.jsontext.write import to_text
from core.tools import SCENARIOS, Scenario
from core.tools.provider_schema import PROVIDERS
from ui.payload import set_payload_text
from ui.share import ignore_field, shared_state

__all__ = [
    "EDITOR_KEY",
    "TABS",
    "current_scenario",
    "load_preset",
    "restore_share",
    "switch_scenario",
]

EDITOR_KEY = "tool_payload"  # this page's own text; the order page's payload_text is untouched
TABS = ["Pydantic", *PROVIDERS.values()]


def current_scenario() -> Scenario:
    """The scenario picked (the first one until a choice is made)."""
    return SCENARIOS[st.session_state.get("scenario") or next(iter(SCENARIOS))]


def load_preset() -> None:
    """Preset picker callback: the preset's payload into the editor."""
    scenario = current_scenario()
    set_payload_text(to_text(scenario.presets[st.session_state["tool_preset"]]), key=EDITOR_KEY)


def switch_scenario() -> None:
    """Scenario picker callback: its first preset and its own model's schema."""
    st.session_state["tool_preset"] = next(iter(current_scenario().presets))
    st.session_state["schema_model"] = current_scenario().model.__name__
    load_preset()


def _shared_choice(state: dict[str, Any], name: str, options: Any, what: str) -> str | None:
    """`state[name]` when it is one of `options`; a bad value is named, never echoed."""
    value = state.get(name)
    if isinstance(value, str) and value in options:
        return value
    if name in state:
        ignore_field(name, what)
    return None


def _shared_text(state: dict[str, Any]) -> str | None:
    text = state.get("payload")  # decode_share already refused lone surrogates
    if isinstance(text, str) and len(text) <= MAX_PAYLOAD_BYTES:
        return text
    if "payload" in state:
        ignore_field("payload", f"text of at most {MAX_PAYLOAD_BYTES:,} characters")
    return None


def restore_share() -> None:
    """Scenario, preset, payload text, schema model and tab from a `?s=` link (page "tools")."""
    state = shared_state("tools")
    if state is None:
        return
    ss = st.session_state
    ss["scenario"] = _shared_choice(state, "scenario", SCENARIOS, "a scenario of this page") or (
        ss.get("scenario") or next(iter(SCENARIOS))
    )
    scenario = current_scenario()
    presets, models = scenario.presets, scenario.schema_models
    preset = _shared_choice(state, "preset", presets, "a preset of the scenario")
    ss["tool_preset"] = preset or next(iter(presets))
    model = _shared_choice(state, "schema_model", models, "a model of the scenario")
    ss["schema_model"] = model or scenario.model.__name__
    ss["schema_tab"] = (
        _shared_choice(state, "schema_tab", TABS, "one of the schema views") or TABS[0]
    )
    text = _shared_text(state)
    set_payload_text(to_text(presets[ss["tool_preset"]]) if text is None else text, key=EDITOR_KEY)
