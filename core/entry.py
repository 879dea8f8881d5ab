"""What LangGraph's own entry does with a payload, next to what our gate says."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError
from pydantic_core import to_jsonable_python

from core.paths import format_path, plural, truncate
from core.report import Report

__all__ = ["EntryComparison", "compare_entry"]

MAX_NAMED = 5  # fields named in LangGraph's error line; the rest are counted


@dataclass
class EntryComparison:
    """One real LangGraph entry run on the payload, compared with our gate's report."""

    langgraph_accepted: bool
    langgraph_error: str | None  # exception type and first line, when LangGraph raised
    node_saw: dict[str, Any] | None  # the validated state the first node received
    channels: dict[str, Any] | None  # raw channel values after the input was written
    differences: list[dict[str, str]] = field(default_factory=list)


def compare_entry(report: Report) -> EntryComparison:
    """Run a one-node graph over `report.model` with the payload and list what differs.

    The node records the state it receives; LangGraph validates exactly as it would before
    the first node of any graph with this state schema.

    Example:
        >>> from core.report import validate_text
        >>> r = validate_text('{"user_id": "550e8400-e29b-41d4-a716-446655440000", '
        ...                   '"amount": 1, "coupon": "X"}')
        >>> [row["aspect"] for row in compare_entry(r).differences]
        ['verdict', 'unknown key coupon', 'amount in the channels']
    """
    payload = report.input
    seen: list[BaseModel] = []  # per call: the node appends what it received

    def entry(state: BaseModel) -> dict[str, Any]:
        seen.append(state)
        return {}

    builder = StateGraph(report.model)
    builder.add_node("entry", entry)
    builder.add_edge(START, "entry")
    builder.add_edge("entry", END)
    graph = builder.compile()
    channels: dict[str, Any] | None = None
    error: str | None = None
    try:
        for event in graph.stream(payload, stream_mode="values", config={"recursion_limit": 5}):
            channels = channels or event
    except ValidationError as exc:  # each field with its rule, as the error table names them
        named = [f"{format_path(e['loc'])} ({e['type']})" for e in exc.errors()[:MAX_NAMED]]
        more = exc.error_count() - len(named)
        error = f"ValidationError: {plural(exc.error_count(), 'error')}: " + ", ".join(
            named + [f"{more:,} more"] * bool(more)
        )
    except Exception as exc:  # noqa: BLE001 - LangGraph may raise anything on odd input
        error = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
    node_saw = seen[0].model_dump(mode="json") if seen else None
    result = EntryComparison(bool(seen), error, node_saw, channels)
    result.differences = _differences(report, result)
    return result


def _differences(report: Report, entry: EntryComparison) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    gate = "open" if report.ok else f"closed ({plural(len(report.errors), 'error')})"
    lang = "runs the first node" if entry.langgraph_accepted else f"raises {entry.langgraph_error}"
    if report.ok != entry.langgraph_accepted:
        rows.append({"aspect": "verdict", "our gate": gate, "LangGraph": lang})
    payload = report.input if isinstance(report.input, dict) else {}
    declared = set(report.model.model_fields)
    # LangGraph writes only declared keys to channels, then validates: an unknown key is gone
    # whether the run goes on or its ValidationError names the other fields.
    validated = entry.langgraph_accepted or (entry.langgraph_error or "").startswith("Validation")
    for key in payload:
        if key not in declared and validated:
            rows.append(
                {
                    "aspect": f"unknown key {key}",
                    "our gate": _gate_word(report, key),
                    "LangGraph": "silently dropped: the key never reaches a channel"
                    if entry.langgraph_accepted
                    else "dropped before validation: its errors never name it",
                }
            )
    for key, raw in (entry.channels or {}).items():
        if key not in payload:
            continue
        if _json(raw) != _json(payload[key]):
            rows.append(
                {
                    "aspect": f"{key} in the channels",
                    "our gate": f"validates the input as sent: {_json(payload[key])[:60]}",
                    "LangGraph": "its reducer rewrote the input before validation: "
                    + _json(raw)[:60],
                }
            )
        elif entry.node_saw and key in entry.node_saw and _json(raw) != _json(entry.node_saw[key]):
            rows.append(
                {
                    "aspect": f"{key} in the channels",
                    "our gate": f"validated value {_json(entry.node_saw[key])[:60]}",
                    "LangGraph": f"keeps the raw input {_json(raw)[:60]}; nodes see the coerced "
                    "value, invoke() returns the raw one",
                }
            )
    return rows


def _gate_word(report: Report, key: str) -> str:
    if any(e.type == "extra_forbidden" and e.loc == (key,) for e in report.errors):
        return "rejected (extra_forbidden)"
    return "accepted (extra is not 'forbid')"


def _json(value: Any) -> str:
    return truncate(to_jsonable_python(value, fallback=repr), 10_000)
