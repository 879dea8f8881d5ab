"""Two verdicts on one payload, never confused: your model alone, and LangGraph's entry."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from core.jsontext.write import plural, truncate
from core.lg_compat import builder_of, input_schema, state_schema
from core.order import AgentState, build_order_graph
from core.order.graph import CompiledGraph
from core.project import Project
from core.validate.entry_run import EntryVerdict, entry_graph, langgraph_entry
from core.validate.field_errors import FieldError
from core.validate.report import Report

__all__ = [
    "Entry",
    "EntryComparison",
    "order_entry_graph",
    "pick_entry",
    "project_entry",
    "EntryVerdict",
    "Headline",
    "REJECTERS",
    "Rejected",
    "Rejecter",
    "compare_entry",
    "entry_graph",
    "headline",
    "langgraph_entry",
    "rejected_errors",
]

# Who rejects an error: the page's one error table says it in its "rejected by" column.
Rejecter = Literal["both", "LangGraph", "your model"]
REJECTERS: tuple[Rejecter, ...] = ("both", "LangGraph", "your model")


@dataclass
class EntryComparison:
    """LangGraph's real entry on the payload, compared with the model alone (the Report)."""

    langgraph_accepted: bool
    langgraph_error: str | None  # exception type and first line, when LangGraph raised
    node_saw: dict[str, Any] | None  # the validated state the first node received
    channels: dict[str, Any] | None  # raw channel values after the input was written
    verdict: EntryVerdict
    differences: list[dict[str, str]] = field(default_factory=list)
    rewritten: list[str] = field(default_factory=list)  # fields a reducer rewrote


@dataclass(frozen=True)
class Headline:
    """What the page says first: what LangGraph does, then where the model alone differs.

    `text` is fixed wording and counts only (it may be shown as Markdown); `details` name
    keys, fields, nodes and what LangGraph raised, and must be shown as plain text.
    """

    level: Literal["success", "warning", "error"]
    text: str
    details: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Rejected:
    """One located error and who rejects it: LangGraph's entry, your model alone, or both."""

    error: FieldError  # your model's own row when both reject it (its input as sent)
    by: Rejecter
    # "both": LangGraph's own message where it words the error differently (JSON's "array"
    # against Python's "list"), for the details; None where the two say the same
    theirs: str | None = None


@dataclass(frozen=True)
class Entry:
    """Where a payload enters and what judges it, decided once (`pick_entry`) for the Validate
    page, the Trace page, the command line and `run_trace`."""

    graph: CompiledGraph  # the graph the payload is given to: its entry judges it
    model: type[BaseModel] | None  # your model: what the payload is written for (the gate's)
    state: type[BaseModel] | None  # each step's merged state is checked against it


def _pydantic(schema: Any) -> type[BaseModel] | None:
    return schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None


def pick_entry(
    graph: CompiledGraph | None = None,
    model: type[BaseModel] | None = None,
    *,
    model_given: bool = False,
    seed: bool = False,
) -> Entry:
    """The entry graph, your model and the state's model for a payload: the one place this is
    decided (`project_entry` for a configured project, `run_trace` for a graph).

    - graph: `graph`; without one, the seed order graph over `model` (`seed`, or no model:
      AgentState or a schema-options variant of it), else the smallest graph over `model`.
    - your model, the gate's (input schema first, as the README says): `model` when it was
      given explicitly (`model_given`: a --model flag); else the graph's Pydantic
      `input_schema` when it declares one of its own (LangGraph writes the input through its
      channels, so a reducer field of the state the input lacks starts empty); else `model`;
      else the graph's Pydantic state schema. None: nothing Pydantic to gate with.
    - the state's model: `model`, else the graph's Pydantic state schema.

    Example:
        >>> from core.order import build_fanout_graph
        >>> pick_entry(build_fanout_graph()).model is AgentState
        True
        >>> sorted(pick_entry(model=AgentState, seed=True).graph.nodes)
        ['__start__', 'confirm', 'validate_order']
        >>> sorted(pick_entry(model=AgentState).graph.nodes)  # a --model with no graph
        ['__start__', 'entry']
    """
    if graph is None:
        state = model or AgentState
        chosen = order_entry_graph(state) if seed or model is None else entry_graph(state)
        return Entry(chosen, state, state)
    builder = builder_of(graph)
    graphs_state = _pydantic(state_schema(builder))
    declared = input_schema(builder)
    own_input = None if declared is state_schema(builder) else declared
    yours = model if model_given else None
    chosen_model = yours or _pydantic(own_input) or model or graphs_state
    return Entry(graph, chosen_model, model or graphs_state)


def project_entry(project: Project) -> Entry:
    """`pick_entry` for the project the server is configured with (`--model/--graph`,
    playground.toml, environment): your graph or the seed order's, and your model.

    Example:
        >>> from core.project import load_project
        >>> fanout = load_project(["--graph", "core.order:build_fanout_graph"], {}, ".")
        >>> entry = project_entry(fanout)
        >>> (entry.model.__name__, sorted(entry.graph.nodes)[:3])
        ('AgentState', ['__start__', 'confirm', 'notify_email'])
    """
    return pick_entry(
        project.graph,
        project.model,
        model_given=project.spec.model is not None,
        seed=project.seed_model,
    )


@lru_cache(maxsize=32)  # keyed by model class: server-side models, never user data
def order_entry_graph(state: type[BaseModel]) -> CompiledGraph:
    """The seed order graph over `state` (AgentState or a schema-options variant), compiled
    once per model: its entry judges seed payloads on the Validate page and the CLI.

    Example:
        >>> from core.order import AgentState
        >>> order_entry_graph(AgentState) is order_entry_graph(AgentState)
        True
    """
    return build_order_graph(state=state)


def compare_entry(report: Report, graph: CompiledGraph | None = None) -> EntryComparison:
    """Run LangGraph's entry on the report's payload and list what differs from the model.

    `graph` is the graph the payload is for (its input schema, reducers and first node);
    None means the smallest graph over `report.model`.

    Example:
        >>> from core.validate.report import validate_text
        >>> r = validate_text('{"user_id": "550e8400-e29b-41d4-a716-446655440000", '
        ...                   '"amount": 1, "coupon": "X"}')
        >>> [row["aspect"] for row in compare_entry(r).differences]
        ['verdict', 'unknown key coupon', 'amount in the channels']
    """
    verdict = langgraph_entry(graph or entry_graph(report.model), report.input, report.text)
    result = EntryComparison(
        verdict.runs, verdict.error, verdict.node_saw, verdict.channels, verdict
    )
    result.rewritten = _rewritten(report, verdict)  # once: it compares whole channel values
    result.differences = _differences(report, result)
    return result


def rejected_errors(report: Report, comparison: EntryComparison) -> list[Rejected]:
    """Your model's errors (Pydantic's, `report`) and LangGraph's entry's (`comparison`), one
    row per error: an error both give with one identity (`FieldError.identity`: the same
    place and type, whatever the messages say) is one row "both", with your model's message
    and LangGraph's own beside it when it differs; the rest say which of the two rejects
    them.

    Your model's rows keep Pydantic's order; a row only LangGraph gives follows the last row
    at the same loc (its own version of that part's error), else goes before the first row
    after it in the text, else at the end.

    Example:
        >>> from core.order.presets import PRESETS
        >>> from core.validate.report import validate_text
        >>> r = validate_text(PRESETS["typeless_message"].value)
        >>> [(row.error.path, row.error.type, row.by) for row in
        ...  rejected_errors(r, compare_entry(r))][-3:]  # doctest: +NORMALIZE_WHITESPACE
        [('items[0].qty', 'greater_than_equal', 'both'),
         ('messages[0]', 'validator_exception', 'your model'),
         ('messages[0]', 'langgraph_exception', 'LangGraph')]
    """
    theirs: dict[tuple[str, str], list[FieldError]] = {}
    for error in comparison.verdict.errors:
        theirs.setdefault(error.identity, []).append(error)
    rows: list[Rejected] = []
    for error in report.errors:
        same = theirs.get(error.identity)
        if not same:
            rows.append(Rejected(error, "your model"))
            continue
        their = same.pop(0)
        rows.append(Rejected(error, "both", None if their.msg == error.msg else their.msg))
    for error in comparison.verdict.errors:
        if any(left is error for left in theirs.get(error.identity, ())):  # LangGraph's alone
            rows.insert(_place(rows, error), Rejected(error, "LangGraph"))
    return rows


def _place(rows: list[Rejected], error: FieldError) -> int:
    """Where a row only LangGraph gives goes: after the last row at its loc, else before the
    first row after it in the text, else at the end."""
    same = [n for n, row in enumerate(rows) if row.error.loc == error.loc]
    if same:
        return same[-1] + 1
    if error.line is not None:
        spot = (error.line, error.col or 0)
        for n, row in enumerate(rows):
            if row.error.line is not None and (row.error.line, row.error.col or 0) > spot:
                return n
    return len(rows)


def headline(report: Report, comparison: EntryComparison) -> Headline:
    """LangGraph's verdict first, then the model alone's where it differs. The level is
    LangGraph's: success (runs, and the model agrees), warning (runs a payload the model
    alone rejects), error (raises before the first node).

    Example:
        >>> from core.validate.report import validate_text
        >>> r = validate_text('{"user_id": "550e8400-e29b-41d4-a716-446655440000", '
        ...                   '"amount": 1, "coupon": "X"}')
        >>> said = headline(r, compare_entry(r))
        >>> said.level, said.text
        ('warning', 'LangGraph runs this payload: it drops 1 unknown key before the first node \
starts. Your model alone rejects it: 1 error, listed below.')
        >>> said.details
        ['first node: entry', 'dropped by LangGraph (no input channel): coupon']
    """
    verdict = comparison.verdict
    rows = rejected_errors(report, comparison)  # the page's one table: the count is its rows
    listed = plural(len(rows), "error")
    details = []
    if verdict.runs:
        changes = []
        if verdict.dropped:
            changes.append(f"drops {plural(len(verdict.dropped), 'unknown key')}")
        # add_messages always rewrites (ids, message objects): named where the model alone
        # rejects what the reducer converted, e.g. role-style dicts and plain strings.
        rejected = {e.loc[0] for e in report.errors if e.loc}
        rewritten = [name for name in comparison.rewritten if name in rejected]
        if rewritten:
            changes.append(f"rewrites {plural(len(rewritten), 'field')} with its reducers")
        said = "LangGraph runs this payload" + (
            f": it {' and '.join(changes)} before the first node starts." if changes else "."
        )
        details.append("first node: " + (", ".join(verdict.first_nodes) or "none (goes to END)"))
        if verdict.dropped:
            details.append("dropped by LangGraph (no input channel): " + ", ".join(verdict.dropped))
        if rewritten:
            details.append("rewritten by a reducer before validation: " + ", ".join(rewritten))
        if not rows:
            return Headline("success", f"{said} Your model alone accepts it too.", details)
        return Headline(
            "warning", f"{said} Your model alone rejects it: {listed}, listed below.", details
        )
    said = "LangGraph raises before the first node runs: the graph would not run."
    counts = Counter(row.by for row in rows)
    found = ""
    if len(counts) == 1:  # one kind: said once ("1 error, listed below, that both … reject")
        found = f" {listed}, listed below, {_BY[next(iter(counts))]}."
    elif rows:
        who = ", ".join(f"{counts[by]} {_BY[by]}" for by in REJECTERS if counts[by])
        found = f" {listed}, listed below: {who}."
    alone = " Your model alone accepts it." if report.ok else ""
    return Headline("error", f"{said}{found}{alone}", [f"LangGraph raised {verdict.error}"])


_BY: dict[str, str] = {
    "both": "that both LangGraph and your model reject",
    "LangGraph": "that only LangGraph rejects",
    "your model": "that only your model rejects",
}


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
    for key, raw in (entry.channels or {}).items():
        if key not in payload:
            continue
        if key in entry.rewritten:
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
