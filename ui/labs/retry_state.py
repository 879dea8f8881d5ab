"""Retry lab state: its inputs, presets and share links (parsed by `RetryLink`)."""

from __future__ import annotations

from typing import Any

import streamlit as st

from core.jsontext.write import dumps
from core.links.retry import RetryInputs, RetryLink
from core.retry import PRESETS, AnswerConstraints
from ui import keys
from ui.editor.payload import set_payload_text
from ui.share import apply_link, shown_link

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
    return dumps(PRESETS[name].value, indent=2)


# Run inputs (also the share-link field names) -> their widget keys.
_WIDGETS = {
    "script": keys.RETRY_SCRIPT,
    "retries": keys.RETRY_RETRIES,
    "min_citations": keys.RETRY_MIN_CITATIONS,
    "confidence_min": keys.RETRY_CONFIDENCE_MIN,
    "confidence_max": keys.RETRY_CONFIDENCE_MAX,
}


def inputs() -> dict[str, Any]:
    """The run inputs on screen, by share-link field name."""
    return {name: st.session_state[key] for name, key in _WIDGETS.items()}


def load_preset() -> None:
    """Preset picker callback: its script and budget into the editor, and run them."""
    preset = PRESETS[st.session_state[keys.RETRY_PRESET]]
    set_payload_text(preset_text(st.session_state[keys.RETRY_PRESET]), key=keys.RETRY_SCRIPT)
    st.session_state[keys.RETRY_RETRIES] = preset.options[keys.RETRY_RETRIES]
    st.session_state[keys.RETRY_SUBMITTED] = inputs()


def submit() -> None:
    """Run button callback: the inputs on screen become the run shown."""
    st.session_state[keys.RETRY_SUBMITTED] = inputs()


def init_state() -> None:
    """Defaults for every input, once per session."""
    ss = st.session_state
    ss.setdefault(keys.RETRY_PRESET, DEFAULT_PRESET)
    ss.setdefault(keys.RETRY_SCRIPT, preset_text(DEFAULT_PRESET))
    ss.setdefault(keys.RETRY_RETRIES, PRESETS[DEFAULT_PRESET].options[keys.RETRY_RETRIES])
    defaults = AnswerConstraints()
    ss.setdefault(keys.RETRY_MIN_CITATIONS, defaults.min_citations)
    ss.setdefault(keys.RETRY_CONFIDENCE_MIN, defaults.confidence_min)
    ss.setdefault(keys.RETRY_CONFIDENCE_MAX, defaults.confidence_max)
    # The page opens on the article's run; after that only Run or a preset change re-runs.
    ss.setdefault(keys.RETRY_SUBMITTED, inputs())


def restore_share() -> None:
    """Apply a Retry `?s=` token (`RetryLink`): each well-typed field; the bad ones named."""
    apply_link("retry", RetryLink, _apply)


def _apply(link: RetryLink) -> None:
    ss = st.session_state
    if link.preset is not None:
        ss[keys.RETRY_PRESET] = link.preset
        set_payload_text(preset_text(link.preset), key=keys.RETRY_SCRIPT)
        ss[keys.RETRY_RETRIES] = PRESETS[link.preset].options[keys.RETRY_RETRIES]
    for name, value in _given(link).items():
        if name == "script":  # the editor's text: it replaces what the editor shows
            set_payload_text(value, key=keys.RETRY_SCRIPT)
        else:
            ss[_WIDGETS[name]] = value
    # The run shown is the last one submitted, which may predate unsubmitted edits.
    ss[keys.RETRY_SUBMITTED] = inputs() | (_given(link.submitted) if link.submitted else {})


def _given(inputs: RetryInputs) -> dict[str, Any]:
    """The run inputs the link gave and that were kept, by share-link field name."""
    return {name: getattr(inputs, name) for name in _WIDGETS if name in inputs.model_fields_set}


def share_state() -> RetryLink:
    """What a share link carries: the preset and inputs, plus the last run's if they differ."""
    current, submitted = inputs(), st.session_state[keys.RETRY_SUBMITTED]
    return shown_link(
        RetryLink,
        preset=st.session_state[keys.RETRY_PRESET],
        **current,
        submitted=None if submitted == current else submitted,
    )
