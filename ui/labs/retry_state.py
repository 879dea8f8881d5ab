"""Retry lab state: its inputs, presets and share links, every shared field type-checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from core.jsontext.write import dumps
from core.retry import MAX_RETRIES, PRESETS, AnswerConstraints
from ui.share import ignore_field, shared_state

__all__ = [
    "DEFAULT_PRESET",
    "init_state",
    "inputs",
    "load_preset",
    "preset_text",
    "restore_share",
    "share_state",
    "submit",
]

DEFAULT_PRESET = "article"


def preset_text(name: str) -> str:
    """A preset's model script as the editor shows it."""
    return dumps(PRESETS[name].script, indent=2)


# Run inputs (also the share-link field names) -> their widget keys.
_WIDGETS = {
    "script": "retry_script",
    "retries": "retries",
    "min_citations": "retry_min_citations",
    "confidence_min": "retry_confidence_min",
    "confidence_max": "retry_confidence_max",
}


def inputs() -> dict[str, Any]:
    """The run inputs on screen, by share-link field name."""
    return {name: st.session_state[key] for name, key in _WIDGETS.items()}


def load_preset() -> None:
    """Preset picker callback: its script and budget into the editor, and run them."""
    preset = PRESETS[st.session_state["retry_preset"]]
    st.session_state["retry_script"] = preset_text(st.session_state["retry_preset"])
    st.session_state["retries"] = preset.retries
    st.session_state["retry_submitted"] = inputs()


def submit() -> None:
    """Run button callback: the inputs on screen become the run shown."""
    st.session_state["retry_submitted"] = inputs()


def init_state() -> None:
    """Defaults for every input, once per session."""
    ss = st.session_state
    ss.setdefault("retry_preset", DEFAULT_PRESET)
    ss.setdefault("retry_script", preset_text(DEFAULT_PRESET))
    ss.setdefault("retries", PRESETS[DEFAULT_PRESET].retries)
    defaults = AnswerConstraints()
    ss.setdefault("retry_min_citations", defaults.min_citations)
    ss.setdefault("retry_confidence_min", defaults.confidence_min)
    ss.setdefault("retry_confidence_max", defaults.confidence_max)
    # The page opens on the article's run; after that only Run or a preset change re-runs.
    ss.setdefault("retry_submitted", inputs())


def _is_text(value: Any) -> bool:
    return isinstance(value, str)  # decode_share already refused lone surrogates


def _whole(low: int, high: int) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _finite(value: Any) -> bool:
    # NaN and infinities fail both comparisons (a hostile token can carry them).
    return (
        isinstance(value, int | float) and not isinstance(value, bool) and -1e308 <= value <= 1e308
    )


# Share-link fields: a check and what it expects, named in the warning when it fails.
_SHARED: dict[str, tuple[Callable[[Any], bool], str]] = {
    "script": (_is_text, "text"),
    "retries": (_whole(0, MAX_RETRIES), f"a whole number from 0 to {MAX_RETRIES}"),
    "min_citations": (_whole(0, 5), "a whole number from 0 to 5"),
    "confidence_min": (_finite, "a finite number"),
    "confidence_max": (_finite, "a finite number"),
}


def _checked(state: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """The well-typed fields of a (hostile) share state; each bad one is named, never echoed."""
    kept = {}
    for name, (ok, expected) in _SHARED.items():
        if name not in state:
            continue
        if ok(state[name]):
            value = state[name]
            kept[name] = float(value) if name.startswith("confidence") else value
        else:
            ignore_field(f"{prefix}{name}", expected)
    return kept


def restore_share() -> None:
    """Apply a Retry `?s=` token: each well-typed field, a warning naming each bad one."""
    state = shared_state("retry")
    if state is None:
        return
    ss = st.session_state
    preset = state.get("preset")
    if isinstance(preset, str) and preset in PRESETS:
        ss["retry_preset"] = preset
        ss["retry_script"], ss["retries"] = preset_text(preset), PRESETS[preset].retries
    elif "preset" in state:
        ignore_field("preset", "one of this lab's presets")
    for name, value in _checked(state).items():
        ss[_WIDGETS[name]] = value
    submitted = state.get("submitted")
    if "submitted" in state and not isinstance(submitted, dict):
        ignore_field("submitted", "an object")
    # The run shown is the last one submitted, which may predate unsubmitted edits.
    ss["retry_submitted"] = inputs() | (
        _checked(submitted, "submitted.") if isinstance(submitted, dict) else {}
    )


def share_state() -> dict[str, Any]:
    """What a share link carries: the preset and inputs, plus the last run's if they differ."""
    current, submitted = inputs(), st.session_state["retry_submitted"]
    state = {"preset": st.session_state["retry_preset"], **current}
    return state if submitted == current else state | {"submitted": submitted}
