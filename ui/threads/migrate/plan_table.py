"""The plan editor's rows as data, without Streamlit: a plan -> rows, edited rows -> a plan.

Each step is one row: `path`, `action`, then `value`, `from` and `to` as text (an empty
cell: the step does not give it), the proposal's `note` and whether it `asked` the user to
choose the value. A value cell is plain text where the field at the path takes text
(`shipped`), JSON elsewhere (750, "750", null): `ui.threads.migrate.cells`. Edited rows are
read back through `Step.model_validate`; each refusal is coded and names the row (its
position in the table, 1-based) and, for a cell, the column.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

import pandas as pd
from pydantic import ValidationError

from core.errors import CodedError, ErrorCode
from core.jsontext.paths import format_path
from core.migrate.plan import ACTIONS, ANSWERS, MAX_STEPS, Plan, Step
from core.migrate.propose import Proposal
from core.words import count, joined
from ui.threads.migrate.cells import TakesText, cell_text, unticked

__all__ = [
    "COLUMNS",
    "JSON_COLUMNS",
    "StepRefusal",
    "TablePlan",
    "plan_frame",
    "plan_rows",
    "read_rows",
]

JSON_COLUMNS = ("value", "from", "to")
COLUMNS = ("path", "action", *JSON_COLUMNS, "asked", "note")
_TEXT = ("path", "action", *JSON_COLUMNS, "note")
_PATH_RULE = (
    "write field names joined by dots, [*] after a list's name for each of its elements "
    "(items[*].sku)"
)


@dataclass
class TablePlan:
    """What the edited rows say: the plan (None while any row is refused), the notes of the
    steps still as proposed (step index -> note), and each refusal."""

    plan: Plan | None
    notes: dict[int, str] = field(default_factory=dict)
    refusals: list[StepRefusal] = field(default_factory=list)


def _no_text(path: str, action: str, column: str) -> bool:
    return False


def _cells(step: Step, text: TakesText) -> dict[str, str]:
    table = step.as_toml()
    return {key: cell_text(table[key], text(step.path, step.action, key)) if key in table
            else "" for key in JSON_COLUMNS}  # fmt: skip


def plan_rows(proposal: Proposal, text: TakesText = _no_text) -> list[dict[str, Any]]:
    """One row per step of the proposal's plan, its note and whether it is asked; a value
    is plain text where `text` says its field takes text.

    Example:
        >>> step = Step(path="status", action="map", **{"from": "Shipped", "to": "shipped"})
        >>> plan_rows(Proposal(plan=Plan(steps=[step]), notes={0: "why"}))
        [{'path': 'status', 'action': 'map', 'value': '', 'from': '"Shipped"', 'to': '"shipped"', 'asked': False, 'note': 'why'}]
    """  # noqa: E501 - a doctest's output is one line
    rows = []
    for index, step in enumerate(proposal.plan.steps):
        rows.append(
            {"path": step.path, "action": step.action, **_cells(step, text),
             "asked": index in proposal.asked or step.answer is not None,
             "note": unticked(proposal.notes.get(index, ""))}
        )  # fmt: skip
    return rows


def plan_frame(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The rows as the editor's table: text columns of strings, `asked` of booleans."""
    columns: dict[str, Any] = {
        name: pd.Series([row[name] for row in rows], dtype=str) for name in _TEXT
    }
    # nullable: a row added in the editor has no value there
    columns["asked"] = pd.Series([row["asked"] for row in rows], dtype="boolean")
    return pd.DataFrame({name: columns[name] for name in COLUMNS})


def _cell(value: Any) -> str:
    """A cell as text: an added row's untouched cell (None, NaN) is empty."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value)


class StepRefusal(CodedError):
    """A row the plan cannot take (plan_step): `where` names the row (and cell), `said`
    what it lacks; its message is both, as the command line prints it."""

    def __init__(self, where: str, said: str) -> None:
        super().__init__(ErrorCode.PLAN_STEP, f"{where}: {said}")
        self.where, self.said = where, said


def _refused(row: int, path: str, where: str, message: str) -> StepRefusal:
    named = f"row {row}" + (f" ({path})" if path else "")
    return StepRefusal(f"{named}{', ' + where if where else ''}", message)


def _path_refusals(row: int, path: str) -> list[StepRefusal]:
    """What the path cell alone is refused for (none: a path a step can take)."""
    try:
        Step.model_validate({"path": path, "action": "drop"})
    except ValidationError as error:
        return [r for r in _step_refusals(row, path, error) if r.where.endswith("column path")]
    return []


def _json_cells(
    row: int, cells: dict[str, str], text: TakesText, *, known: bool = True
) -> tuple[dict[str, Any], list[StepRefusal]]:
    """The value cells that are not empty, read: JSON, else plain text where the field
    takes text; each other one refused, saying JSON is needed there (and that the field
    is not text, where the path is `known` to be one a step can take)."""
    given: dict[str, Any] = {}
    refusals = []
    for column in JSON_COLUMNS:
        typed = cells[column]
        if not typed.strip():
            continue
        try:
            given[column] = json.loads(typed)
        except (ValueError, RecursionError) as exc:
            if text(cells["path"], cells["action"], column):
                given[column] = typed  # plain text, as typed
                continue
            why = (
                f"{exc.msg} at character {exc.pos + 1}"
                if isinstance(exc, json.JSONDecodeError)
                else "too deep or too long a number"
            )
            because = "the field here is not text, so " if known else ""
            refusals.append(_refused(
                row, cells["path"], f"column {column}",
                f"not JSON ({why}); {because}write JSON: a number (750), true, false, null, "
                'a list, an object, or a string in double quotes ("shipped").',
            ))  # fmt: skip
    return given, refusals


def _step_refusals(row: int, path: str, error: ValidationError) -> list[StepRefusal]:
    refusals = []
    for found in error.errors(include_url=False):
        where = format_path(found["loc"]) if found["loc"] else ""
        said = found["msg"].removeprefix("Value error, ")
        if where == "path" and found["type"] == "string_pattern_mismatch":
            said = f"{path!r} is not a path: {_PATH_RULE}"
        elif where == "path" and found["type"] == "string_too_short":
            said = f"the step needs a path: {_PATH_RULE}"
        elif where == "action" and found["type"] == "missing":
            said = f"choose the step's action: {joined(list(ACTIONS), 'or')}"
        refusals.append(_refused(row, path, f"column {where}" if where else "", said + "."))
    return refusals


def read_rows(
    edited: pd.DataFrame,
    base: list[dict[str, Any]],
    text: TakesText = _no_text,
    header: dict[str, str] | None = None,
) -> TablePlan:
    """The plan the edited table holds. `base` is the rows the editor was given: a row still
    at its base index whose step is unchanged keeps its note. A row with every cell empty
    (just added) is not a step. A value cell that is not JSON is plain text where `text`
    says its field takes text. A row marked asked whose map `to` (default `value`) is
    still empty is a step left to answer (it changes nothing). `header`: the plan's id,
    after and model (a chained plan's, kept from its upload).

    Example:
        >>> rows = [{"path": "status", "action": "map", "value": "", "from": '"Shipped"',
        ...          "to": "shipped", "asked": False, "note": ""}]
        >>> print(read_rows(plan_frame(rows), []).refusals[0])  # doctest: +ELLIPSIS
        [plan_step] row 1 (status), column to: not JSON (Expecting value at character 1); ...
    """
    found = TablePlan(None)
    steps: list[Step] = []
    for position, (index, raw) in enumerate(edited.iterrows(), 1):
        cells = {name: _cell(raw.get(name)) for name in _TEXT}
        if not any(cells[name].strip() for name in ("path", "action", *JSON_COLUMNS)):
            continue
        path_refused = _path_refusals(position, cells["path"])
        given, refusals = _json_cells(position, cells, text, known=not path_refused)
        if refusals:  # the path's own problem first: the value's is read against it
            found.refusals += path_refused + refusals
            continue
        fields = {"path": cells["path"], **given}
        if cells["action"]:
            fields["action"] = cells["action"]
        open_key = ANSWERS.get(cells["action"])
        if open_key and open_key not in given and _asked(raw.get("asked")):
            fields["answer"] = open_key  # asked, not answered yet: the step waits for it
        try:
            step = Step.model_validate(fields)
        except ValidationError as error:
            found.refusals += _step_refusals(position, cells["path"], error)
            continue
        at = int(index) if pd.api.types.is_integer(index) else -1  # an added row: none
        if 0 <= at < len(base) and _same(step, base[at], text):
            found.notes[len(steps)] = str(base[at]["note"])
        steps.append(step)
    if len(steps) > MAX_STEPS:
        found.refusals.append(StepRefusal(
            "the plan", f"it has {count(len(steps), 'step')}, over {MAX_STEPS}; split it."
        ))  # fmt: skip
    if not found.refusals:
        found.plan = Plan(step=steps, **(header or {}))  # `step`: the alias, as in TOML
    return found


def _asked(value: Any) -> bool:
    """The asked cell: ticked (an added row's is empty)."""
    return value is not None and not pd.isna(value) and bool(value)


def _same(step: Step, row: dict[str, Any], text: TakesText) -> bool:
    """Whether `step` is the step `row` was drawn from (its note still says why)."""
    cells = _cells(step, text)
    return (step.path, step.action, cells) == (
        row["path"], row["action"], {key: row[key] for key in JSON_COLUMNS}
    )  # fmt: skip
