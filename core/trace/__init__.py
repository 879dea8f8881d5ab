"""Run a compiled graph and record it: steps, reducers, per-step checks, blame, fork, diagram."""

from __future__ import annotations

from core.trace.from_text import TextRun, trace_text
from core.trace.run import RunOptions, Step, Trace, TraceError, run_trace

__all__ = ["RunOptions", "Step", "TextRun", "Trace", "TraceError", "run_trace", "trace_text"]
