"""A migration plan: steps read from a small TOML file by one model, each refusal at its line."""

from __future__ import annotations

import json
import math
import re
import tomllib
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.errors import CodedError, ErrorCode
from core.words import article

__all__ = [
    "ACTIONS",
    "HEADER_KEYS",
    "Plan",
    "PlanError",
    "Step",
    "parse_plan",
    "plan_toml",
    "split_path",
]

Action = Literal["default", "drop", "map", "rename", "coerce"]
ACTIONS: tuple[str, ...] = ("default", "drop", "map", "rename", "coerce")
COERCIONS = ("int", "float", "str", "bool")
MAX_PLAN_BYTES = 200_000
MAX_STEPS = 200
MAX_VALUE_DEPTH = 64  # a default or mapped value nested deeper is not a plan's business
JSON_KEYS = ("value", "from", "to")  # each may be written `<key>_json` (null, nested nulls)
HEADER_KEYS = ("id", "after", "model")  # a chained plan's keys, above its first [[step]]
ANSWERS = {"map": "to", "default": "value"}  # the key a step marked `answer` leaves open
_ID = r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,99}"
_MODEL = r"[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*"

# a dotted path of field names, "[*]" after a name for every element of that list
_PATH = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[\*\])?(\.[A-Za-z_][A-Za-z0-9_]*(\[\*\])?)*")


class PlanError(CodedError):
    """A plan that cannot be used: `code` is stable, the message names the TOML line."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(code, message)


def split_path(path: str) -> list[str]:
    """A step's path as its segments, "[*]" a segment of its own.

    Example:
        >>> split_path("items[*].sku")
        ['items', '[*]', 'sku']
    """
    return [part for name in path.split(".") for part in (
        [name[:-3], "[*]"] if name.endswith("[*]") else [name])]  # fmt: skip


class Step(BaseModel):
    """One step: what to do at `path` of every state (see the README's Migrate section).

    default: set `value` where the field is missing; drop: remove the field; map: replace
    the value `from` by `to`; rename: move the field to the name `to`; coerce: convert the
    value to the type `to` (int, float, str, bool) where it converts without loss.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    # anchored: Pydantic searches a `pattern`, so "items[0]" or "a b" would pass otherwise
    path: Annotated[str, Field(min_length=1, max_length=300, pattern=f"^{_PATH.pattern}$")]
    action: Action
    value: Any = None  # default: the value to set (`value_json` holds null or any JSON)
    from_: Any = Field(default=None, alias="from")  # map: the old value
    to: Any = None  # map: the new value; rename: the new field name; coerce: the type
    # a map's `to` or a default's `value` left for the user to answer: until it is, the
    # step changes nothing (the proposal writes it where only the user knows the meaning)
    answer: Literal["to", "value"] | None = None

    @field_validator("value", "from_", "to")
    @classmethod
    def _json_data(cls, value: Any) -> Any:
        # States hold JSON: a TOML date would not survive plan_toml, nor a state's JSON.
        problem = _not_json(value, MAX_VALUE_DEPTH)
        if problem:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _complete(self) -> Step:
        if self.action == "rename" and not (
            isinstance(self.to, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.to)
        ):
            raise ValueError("a rename needs `to`: the field's new name")
        if self.action == "coerce" and self.to not in COERCIONS:
            raise ValueError(f"a coerce needs `to`: one of {', '.join(COERCIONS)}")
        given = self.model_fields_set | _aliases(self)
        if self.action == "map" and "from" not in given:
            raise ValueError("a map needs `from` and `to`: the old value and the new one")
        if self.answer is not None and ANSWERS.get(self.action) != self.answer:
            raise ValueError(
                "`answer` marks a map's `to` or a default's `value` as still to be answered"
            )
        open_key = ANSWERS.get(self.action)
        if open_key and self.answer is None and open_key not in given:
            raise ValueError(
                f"{article(self.action)} needs `{open_key}`"
                + (" (the new value)" if open_key == "to" else " (the value to fill in)")
                + f'; write it, or mark the step answer = "{open_key}" to leave it open'
            )
        return self

    @property
    def answered(self) -> bool:
        """False while the step is marked `answer`: it then changes nothing."""
        return self.answer is None

    def as_toml(self) -> dict[str, Any]:
        """The step as its TOML table holds it (only the keys its action uses)."""
        table: dict[str, Any] = {"path": self.path, "action": self.action}
        if self.action == "default":
            table["value"] = self.value
        elif self.action == "map":
            table["from"], table["to"] = self.from_, self.to
        elif self.action in ("rename", "coerce"):
            table["to"] = self.to
        if self.answer is not None:
            table["answer"] = self.answer
            if self.answer not in self.model_fields_set:  # nothing proposed: nothing written
                table.pop(self.answer, None)
        return table


def _aliases(step: Step) -> set[str]:
    return {"from"} if "from_" in step.model_fields_set else set()


def _not_json(value: Any, levels: int) -> str:
    """What keeps `value` from being JSON data nesting at most `levels` deep ("" if nothing)."""
    if isinstance(value, list | dict) and levels <= 0:
        return f"the value nests deeper than {MAX_VALUE_DEPTH} levels; flatten it"
    if isinstance(value, dict) and not all(isinstance(key, str) for key in value):
        return "write the value as JSON: its keys as strings"
    if isinstance(value, list | dict):
        items = value.values() if isinstance(value, dict) else value
        return next((p for p in (_not_json(v, levels - 1) for v in items) if p), "")
    if value is None or isinstance(value, str | int | float):  # bool is an int
        return ""
    return (
        f"write the value as JSON data, not a TOML {type(value).__name__} "
        '(a date as a string: "2024-01-31")'
    )


class Plan(BaseModel):
    """The steps, applied in this order to every state; in a chain, the plan's `id`, the
    `after` id it follows (none for the first) and the `model` it migrates from."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    id: Annotated[str, Field(pattern=f"^{_ID}$")] | None = None
    after: Annotated[str, Field(pattern=f"^{_ID}$")] | None = None
    model: Annotated[str, Field(pattern=f"^{_MODEL}$", max_length=300)] | None = None
    steps: list[Step] = Field(default_factory=list, alias="step", max_length=MAX_STEPS)


def parse_plan(text: str) -> Plan:
    """A plan from TOML text: `[[step]]` tables with `path`, `action` and its parameters
    (`value`, `from`, `to`; `value_json`, `from_json`, `to_json` for null and other JSON
    TOML cannot write). Values are JSON data: no TOML dates. Raises `PlanError`
    naming the line of the step it refuses and what to write there.

    Example:
        >>> text = '[[step]]\\npath = "status"\\naction = "map"\\nfrom = "shipped"\\nto = "done"\\n'
        >>> parse_plan(text).steps[0].to
        'done'
        >>> try:
        ...     parse_plan(text.replace('"map"', '"squash"'))
        ... except PlanError as error:
        ...     print(error.message[:48])
        line 3: step 1 (its [[step]] at line 1): action:
    """
    if len(text.encode("utf-8", "surrogatepass")) > MAX_PLAN_BYTES:
        raise PlanError(
            ErrorCode.PLAN_TOML, f"the plan is over {MAX_PLAN_BYTES:,} bytes; shorten it."
        )
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PlanError(ErrorCode.PLAN_TOML, f"{exc}; fix the TOML there.") from None
    except RecursionError:
        raise PlanError(
            ErrorCode.PLAN_TOML, "the plan nests arrays or tables too deeply; flatten them."
        ) from None
    except ValueError:  # Python's limit on an integer's digits
        raise PlanError(
            ErrorCode.PLAN_TOML, "a number in the plan has too many digits; shorten it."
        ) from None
    unknown = sorted(set(table) - {"step", *HEADER_KEYS})
    if unknown:
        raise PlanError(
            ErrorCode.PLAN_TOML,
            f"line {_line_of(text, unknown[0])}: unknown table or key {unknown[0]!r}; a plan "
            "holds only `id`, `after`, `model` and [[step]] tables.",
        )
    raw = table.get("step", [])
    starts = _step_lines(text)
    steps = []
    for index, entry in enumerate(raw if isinstance(raw, list) else [raw]):
        line = starts[index] if index < len(starts) else 1
        where = _Where(text, index, line, starts[index + 1] if index + 1 < len(starts) else 0)
        if isinstance(entry, dict):
            entry = _with_json_values(entry, where)
        try:
            steps.append(Step.model_validate(entry))
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            key = str(first["loc"][0]) if first["loc"] else _blamed_key(entry)
            said = first["msg"].removeprefix("Value error, ")
            named = ".".join(str(part) for part in first["loc"])
            raise PlanError(
                ErrorCode.PLAN_STEP, where.said(key, f"{named + ': ' if named else ''}{said}.")
            ) from None
    header = {key: table[key] for key in HEADER_KEYS if key in table}
    try:
        return Plan(step=steps, **header)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        if first["loc"][0] != "step":
            key = str(first["loc"][0])
            raise PlanError(
                ErrorCode.PLAN_TOML,
                f"line {_line_of(text, key)}: {key}: {first['msg']}"
                + (' (a model as "package.module:Class").' if key == "model" else "."),
            ) from None
        raise PlanError(
            ErrorCode.PLAN_STEP, f"the plan has more than {MAX_STEPS} steps; split it."
        ) from None


def _blamed_key(entry: Any) -> str:
    """The key a whole-step refusal is about: where the user will fix it."""
    if not isinstance(entry, dict):
        return ""
    if "answer" in entry:
        return "answer"
    return "to" if entry.get("action") in ("rename", "coerce") and "to" in entry else ""


class _Where:
    """One step's place in the plan's text: its [[step]] header's line, its keys' lines."""

    def __init__(self, text: str, index: int, header: int, next_header: int) -> None:
        self.lines = text.splitlines()
        self.index, self.header, self.next_header = index, header, next_header

    def line_of(self, key: str) -> int:
        """The line of `key` (or `key_json`) in this step's table; its header's if not found
        (a step written as an inline table)."""
        stop = self.next_header - 1 if self.next_header else len(self.lines)
        wanted = re.compile(rf'\s*"?{re.escape(key)}(_json)?"?\s*=')
        for number in range(self.header + 1, stop + 1):
            if key and wanted.match(self.lines[number - 1]):
                return number
        return self.header

    def said(self, key: str, text: str) -> str:
        line = self.line_of(key)
        if line == self.header:
            return f"line {line}: step {self.index + 1}: {text}"
        return f"line {line}: step {self.index + 1} (its [[step]] at line {self.header}): {text}"


def _with_json_values(entry: dict[str, Any], where: _Where) -> dict[str, Any]:
    """`value_json`, `from_json`, `to_json` read as JSON into `value`, `from`, `to`."""
    entry = dict(entry)
    for key in JSON_KEYS:
        if f"{key}_json" not in entry:
            continue
        text = entry.pop(f"{key}_json")
        try:
            entry[key] = json.loads(text) if isinstance(text, str) else object()
        except (ValueError, RecursionError):  # not JSON, too long a number, too deep
            entry[key] = object()
        if entry[key].__class__ is object:
            raise PlanError(
                ErrorCode.PLAN_STEP,
                where.said(key, f"{key}_json: write the value as JSON text nested at most "
                           f'{MAX_VALUE_DEPTH} levels, e.g. {key}_json = "null".'),
            )  # fmt: skip
    return entry


def _step_lines(text: str) -> list[int]:
    return [n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith("[[step]]")]


def _line_of(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().lstrip("[").startswith(key):
            return number
    return 1


def plan_toml(plan: Plan, notes: dict[int, str] | None = None) -> str:
    """The plan as the TOML text `parse_plan` reads back to the same plan; `notes` (step
    index -> text) are written as a comment above each step.

    Example:
        >>> step = Step(path="priority", action="default", value="normal")
        >>> print(plan_toml(Plan(steps=[step])), end="")
        [[step]]
        path = "priority"
        action = "default"
        value = "normal"
    """
    blocks = []
    header = [f"{key} = {_toml(getattr(plan, key))}" for key in HEADER_KEYS
              if getattr(plan, key) is not None]  # fmt: skip
    if header:
        blocks.append("\n".join(header))
    for index, step in enumerate(plan.steps):
        lines = [f"# {line}" for line in (notes or {}).get(index, "").splitlines()]
        lines.append("[[step]]")
        for key, value in step.as_toml().items():
            if key in JSON_KEYS and not _toml_safe(value):
                lines.append(f"{key}_json = {_toml(json.dumps(value, ensure_ascii=False))}")
            else:
                lines.append(f"{key} = {_toml(value)}")
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + ("\n" if blocks else "")


def _toml_safe(value: Any) -> bool:
    """Whether TOML can hold the value as it is (it has no null)."""
    if value is None:
        return False
    if isinstance(value, dict):
        return all(_toml_safe(v) for v in value.values())
    if isinstance(value, list):
        return all(_toml_safe(v) for v in value)
    return isinstance(value, str | int | float | bool)


def _toml(value: Any) -> str:
    """A TOML value: strings as JSON writes them (valid TOML basic strings), numbers, arrays
    and inline tables."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return (
            "nan"
            if math.isnan(value)
            else ("inf" if value > 0 else "-inf")
            if math.isinf(value)
            else repr(value)
        )
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_string(str(k))} = {_toml(v)}" for k, v in value.items())
        return "{" + inner + "}"
    return _toml_string(str(value))


def _toml_string(text: str) -> str:
    # JSON escapes the control characters TOML forbids, all but DEL
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")
