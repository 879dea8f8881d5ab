"""Unbrick a thread: validate an edited state, dry-run it, write it as a new checkpoint."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.channels.binop import BinaryOperatorAggregate
from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import BaseModel
from pydantic_core import to_jsonable_python

from core.errors import CodedError, ErrorCode
from core.order.graph import CompiledGraph
from core.stores.backends.open import open_store
from core.stores.backends.spec import store_label
from core.stores.backends.writable import open_writable
from core.stores.decode.serde import StrictSerializer
from core.stores.threads.timeline import Checkpoint, Timeline
from core.validate.report import Report, validate_value
from core.words import count

__all__ = [
    "WRITES_ENV",
    "UnbrickCode",
    "UnbrickError",
    "UnbrickPlan",
    "plan_unbrick",
    "require_writes",
    "writable_saver",
    "write_unbrick",
    "writes_enabled",
]

WRITES_ENV = "PLAYGROUND_STORE_WRITES"


class UnbrickCode(StrEnum):
    """Why an unbrick cannot go ahead (stable codes)."""

    # The values are the registry's (core.errors.ErrorCode).
    WRITES_DISABLED = ErrorCode.STORE_WRITES_DISABLED
    INVALID_EDIT = ErrorCode.UNBRICK_INVALID_EDIT
    NOT_AN_OBJECT = ErrorCode.UNBRICK_NOT_AN_OBJECT
    NOTHING_TO_WRITE = ErrorCode.UNBRICK_NOTHING_TO_WRITE
    NO_FORK_POINT = ErrorCode.UNBRICK_NO_FORK_POINT
    WRITE_FAILED = ErrorCode.STORE_WRITE_FAILED


class UnbrickError(CodedError):
    """An unbrick refused; `code` is stable, `message` says what to do."""

    def __init__(self, code: UnbrickCode, message: str) -> None:
        super().__init__(ErrorCode(code), message)
        self.code = code  # the unbrick's own member (UnbrickCode.INVALID_EDIT), same value


def writes_enabled() -> bool:
    """True only when the server was started with `PLAYGROUND_STORE_WRITES=1`.

    Example:
        >>> import os; os.environ.pop("PLAYGROUND_STORE_WRITES", None) and None
        >>> writes_enabled()
        False
    """
    return os.environ.get(WRITES_ENV, "").strip() == "1"


@dataclass(frozen=True)
class UnbrickPlan:
    """Exactly what `write_unbrick` will write: on which checkpoint, as which node, what."""

    thread_id: str
    checkpoint_id: str  # the checkpoint the new one forks from (the last valid one)
    as_node: str | None
    values: dict[str, Any]  # channel -> value written (reducer channels: replaced whole)
    replaced: tuple[str, ...]  # channels with a reducer, written as Overwrite
    report: Report  # the edited state validated with the model

    def dry_run(self) -> dict[str, Any]:
        """The plan as plain data, the same that is written."""
        return {
            "thread_id": self.thread_id,
            "fork_from_checkpoint": self.checkpoint_id,
            "as_node": self.as_node,
            "values": self.values,
            "replaced_whole (reducer bypassed with Overwrite)": list(self.replaced),
        }


def plan_unbrick(
    timeline: Timeline,
    edited: Any,
    model: type[BaseModel],
    graph: CompiledGraph,
    *,
    as_node: str | None = None,
) -> UnbrickPlan:
    """Validate `edited` (the whole state, a dict) and plan the write that makes it the state.

    The new checkpoint forks from the last valid checkpoint (the blamed one's parent; the
    latest when the thread is valid), written as the blamed node. Only the fields that
    differ from that checkpoint's state are written. A field
    with a reducer (`operator.add`, `add_messages`) would merge, not replace: it is written
    as LangGraph's `Overwrite`. `as_node` defaults to the node blamed for the break (so the
    graph continues with that node's successors), else the latest writer.
    Raises `UnbrickError` when the edit is not an object, is invalid, or changes nothing.
    """
    if not isinstance(edited, dict):
        raise UnbrickError(UnbrickCode.NOT_AN_OBJECT, "the edited state must be a JSON object.")
    report = validate_value(edited, model)
    if not report.ok:
        found = len(report.errors)
        raise UnbrickError(
            UnbrickCode.INVALID_EDIT,
            f"the edited state still has {count(found, 'error')} under the model; fix "
            f"{'it' if found == 1 else 'them'}, then dry-run again.",
        )
    base, node = _fork_point(timeline)
    current = base.state if isinstance(base.state, dict) else {}
    changed = {
        k: v
        for k, v in edited.items()
        if k not in current or to_jsonable_python(current[k]) != to_jsonable_python(v)
    }
    if not changed:
        raise UnbrickError(
            UnbrickCode.NOTHING_TO_WRITE, "the edit equals the stored state; change a field."
        )
    channels = graph.channels
    replaced = tuple(k for k in changed if isinstance(channels.get(k), BinaryOperatorAggregate))
    node = as_node or node
    if node and "," in node:  # several nodes wrote in that step: any one of them continues
        node = node.split(",")[0].strip()
    return UnbrickPlan(timeline.thread_id, base.checkpoint_id, node, changed, replaced, report)


def _fork_point(timeline: Timeline) -> tuple[Checkpoint, str | None]:
    """The checkpoint to fork from and the node to write as.

    LangGraph's `update_state` builds the state of the checkpoint it starts from (to find
    the tasks due there), so on a broken checkpoint it raises the very ValidationError it
    should fix. The fork starts from the last valid checkpoint, the blamed one's parent,
    and writes as the blamed node: the broken step replayed with a corrected write.
    """
    blamed = timeline.blamed
    if blamed is None:
        latest = timeline.checkpoints[-1]
        return latest, latest.node
    base = next((c for c in timeline.checkpoints if c.checkpoint_id == blamed.parent_id), None)
    if base is None or blamed.source == "input":
        raise UnbrickError(
            UnbrickCode.NO_FORK_POINT,
            "the thread's input itself is invalid, so no valid checkpoint precedes it; "
            "start a new thread with a corrected input.",
        )
    return base, blamed.node


def require_writes(spec: str) -> None:
    """Refuse (`store_writes_disabled`) unless the server enables writes."""
    if not writes_enabled():
        raise UnbrickError(
            UnbrickCode.WRITES_DISABLED,
            f"writes to {store_label(spec)} are off; start the server with {WRITES_ENV}=1 "
            "to unbrick threads.",
        )


@contextmanager
def writable_saver(spec: str, serde: StrictSerializer) -> Iterator[BaseCheckpointSaver[Any]]:
    """LangGraph's saver on `spec` with writes allowed (`open_writable`); refused unless
    `writes_enabled()`. It reads through `serde` (the strict allow-list), so writing never
    deserializes with LangGraph's defaults.
    """
    require_writes(spec)
    with open_writable(spec, serde) as saver:
        yield saver


def write_unbrick(
    spec: str, plan: UnbrickPlan, graph: CompiledGraph, serde: StrictSerializer
) -> RunnableConfig:
    """Write `plan` through `graph.update_state` on `spec`; returns the new checkpoint's config.

    A fork (`Backend.write_fork`): the new checkpoint is a child of `plan.checkpoint_id`; no
    row is changed or deleted. Refused unless the server enables writes
    (`PLAYGROUND_STORE_WRITES=1`). (Any store, a LangGraph server too: `write.fork.write_fork`.)
    """
    require_writes(spec)
    with open_store(spec, serde) as store:
        return store.write_fork(plan.thread_id, plan.checkpoint_id, plan.values, plan.as_node,
                                replaced=plan.replaced, graph=graph)  # fmt: skip
