"""Trace building blocks, for any page that records a LangGraph run: the table, the stepper,
a row's detail and panels, the headline and the output (their homes are in ui/trace/)."""

from __future__ import annotations

from ui.trace.stepping import current_row, step_detail, stepper
from ui.trace.verdict import run_headline
from ui.trace.view import error_panel, output_panel, step_panels, trace_table

__all__ = [
    "current_row",
    "error_panel",
    "output_panel",
    "run_headline",
    "step_detail",
    "step_panels",
    "stepper",
    "trace_table",
]
