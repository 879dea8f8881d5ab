"""One entry of a LangGraph server's thread history, read whatever its shape: its checkpoint
id, parent, step, source, time and values, or a coded reason it cannot be read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from core.errors import ErrorCode
from core.stores.decode.rows import Unreadable
from core.words import article

__all__ = [
    "ServerEntry",
    "checkpoint_id_of",
    "json_kind",
    "not_a_thread",
    "read_entry",
    "source_of",
    "step_at",
]


def json_kind(value: Any) -> str:
    """What a value the server answered is, in JSON's words (it answers JSON, not Python).

    Example:
        >>> [json_kind(v) for v in [None, "x", [1], {}, 2.5, True, False]]
        ['null', 'text', 'a list', 'an object', 'a number', 'true', 'false']
    """
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return "text"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a number" if isinstance(value, int | float) else article(type(value).__name__)


def not_a_thread(thread_id: str, answer: Any) -> Unreadable:
    """The audit's row for an answer in a thread's place that is not an object.

    Example:
        >>> not_a_thread("", ["a"]).message
        'The server answered a list where a thread belongs.'
    """
    said = f"The server answered {json_kind(answer)} where a thread belongs."
    return Unreadable(thread_id, "", None, ErrorCode.ROW_NOT_A_CHECKPOINT, said)


def _object_or_none(value: Any) -> Any:
    """Keeps an object; anything else (None, a list, text) is read as absent."""
    return value if isinstance(value, dict) else None


def _list_or_empty(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else []


def _parent_id(value: Any) -> str | None:
    """A parent reference's checkpoint id when it names one as text; anything else (no
    parent, `{}`, a null or numeric id): None, the entry read without its parent."""
    found = value.get("checkpoint_id") if isinstance(value, dict) else None
    return found if isinstance(found, str) and found else None


class _Ref(BaseModel):
    """A checkpoint reference: its id is the one part every reader needs."""

    model_config = ConfigDict(extra="ignore")

    checkpoint_id: str = Field(min_length=1)


class _Entry(BaseModel):
    """A state as get_history and get_state give it; the parts a reader can do without are
    read as absent when oddly shaped, the checkpoint and its metadata are checked."""

    model_config = ConfigDict(extra="ignore")

    checkpoint: _Ref
    parent_checkpoint: Annotated[str | None, BeforeValidator(_parent_id)] = None
    metadata: dict[str, Any] | None = None
    values: Any = None
    next: Annotated[list[Any], BeforeValidator(_list_or_empty)] = []
    tasks: Annotated[list[Any], BeforeValidator(_list_or_empty)] = []
    interrupts: Annotated[list[Any], BeforeValidator(_list_or_empty)] = []
    created_at: Any = None


@dataclass(frozen=True)
class ServerEntry:
    """One history entry as the Threads page reads it. `state` is the entry with its odd
    parts made plain (a dict always); `problem` says, coded, why it cannot be validated."""

    checkpoint_id: str  # "" when the server names none
    parent_id: str | None
    step: int | None
    source: str
    created_at: Any
    values: dict[str, Any]  # the raw values when an object, else {}
    state: dict[str, Any] = field(repr=False)
    problem: Unreadable | None = None


def checkpoint_id_of(state: Any) -> str:
    """The checkpoint id a server's state names; "" when the answer names none as text.

    Example:
        >>> [checkpoint_id_of(s) for s in [{"checkpoint": {"checkpoint_id": "c1"}},
        ...  {"checkpoint": "x"}, None, [], {"checkpoint": {"checkpoint_id": None}},
        ...  {"checkpoint": {"checkpoint_id": 5}}]]
        ['c1', '', '', '', '', '']
    """
    checkpoint = state.get("checkpoint") if isinstance(state, dict) else None
    found = checkpoint.get("checkpoint_id") if isinstance(checkpoint, dict) else None
    return found if isinstance(found, str) else ""


def step_at(state: Any) -> int | None:
    """The step a state's metadata names; None when the answer is not shaped so.

    Example:
        >>> [step_at(s) for s in [{"metadata": {"step": 2}}, {"metadata": "m"}, None, []]]
        [2, None, None, None]
    """
    metadata = state.get("metadata") if isinstance(state, dict) else None
    step = metadata.get("step") if isinstance(metadata, dict) else None
    return step if isinstance(step, int) and not isinstance(step, bool) else None


def source_of(state: Any) -> str:
    """The source a state's metadata names ("input", "loop", "update", "fork"); "" when the
    answer is not shaped so.

    Example:
        >>> [source_of(s) for s in [{"metadata": {"source": "loop"}}, {"metadata": []}, None]]
        ['loop', '', '']
    """
    metadata = state.get("metadata") if isinstance(state, dict) else None
    source = metadata.get("source") if isinstance(metadata, dict) else None
    return source if isinstance(source, str) else ""


def _refused(raw: Any, thread_id: str, code: ErrorCode, message: str) -> ServerEntry:
    state = raw if isinstance(raw, dict) else {}
    checkpoint_id = checkpoint_id_of(state)
    unreadable = Unreadable(thread_id, checkpoint_id, None, code, message)
    return ServerEntry(checkpoint_id, None, None, "", state.get("created_at"), {}, {}, unreadable)


def _unplaced(loc: tuple[Any, ...], kind: str, found: Any) -> str:
    """Why the entry cannot be placed, said of the part that fails (`loc`, Pydantic's)."""
    if kind == "missing":
        return "it names no checkpoint" if len(loc) == 1 else "its checkpoint names no id"
    if loc == ("metadata",):
        return f"its metadata is {json_kind(found)}, not an object"
    if loc == ("checkpoint",):
        return f"its checkpoint is {json_kind(found)}, not an object"
    if found == "":
        return "its checkpoint id is empty"
    return f"its checkpoint id is {json_kind(found)}, not text"


def read_entry(raw: Any, thread_id: str) -> ServerEntry:
    """`raw`, one state of the server's answer, read for the timeline: an entry that cannot
    be placed (not an object, no checkpoint id) or whose metadata is not an object is kept
    with a coded `problem`, never raised; values that are not an object are kept for the
    model to judge (its errors say what they are); None values: a coded problem.

    Example:
        >>> entry = read_entry({"checkpoint": {"checkpoint_id": "c2"}, "metadata": None,
        ...                     "values": {"a": 1}, "next": "x"}, "t")
        >>> (entry.checkpoint_id, entry.step, entry.source, entry.values, entry.problem)
        ('c2', None, '', {'a': 1}, None)
        >>> print(read_entry([1], "t").problem.message)
        The server's history holds a list where a checkpoint's state belongs.
    """
    if not isinstance(raw, dict):
        return _refused(raw, thread_id, ErrorCode.ROW_NOT_A_CHECKPOINT,
                        f"The server's history holds {json_kind(raw)} where a checkpoint's "
                        "state belongs.")  # fmt: skip
    try:
        entry = _Entry.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        code = ErrorCode.ROW_BAD_METADATA if first["loc"][0] == "metadata" else None
        said = _unplaced(tuple(first["loc"]), first["type"], first["input"])
        return _refused(
            raw, thread_id, code or ErrorCode.ROW_NOT_A_CHECKPOINT,
            f"The server's checkpoint state cannot be read: {said}.",
        )  # fmt: skip
    state = {**raw, **entry.model_dump(include={"next", "tasks", "interrupts"}),
             "metadata": entry.metadata or {}}  # fmt: skip
    problem = None
    if entry.values is None:
        problem = Unreadable(
            thread_id, entry.checkpoint.checkpoint_id, step_at(state),
            ErrorCode.ROW_MISSING_VALUE, "The server gives no values for this checkpoint.",
        )  # fmt: skip
    return ServerEntry(
        checkpoint_id=entry.checkpoint.checkpoint_id,
        parent_id=entry.parent_checkpoint,
        step=step_at(state),
        source=source_of(state),
        created_at=entry.created_at,
        values=entry.values if isinstance(entry.values, dict) else {},
        state=state,
        problem=problem,
    )
