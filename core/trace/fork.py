"""Fork a recorded run: edit the state at one step and re-run the graph from there."""

from __future__ import annotations

import json
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.types import Overwrite
from pydantic import BaseModel, ValidationError

from core.errors import CodedError, ErrorCode
from core.jsontext.payload import PayloadError, parse
from core.jsontext.write import dumps
from core.trace.reducers import LAST_VALUE, dump_json, graph_reducers
from core.trace.run import Step, Trace, checkpoint_values, record_run
from core.validate.field_errors import place_in_text
from core.validate.report import validate_value
from core.words import count

__all__ = ["ForkError", "edit_errors", "fork_diff", "fork_trace"]


class ForkError(CodedError, ValueError):
    """The chosen step cannot be forked (code: fork_step)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.FORK_STEP, message)


def fork_trace(trace: Trace, step: int, edited: Any, *, text: str | None = None) -> Trace:
    """Replace the state after super-step `step` with `edited` and run the rest of the graph.

    `edited` is validated against the trace's model first; errors come back as the fork's
    `gate_errors` (placed at their line:col in `text`, the JSON `edited` was parsed from, when
    given) and nothing runs. The new branch lives in the same checkpointer (LangGraph's
    `update_state` on that step's checkpoint, then `stream(None, ...)`); fields merged by a
    reducer are written as `Overwrite` so the edit replaces them instead of being appended.
    Its first row is the `update_state` checkpoint itself.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> trace = run_trace(build_order_graph(), SEED_PAYLOAD)
        >>> fork = fork_trace(trace, 1, {**trace.steps[1].state, "logs": ["edited"]})
        >>> [(s.node, s.logs) for s in fork.steps]
        [('update_state', ['edited']), ('confirm', ['edited', 'confirmed'])]
    """
    base = _fork_point(trace, step)
    model, report = trace.options.model, None
    if model is not None:
        report = validate_value(edited, model)
        if not report.ok:
            errors = report.errors if text is None else place_in_text(report.errors, text)
            return Trace(gate_errors=errors, options=trace.options)
    if not isinstance(edited, dict):
        raise ForkError("the edited state must be a JSON object")
    graph = trace.graph
    assert graph is not None  # _fork_point refuses a trace that never ran
    reducers = graph_reducers(graph)
    writes = {
        key: value if reducers[key] == LAST_VALUE else Overwrite(_validated(report, key, value))
        for key, value in edited.items()
        if key in reducers
    }
    config = _update_state(graph, base, writes, single=len(_rows(trace, step)) == 1)
    saver = graph.checkpointer
    assert isinstance(saver, BaseCheckpointSaver)  # record_run's copy holds an InMemorySaver
    point = saver.get_tuple(config)
    assert point is not None  # update_state has just written it
    lead = Step(
        step=point.metadata["step"],
        node="update_state",
        update=writes,
        state=checkpoint_values(graph, point.checkpoint),
        changed=list(writes),
        reducers={
            key: "Overwrite" if isinstance(v, Overwrite) else LAST_VALUE
            for key, v in writes.items()
        },
        before=base.state,
        checkpoint=point.config,
    )
    return record_run(graph, None, config, trace.options, lead=lead)


def _fork_point(trace: Trace, step: int) -> Step:
    if trace.graph is None:
        raise ForkError("the graph did not run; there is no step to fork")
    rows = _rows(trace, step)
    if not rows or rows[-1].node not in trace.graph.nodes:
        raise ForkError(
            f"step {step} has no merged state to fork from; choose a step whose row is merged"
        )
    return rows[-1]


def _rows(trace: Trace, step: int) -> list[Step]:
    return [s for s in trace.steps if s.step == step and s.committed and s.checkpoint]


def _update_state(graph: Any, base: Step, writes: dict[str, Any], *, single: bool) -> Any:
    try:
        return graph.update_state(base.checkpoint, writes, as_node=base.node)
    except ValidationError as exc:
        # update_state first rebuilds the model from the step's own (invalid) state. With one
        # node in the step, writing the edit as that node's output on the step before is the
        # same fork; parallel steps have a join LangGraph would not re-trigger that way.
        parent = graph.checkpointer.get_tuple(base.checkpoint).parent_config
        if not single or parent is None:
            raise ForkError(
                f"LangGraph cannot fork step {base.step}: its state fails "
                f"validation ({count(exc.error_count(), 'error')}); fork an earlier step"
            ) from exc
        return graph.update_state(parent, writes, as_node=base.node)


def _validated(report: Any, key: str, value: Any) -> Any:
    # Reducer fields get the validated value: messages become message objects, as
    # add_messages would have made them (Overwrite skips the reducer's own conversion).
    return getattr(report.value, key, value) if report is not None and report.ok else value


_ABSENT = "(absent)"


def fork_diff(original: Any, edited: Any) -> list[dict[str, str]]:
    """What an edit changed, leaf by leaf: path, original and edited value (JSON text).

    Both sides are compared as JSON (messages as type/content/id, as the editor shows them);
    a field only one side has reads "(absent)" on the other.

    Example:
        >>> fork_diff({"status": "validated", "logs": ["a"]},
        ...           {"status": "pending", "logs": ["a", "b"]})
        [{'path': 'status', 'original': '"validated"', 'edited': '"pending"'}, \
{'path': 'logs[1]', 'original': '(absent)', 'edited': '"b"'}]
    """
    rows: list[dict[str, str]] = []
    _diff(json.loads(dump_json(original)), json.loads(dump_json(edited)), "", rows)
    return rows


def _diff(old: Any, new: Any, path: str, rows: list[dict[str, str]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in [*old, *(k for k in new if k not in old)]:
            where = f"{path}.{key}" if path else str(key)
            _diff(old.get(key, _MISSING), new.get(key, _MISSING), where, rows)
    elif isinstance(old, list) and isinstance(new, list):
        for i in range(max(len(old), len(new))):
            left = old[i] if i < len(old) else _MISSING
            right = new[i] if i < len(new) else _MISSING
            _diff(left, right, f"{path}[{i}]", rows)
    elif old != new or type(old) is not type(new):
        rows.append({"path": path, "original": _text(old), "edited": _text(new)})


_MISSING = object()


def _text(value: Any) -> str:
    return _ABSENT if value is _MISSING else dumps(value)


def edit_errors(text: str, model: type[BaseModel] | None) -> list[tuple[int, int, str]]:
    """Where an edited state's text fails, as (line, col, message): its JSON syntax first, else
    each error of `model` (None: nothing to check) placed in the text.

    Example:
        >>> from core.order import AgentState
        >>> edit_errors('{\\n  "amount": -1\\n}', AgentState)[1]
        (2, 13, 'amount: Input should be greater than or equal to 0')
        >>> edit_errors('{"amount": ', AgentState)[0][:2]
        (1, 12)
    """
    try:
        value = parse(text)
    except PayloadError as exc:
        return [(exc.line, exc.col, exc.message)]
    if model is None:
        return []
    errors = place_in_text(validate_value(value, model).errors, text)
    return [(e.line or 1, e.col or 1, f"{e.path or '(root)'}: {e.msg}") for e in errors]
