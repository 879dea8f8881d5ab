"""Run a compiled graph and record it: steps, reducers, per-step checks, blame, fork, diagram."""

from __future__ import annotations

from core.trace.run import (
    RunOptions,
    Step,
    Trace,
    TraceError,
    TraceTimeout,
    checkpoint_values,
    record_run,
    run_trace,
)

__all__ = [
    "RunOptions",
    "Step",
    "Trace",
    "TraceError",
    "TraceTimeout",
    "checkpoint_values",
    "record_run",
    "run_trace",
]
