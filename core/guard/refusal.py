"""The guard's refusal: a state the model rejects, at which step, written by which node(s)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import CodedError, ErrorCode
from core.jsontext.paths import format_path

__all__ = ["MAX_NAMED", "InvalidStateError"]

MAX_NAMED = 3  # errors the message names; the rest are counted


class InvalidStateError(CodedError, ValueError):
    """A state `GuardedSaver` refused to store (code `state_invalid`).

    A ValueError too, as Pydantic's ValidationError is: a LangGraph server reports a run's
    ValueError with its message (any other exception's message it hides).

    `errors` are Pydantic's errors for the state, as the audit reports them (JSON data, each
    input cut); `step` is the step the state would have been stored at; `nodes` are the
    node(s) whose writes made it (empty when no node is known: the input, an update).

    Example:
        >>> row = {"type": "string_type", "loc": ["tags", 1], "input": None,
        ...        "msg": "Input should be a valid string"}
        >>> error = InvalidStateError(
        ...     [row], step=1, nodes=("tag",), model="TaggedState", thread_id="t-1")
        >>> str(error.code), error.step, error.nodes
        ('state_invalid', 1, ('tag',))
        >>> print(error.message)  # doctest: +NORMALIZE_WHITESPACE
        Thread 't-1': the state at step 1 fails TaggedState (tags[1]: Input should be a valid
        string [string_type]), written by tag. Nothing of it was stored: the thread's last valid
        checkpoint stays its head. Fix what tag returns, or write a valid value with
        update_state(config, values, as_node="tag"), then resume.
        >>> print(error.warning)  # doctest: +NORMALIZE_WHITESPACE
        [state_invalid] Thread 't-1': the state at step 1 fails TaggedState (tags[1]: Input
        should be a valid string [string_type]), written by tag. Stored anyway
        (on_invalid="warn"): its errors are in the checkpoint's metadata, under state_errors.
    """

    def __init__(
        self,
        errors: list[dict[str, Any]],
        *,
        step: int | None,
        nodes: Sequence[str],
        model: str,
        thread_id: str,
    ) -> None:
        self.errors = errors
        self.step = step
        self.nodes = tuple(nodes)
        self.model = model
        self.thread_id = thread_id
        super().__init__(ErrorCode.STATE_INVALID, f"{_what(self)} {_refused(self)}")

    @property
    def warning(self) -> str:
        """The line logged for a state stored anyway (`on_invalid="warn"`)."""
        return (
            f'[{self.code}] {_what(self)} Stored anyway (on_invalid="warn"): its errors are in '
            "the checkpoint's metadata, under state_errors."
        )


def _what(error: InvalidStateError) -> str:
    shown = "; ".join(
        f"{format_path(row['loc'])}: {row['msg']} [{row['type']}]"
        for row in error.errors[:MAX_NAMED]
    )
    more = len(error.errors) - MAX_NAMED
    if more > 0:
        shown += f"; and {more} more"
    at = "" if error.step is None else f" at step {error.step}"
    by = f", written by {', '.join(error.nodes)}" if error.nodes else ""
    return f"Thread {error.thread_id!r}: the state{at} fails {error.model} ({shown}){by}."


def _refused(error: InvalidStateError) -> str:
    fix = (
        f"Fix what {error.nodes[0]} returns, or write a valid value with update_state(config, "
        f'values, as_node="{error.nodes[0]}"), then resume.'
        if len(error.nodes) == 1
        else "Fix the write, or write a valid value with update_state, then resume."
    )
    return "Nothing of it was stored: the thread's last valid checkpoint stays its head. " + fix
