"""Two verdicts on one payload, never confused: your model alone, and LangGraph's entry."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langgraph.graph.state import CompiledStateGraph
from pydantic_core import to_jsonable_python

from core.entry_run import EntryVerdict, entry_graph, langgraph_entry
from core.paths import plural, truncate
from core.report import Report

__all__ = [
    "EntryComparison",
    "EntryVerdict",
    "Headline",
    "compare_entry",
    "entry_graph",
    "headline",
    "langgraph_entry",
]


@dataclass
class EntryComparison:
    """LangGraph's real entry on the payload, compared with the model alone (the Report)."""

    langgraph_accepted: bool
    langgraph_error: str | None  # exception type and first line, when LangGraph raised
    node_saw: dict[str, Any] | None  # the validated state the first node received
    channels: dict[str, Any] | None  # raw channel values after the input was written
    verdict: EntryVerdict
    differences: list[dict[str, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Headline:
    """What the page says first: what LangGraph does, then where the model alone differs."""

    level: Literal["success", "warning", "error"]
    langgraph: str
    model: str


def compare_entry(report: Report, graph: CompiledStateGraph | None = None) -> EntryComparison:
    """Run LangGraph's entry on the report's payload and list what differs from the model.

    `graph` is the graph the payload is for (its input schema, reducers and first node);
    None means the smallest graph over `report.model`.

    Example:
        >>> from core.report import validate_text
        >>> r = validate_text('{"user_id": "550e8400-e29b-41d4-a716-446655440000", '
        ...                   '"amount": 1, "coupon": "X"}')
        >>> [row["aspect"] for row in compare_entry(r).differences]
        ['verdict', 'unknown key coupon', 'amount in the channels']
    """
    verdict = langgraph_entry(graph or entry_graph(report.model), report.input, report.text)
    result = EntryComparison(
        verdict.runs, verdict.error, verdict.node_saw, verdict.channels, verdict
    )
    result.differences = _differences(report, result)
    return result


def headline(report: Report, comparison: EntryComparison) -> Headline:
    """The two verdicts as two sentences; the level is LangGraph's (warning: it runs a payload
    the model alone rejects).

    Example:
        >>> from core.report import validate_text
        >>> r = validate_text('{"user_id": "550e8400-e29b-41d4-a716-446655440000", '
        ...                   '"amount": 1, "coupon": "X"}')
        >>> headline(r, compare_entry(r))
        Headline(level='warning', langgraph='LangGraph runs this and drops coupon: the first \
node, entry, starts.', model='Your model alone rejects it: 1 error, listed below.')
    """
    verdict = comparison.verdict
    alone = plural(len(report.errors), "error")
    if verdict.runs:
        changes = []
        if verdict.dropped:
            changes.append("drops " + ", ".join(verdict.dropped[:5]))
        rewritten = _rewritten(report, verdict)
        if rewritten:
            changes.append("its reducers rewrite " + ", ".join(rewritten[:5]))
        start = "LangGraph runs this" + (" and " + " and ".join(changes) if changes else "")
        nodes = ", ".join(verdict.first_nodes)
        said = f"{start}: " + (f"the first node, {nodes}, starts." if nodes else "no node runs.")
        if report.ok:
            return Headline("success", said, "Your model alone accepts it too.")
        return Headline("warning", said, f"Your model alone rejects it: {alone}, listed below.")
    found = plural(len(verdict.errors), "error")
    said = f"LangGraph raises before the first node runs ({found}): {verdict.error}"
    model = (
        "Your model alone accepts it: the difference is LangGraph's entry (below)."
        if report.ok
        else f"Your model alone rejects it too: {alone}."
    )
    return Headline("error", said, model)


def _differences(report: Report, entry: EntryComparison) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    model = "accepts" if report.ok else f"rejects ({plural(len(report.errors), 'error')})"
    lang = "runs the first node" if entry.langgraph_accepted else f"raises {entry.langgraph_error}"
    if report.ok != entry.langgraph_accepted:
        rows.append({"aspect": "verdict", "your model alone": model, "LangGraph": lang})
    payload = report.input if isinstance(report.input, dict) else {}
    for key in entry.verdict.dropped:
        rows.append(
            {
                "aspect": f"unknown key {key}",
                "your model alone": _extra_word(report, key),
                "LangGraph": "silently dropped: the key never reaches a channel"
                if entry.langgraph_accepted
                else "dropped before validation: its errors never name it",
            }
        )
    rewritten = _rewritten(report, entry.verdict)
    for key, raw in (entry.channels or {}).items():
        if key not in payload:
            continue
        if key in rewritten:
            rows.append(
                {
                    "aspect": f"{key} in the channels",
                    "your model alone": f"validates the input as sent: {_json(payload[key])[:60]}",
                    "LangGraph": "its reducer rewrote the input before validation: "
                    + _json(raw)[:60],
                }
            )
        elif entry.node_saw and key in entry.node_saw and _json(raw) != _json(entry.node_saw[key]):
            rows.append(
                {
                    "aspect": f"{key} in the channels",
                    "your model alone": f"validated value {_json(entry.node_saw[key])[:60]}",
                    "LangGraph": f"keeps the raw input {_json(raw)[:60]}; nodes see the coerced "
                    "value, invoke() returns the raw one",
                }
            )
    return rows


def _rewritten(report: Report, verdict: EntryVerdict) -> list[str]:
    """Fields whose channel holds something else than the payload gave: a reducer's work."""
    payload = report.input if isinstance(report.input, dict) else {}
    channels = verdict.channels or {}
    return [k for k in channels if k in payload and _json(channels[k]) != _json(payload[k])]


def _extra_word(report: Report, key: str) -> str:
    """What the model's own `extra` setting does with an unknown top-level key (read, not
    guessed from the errors)."""
    extra = report.model.model_config.get("extra") or "ignore"
    if extra == "forbid":
        return "rejected (extra='forbid')"
    return f"accepted (extra='{extra}')" + (": kept on the model" if extra == "allow" else "")


def _json(value: Any) -> str:
    return truncate(to_jsonable_python(value, fallback=repr), 10_000)
