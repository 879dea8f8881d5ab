"""The stored states as LangGraph's own saver reads them, and a preview worked out from them
by brute force: the candidate validates the state before and after every step."""

from __future__ import annotations

import importlib.util
import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.errors import EmptyChannelError
from pydantic import BaseModel, ValidationError

from core.migrate.apply import apply_step
from core.migrate.plan import Step, parse_plan


def root(thread_id: str, checkpoint_id: str | None = None) -> dict[str, Any]:
    ids = {"thread_id": thread_id, "checkpoint_ns": ""}
    return {"configurable": {**ids, **({"checkpoint_id": checkpoint_id} if checkpoint_id else {})}}


def checkpoint_id(config: Any) -> str:
    return str(config["configurable"]["checkpoint_id"])


def _state(values: dict[str, Any]) -> dict[str, Any]:
    """The state channels: LangGraph's own (`__start__`, `branch:to:x`) left out."""
    return {k: v for k, v in values.items() if not k.startswith("__") and ":" not in k}


def saved_states(
    saver: BaseCheckpointSaver[Any], *, history: bool, graph_for: Callable[[str], Any] | None = None
) -> list[tuple[str, str, dict[str, Any]]]:
    """(thread, checkpoint id, state) of each thread's latest checkpoint (every one with
    `history`), threads in order, newest first. An input checkpoint's state is the one
    LangGraph wrote its input into: its child's, as the thread's graph (`graph_for`) reads
    it: a reducer channel nothing wrote is there, empty, as its channel gives it."""
    threads = sorted({checkpoint["configurable"]["thread_id"] for checkpoint in (
        saved.config for saved in saver.list(None))})  # fmt: skip
    found = []
    for thread in threads:
        tuples = list(saver.list(root(thread)))  # newest first
        children = {checkpoint_id(t.parent_config): t for t in tuples if t.parent_config}
        for saved in tuples if history else tuples[:1]:
            written = saved
            values = _state(written.checkpoint["channel_values"])
            if saved.metadata["source"] == "input":
                written = children[checkpoint_id(saved.config)]
                values = _state(written.checkpoint["channel_values"])
                if graph_for is not None:  # as LangGraph's read_channels gives them
                    channels = graph_for(thread).channels
                    for key in sorted(set(channels) - set(values)):
                        try:
                            values[key] = channels[key].copy().get()
                        except EmptyChannelError:
                            pass
                    values = _state(values)
            found.append((thread, checkpoint_id(saved.config), values))
    return found


def plain(value: Any) -> Any:
    """The state as plain data for the user's models (LangChain's messages kept): a nested
    model instance of the old class would not validate as the candidate's."""
    if isinstance(value, BaseModel) and not type(value).__module__.startswith("langchain_core"):
        return value.model_dump()
    if isinstance(value, dict):
        return {key: plain(inner) for key, inner in value.items()}
    if isinstance(value, list):
        return [plain(inner) for inner in value]
    return value


def candidate_errors(state: Any, candidate: type[BaseModel]) -> list[dict[str, Any]]:
    try:
        candidate.model_validate(plain(state))
    except ValidationError as exc:
        errors: list[dict[str, Any]] = json.loads(exc.json(include_url=False))
        return errors
    return []


def at_step(errors: list[dict[str, Any]], step: Step) -> bool:
    """Whether an error is at (or under) the step's path; a rename's new name counts too."""
    path = step.path.replace("[*]", ".[*]").split(".")
    paths = [path] + ([[*path[:-1], step.to]] if step.action == "rename" else [])
    return any(
        len(error["loc"]) >= len(wanted)
        and all(
            isinstance(part, int) if want == "[*]" else part == want
            for want, part in zip(wanted, error["loc"], strict=False)
        )
        for error in errors
        for wanted in paths
    )


def brute_preview(
    states: list[tuple[str, str, dict[str, Any]]], candidate: type[BaseModel], plan_text: str
) -> dict[str, Any]:
    """`Preview.to_json()` as it must be: each state validated after every step."""
    steps = parse_plan(plan_text).steps
    plan_id = parse_plan(plan_text).id
    counts = [{"plan": plan_id, "path": step.path, "action": step.action, "changed": 0,
               "fixed": 0, "to_answer": not step.answered} for step in steps]  # fmt: skip
    broken_before = fixed = 0
    still_broken = []
    for thread, checkpoint, state in states:
        errors = first = candidate_errors(state, candidate)
        for step, count in zip(steps, counts, strict=True):
            after, changed = apply_step(step, state)
            errors_after = candidate_errors(after, candidate)
            count["changed"] += bool(changed)
            count["fixed"] += at_step(errors, step) and not at_step(errors_after, step)
            state, errors = after, errors_after
        broken_before += bool(first)
        fixed += bool(first) and not errors
        if errors:
            still_broken.append({"thread_id": thread, "checkpoint_id": checkpoint,
                                 "errors": errors})  # fmt: skip
    return {
        "plan": tomllib.loads(plan_text).get("step", []),
        "threads": len({thread for thread, _, _ in states}),
        "checkpoints": len(states),
        "broken_before": broken_before,
        "fixed": fixed,
        "steps": counts,
        "still_broken": still_broken,
        "written": [],
        "unreadable": [],
    }


def import_written(source: str, folder: Path, name: str) -> Any:
    """A written module, imported from its file as a user would (then forgotten)."""
    path = folder / f"{name}.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # as an import does: dataclasses look the module up there
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module
