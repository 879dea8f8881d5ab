"""Verdicts on a payload: the model alone (Report, FieldError) and LangGraph's entry."""

from __future__ import annotations

from core.validate.entry import EntryComparison, compare_entry
from core.validate.entry_run import EntryVerdict, langgraph_entry
from core.validate.report import (
    FieldError,
    Report,
    validate_text,
    validate_value,
)

__all__ = [
    "EntryComparison",
    "EntryVerdict",
    "FieldError",
    "Report",
    "compare_entry",
    "langgraph_entry",
    "validate_text",
    "validate_value",
]
