"""Propose a migration plan from what changed between the model and a candidate."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.migrate.changes import Change, schema_changes
from core.migrate.fill import field_adapter, fill_value
from core.migrate.plan import Plan, Step
from core.migrate.schemas import same_shape, state_schema

__all__ = ["Proposal", "propose"]

_COERCE = {"integer": "int", "number": "float", "string": "str", "boolean": "bool"}
_ORDER = {"rename": 0, "drop": 1, "coerce": 2, "map": 3, "default": 4}  # renames before the rest
_Drafted = tuple[dict[str, Any], str, bool]  # a step's fields, its note, whether it is asked
# where a proposed default comes from that says what a stored thread meant
_MEANT = ("its old default", "its only allowed value")


class Proposal(BaseModel):
    """A plan to review: why each step is there, which values to choose, what no step fixes."""

    model_config = ConfigDict(frozen=True)

    plan: Plan
    notes: dict[int, str] = Field(default_factory=dict)  # step index -> one sentence: why
    asked: list[int] = Field(default_factory=list)  # steps whose value the user must choose
    warnings: list[str] = Field(default_factory=list)  # changes no step fixes, and why


def propose(model: type[BaseModel], candidate: type[BaseModel]) -> Proposal:
    """The steps that carry threads stored with `model` to `candidate`, from the difference
    of their JSON schemas; a field whose type is unchanged gets none.

    Example:
        >>> from typing import Literal
        >>> from pydantic import create_model
        >>> Old = create_model("Old", status=Literal["pending", "Shipped"])
        >>> New = create_model(
        ...     "New", status=Literal["pending", "shipped"], priority=Literal["low", "high"]
        ... )
        >>> proposal = propose(Old, New)
        >>> for step in proposal.plan.steps:
        ...     print(step.as_toml())
        {'path': 'status', 'action': 'map', 'from': 'Shipped', 'to': 'shipped'}
        {'path': 'priority', 'action': 'default', 'value': 'low', 'answer': 'value'}
        >>> print(proposal.notes[1])  # doctest: +NORMALIZE_WHITESPACE
        `priority` is new and required in the candidate: "low" (the first of its allowed
        values) is only a value it accepts, not one that means anything: write the right
        `value` (or keep this one) and remove `answer`.
    """
    changes = schema_changes(state_schema(model), state_schema(candidate))
    renames = _renames(changes)
    drafted: list[_Drafted] = []
    warnings: list[str] = []
    for change in changes:
        if change.path in renames:
            drafted.extend(renames[change.path])
        else:
            drafts, warning = _draft(change, model, candidate)
            drafted.extend(drafts)
            warnings.extend([warning] if warning else [])
    steps: list[Step] = []
    notes: dict[int, str] = {}
    asked: list[int] = []
    for fields, note, is_asked in sorted(drafted, key=lambda draft: _ORDER[draft[0]["action"]]):
        try:
            step = Step.model_validate(fields)
        except ValidationError:  # the path is one a plan cannot spell
            why = "a list inside a list" if "[*][*]" in fields["path"] else "a name it cannot spell"
            warnings.append(
                f"{_at(fields['path'])} changed, but no plan path can name it ({why}): no step "
                "is proposed, and the preview counts the threads that fail."
            )
            continue
        notes[len(steps)] = note
        asked.extend([len(steps)] if is_asked else [])
        steps.append(step)
    return Proposal(plan=Plan(step=steps), notes=notes, asked=asked, warnings=warnings)


def _renames(changes: list[Change]) -> dict[str, list[_Drafted]]:
    """A removed field and an added one of the same type in the same object, when neither
    has another such partner there: a rename to confirm, keyed by both paths."""
    gone = [change for change in changes if change.kind == "removed"]
    new = [change for change in changes if change.kind == "added"]
    found: dict[str, list[_Drafted]] = {}
    for old in gone:
        partners = [added for added in new if _pair(old, added)]
        if len(partners) != 1 or [o for o in gone if _pair(o, partners[0])] != [old]:
            continue
        name = partners[0].path.rpartition(".")[2]
        note = (
            f"{_at(old.path)} is gone and {_at(partners[0].path)} is new, of the same type: "
            f"keep this step if it is a rename, else write a drop and a default instead."
        )
        found[old.path] = [({"path": old.path, "action": "rename", "to": name}, note, True)]
        found[partners[0].path] = []
    return found


def _pair(old: Change, new: Change) -> bool:
    return old.path.rpartition(".")[0] == new.path.rpartition(".")[0] and same_shape(
        old.old, new.new
    )


def _draft(
    change: Change, model: type[BaseModel], candidate: type[BaseModel]
) -> tuple[list[_Drafted], str]:
    """The steps one change needs (with notes), or the warning it gives instead."""
    path, at = change.path, _at(change.path)
    if change.kind in ("added", "required"):
        if change.kind == "added" and not change.required:
            return [], ""  # the candidate's default fills it
        found = _fill(change, candidate)
        why = "is new and" if change.kind == "added" else "had a default and is now"
        if found is None:
            note = (
                f"{at} {why} required in the candidate: none could be made up; write its "
                "`value` and remove `answer`."
            )
            return [({"path": path, "action": "default", "answer": "value"}, note, True)], ""
        if found[1] in _MEANT:
            note = (
                f"{at} {why} required in the candidate: threads stored without it get "
                f"{_json(found[0])} ({found[1]})."
            )
            return [({"path": path, "action": "default", "value": found[0]}, note, False)], ""
        note = (
            f"{at} {why} required in the candidate: {_json(found[0])} ({found[1]}) is only "
            "a value it accepts, not one that means anything: write the right `value` (or keep "
            "this one) and remove `answer`."
        )
        step = {"path": path, "action": "default", "value": found[0], "answer": "value"}
        return [(step, note, True)], ""
    if change.kind == "removed":
        if change.forbids_extra:
            note = f"{at} is gone from the candidate, which forbids extra keys: it is dropped."
            return [({"path": path, "action": "drop"}, note, False)], ""
        return [], (
            f"{at} is gone from the candidate, which does not forbid extra keys: stored "
            "values of it still validate; add a drop step to remove them."
        )
    if change.kind == "members":
        return _maps(change) + _member_texts(change, model, candidate), ""
    if change.kind == "retyped":
        old_type, new_type = _COERCE[change.old["type"]], _COERCE[change.new["type"]]
        note = (
            f"{at} was {old_type} and is {new_type} in the candidate: stored values are "
            "converted where nothing is lost."
        )
        return [({"path": path, "action": "coerce", "to": new_type}, note, False)], ""
    if change.kind == "narrowed":
        return [], (
            f"{at} is narrower in the candidate ({'; '.join(change.detail)}): some "
            "stored values may fail, and the preview counts them."
        )
    if change.kind == "recursive":
        return [], (
            f"{at} holds the same model again: the steps reach only the levels their "
            "paths name, and the preview counts the threads deeper levels fail."
        )
    return [], (
        f"{at} changed from {change.detail[0]} to {change.detail[1]}: no step converts "
        "it; stored values may fail, and the preview counts them."
    )


def _fill(change: Change, candidate: type[BaseModel]) -> tuple[Any, str] | None:
    """The field's old default where the candidate accepts it, else what its schema offers."""
    adapter = field_adapter(candidate, change.path)
    if (
        "default" in change.old
        and fill_value({"const": change.old["default"]}, adapter) is not None
    ):
        return change.old["default"], "its old default"
    return fill_value(change.new, adapter)


def _maps(change: Change) -> list[_Drafted]:
    """One map per member the candidate no longer allows: to the same text in another case;
    else, when exactly one member is gone and one is new, to that one (a rename to confirm);
    else left for the user to answer (the step changes nothing until answered)."""
    old = change.old.get("enum", [change.old.get("const")])
    new = change.new.get("enum", [change.new.get("const")])
    gone = [member for member in old if member not in new]
    cased = {}
    for member in gone:
        same = [other for other in new if _folded(other) == _folded(member)]
        if len(same) == 1 and isinstance(member, str):
            cased[_json(member)] = same[0]
    added = [member for member in new if member not in old]
    drafted: list[_Drafted] = []
    for member in gone:
        said = f"{_json(member)} is no longer allowed at {_at(change.path)}"
        step: dict[str, Any] = {"path": change.path, "action": "map", "from": member}
        if _json(member) in cased:
            step["to"] = cased[_json(member)]
            note = f"{said}: it becomes {_json(step['to'])}, the same text in another case."
        elif len(gone) == 1 and len(added) == 1:  # nothing else changed: a rename
            step["to"] = added[0]
            note = (
                f"{said} and {_json(added[0])} is new: keep this step if it is a rename, else "
                "write what it becomes."
            )
        else:
            step["answer"] = "to"
            note = (
                f"{said}: write what it becomes in `to` and remove `answer` (nothing is "
                "guessed: until then it changes nothing and its threads stay broken)."
            )
        drafted.append((step, note, _json(member) not in cased))
    return drafted


def _member_texts(
    change: Change, model: type[BaseModel], candidate: type[BaseModel]
) -> list[_Drafted]:
    """A map from each kept value to itself where the field held an Enum class whose stored
    members the candidate refuses although it accepts their values.

    LangGraph's serializer stores an Enum member as its class and value and gives the member
    back while the class can be imported (the text only once it cannot): a member of a `str`
    or `int` Enum is that text or number, so a Literal of the same values accepts it as it
    is; a plain Enum's member is not, and is refused. The map matches the member as stored
    and writes its text, which the candidate accepts whether the class stays or goes.
    """
    old = change.old.get("enum", [change.old.get("const")])
    new = change.new.get("enum", [change.new.get("const")])
    adapters = field_adapter(model, change.path), field_adapter(candidate, change.path)
    if adapters[0] is None or adapters[1] is None:
        return []
    depth = _trailing(change.path)
    drafted: list[_Drafted] = []
    for member in old:
        if member not in new or not _refused_as_stored(member, depth, *adapters):
            continue
        note = (
            f"{_json(member)} at {_at(change.path)} is stored as a member of an Enum class, "
            "which the candidate refuses though it accepts the value: the map writes its text."
        )
        step = {"path": change.path, "action": "map", "from": member, "to": member}
        drafted.append((step, note, False))
    return drafted


def _trailing(path: str) -> int:
    count = 0
    while path.endswith("[*]"):
        path, count = path.removesuffix("[*]"), count + 1
    return count


def _refused_as_stored(value: Any, depth: int, old: Any, new: Any) -> bool:
    """Whether the candidate (`new`) refuses `value` decoded as the model (`old`) holds it,
    but accepts the value itself; `depth` lists around it (the path's trailing `[*]`)."""
    for _ in range(depth):
        value = [value]
    try:
        stored = old.validate_python(value)
    except ValidationError:
        return False
    return not _accepts(new, stored) and _accepts(new, value)


def _accepts(adapter: Any, value: Any) -> bool:
    try:
        adapter.validate_python(value)
    except ValidationError:
        return False
    return True


def _folded(value: Any) -> str | None:
    return value.casefold() if isinstance(value, str) else None


def _at(path: str) -> str:
    return f"`{path}`" if path else "the state"


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
