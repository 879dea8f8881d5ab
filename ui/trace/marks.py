"""The Trace page's payload editor marks: what the state model says about the text as typed."""

from __future__ import annotations

from pydantic import BaseModel

from core.validate import validate_text
from ui.editor.json_editor import Mark
from ui.errors.focus import report_marks

__all__ = ["payload_marks"]


def payload_marks(text: str, model: type[BaseModel]) -> list[Mark]:
    """Each JSON syntax error and field error of `text` under `model`, at its line:col (the
    marks the Validate page draws for the model alone)."""
    return report_marks(validate_text(text, model))
