"""The merge view explained: super-steps (several nodes merged at once) and unwritten defaults.

Read off the recorded run: a super-step's rows come from one checkpoint's pending writes,
the channel values from the checkpoint before it, the node's input from LangGraph's own call.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from core.trace.loss import row_losses
from core.trace.reducers import DROPPED, dump_json
from core.trace.run import Trace
from core.trace.steps import Step

__all__ = ["merge_view", "super_step", "unwritten_defaults"]


def super_step(trace: Trace, index: int) -> list[str]:
    """The nodes whose writes LangGraph merged in the same super-step as row `index` (itself too).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_fanout_graph
        >>> from core.trace import run_trace
        >>> trace = run_trace(build_fanout_graph(), SEED_PAYLOAD)
        >>> super_step(trace, 2)
        ['notify_email', 'notify_sms']
    """
    return [s.node for s in _super_step_rows(trace, index)]


def _super_step_rows(trace: Trace, index: int) -> list[Step]:
    step = trace.steps[index]
    return [s for s in trace.steps if s.step == step.step and s.committed == step.committed]


def unwritten_defaults(trace: Trace, index: int) -> dict[str, Any]:
    """Fields no write had put in a channel before row `index`, with the value its node saw.

    LangGraph keeps a last-value channel empty until a node writes it; the node's input model
    fills the field with the model's default, so the node sees a value the state never held.
    Values are read from the node's real input (the model's default for rows without one).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> unwritten_defaults(run_trace(build_order_graph(), SEED_PAYLOAD), 1)
        {'status': 'pending'}
    """
    step, model = trace.steps[index], trace.options.model
    if model is None:
        return {}
    seen = step.input if isinstance(step.input, BaseModel) else None
    out = {}
    for name, info in model.model_fields.items():
        if name in step.before:
            continue
        if seen is not None and name in type(seen).model_fields:
            out[name] = getattr(seen, name)
        elif step.input is None and not info.is_required():
            out[name] = info.get_default(call_default_factory=True)
    return out


def merge_view(trace: Trace, index: int) -> list[dict[str, str]]:
    """Row `index`'s merge rows (field, before, update, reducer, after) with a `why` note.

    `why` says what a silent loss took (`core.trace.loss`: an `Overwrite` that bypassed the
    reducer, a key the state does not declare): what was there and what remains; when `after`
    holds other nodes' writes of the same super-step; and when `before` is unset although the
    node's input showed a default (never written to the channel).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_fanout_graph
        >>> from core.trace import run_trace
        >>> rows = merge_view(run_trace(build_fanout_graph(), SEED_PAYLOAD), 2)
        >>> rows[0]["field"], rows[0]["why"]
        ('logs', 'merged in super-step 2 with the write of notify_sms')
    """
    step = trace.steps[index]
    # the other nodes LangGraph merged with it (a step that never merged has none)
    peers = [s for s in _super_step_rows(trace, index) if s is not step] if step.committed else []
    defaults = unwritten_defaults(trace, index)
    lost = {loss.field: loss.why() for loss in row_losses(trace, index)}
    rows = []
    for row in step.merges():
        name = row["field"]
        notes = [lost[name]] if name in lost else []
        others = [p.node for p in peers if name in p.changed]
        if others and row["reducer"] != DROPPED:
            notes.append(f"merged in super-step {step.step} with the write of {', '.join(others)}")
        if row["before"] == "(unset)" and name in defaults:
            seen = "the node's input showed" if step.input is not None else "it reads as"
            notes.append(
                f"never written to the channel before; {seen} the model's default "
                f"{dump_json(defaults[name])}"
            )
        rows.append(row | {"why": "; ".join(notes)})
    return rows
