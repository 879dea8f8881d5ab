"""The Trace page's run through the guard: where `GuardedSaver` stops it, and the thread read
back afterwards."""

from __future__ import annotations

from dataclasses import dataclass

from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.guard.refusal import InvalidStateError
from core.guard.saver import GuardedSaver
from core.order.graph import CompiledGraph
from core.trace.from_text import TextRun
from core.trace.run import Trace
from core.validate.run_saver import run_saver

__all__ = ["GuardedRun", "HistoryRead", "guarded_run", "guarded_saver", "read_history"]

_THREAD = "trace"  # the thread run_trace runs on


@dataclass(frozen=True)
class HistoryRead:
    """The run's thread read back with `get_state_history` through the guarded saver: how
    many checkpoints it gave (oldest step first), or what it raised."""

    checkpoints: int
    steps: tuple[int, ...]
    error: str | None = None

    @property
    def readable(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class GuardedRun:
    """A Trace page run through `GuardedSaver(run_saver(graph), model)`: the run, the guard's
    newest refusal (None: it stored every state) and the thread read back after it."""

    run: TextRun
    refusal: InvalidStateError | None = None
    history: HistoryRead | None = None  # None: nothing ran (JSON error, our gate refused)


def guarded_saver(graph: CompiledGraph, model: type[BaseModel] | None) -> GuardedSaver:
    """The run's own saver (`run_saver`) inside a guard raising on a state `model` rejects.

    Raises `CodedError` (guard_option) when the graph's state has no Pydantic model to check.

    Example:
        >>> from core.order import AgentState, build_order_graph
        >>> guarded_saver(build_order_graph(), AgentState).on_invalid
        'raise'
    """
    if model is None:
        raise CodedError(
            ErrorCode.GUARD_OPTION,
            "The guard checks each state against a Pydantic model, and this graph's state has "
            "none: give its StateGraph a Pydantic state schema (or name your model), or turn "
            "the Guard switch off.",
        )
    return GuardedSaver(run_saver(graph), model)


def read_history(graph: CompiledGraph, thread_id: str = _THREAD) -> HistoryRead:
    """`graph.get_state_history` of the thread, as a production caller would read it after the
    run (LangGraph builds each state with the model: a stored bad state makes it raise).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from langgraph.checkpoint.memory import InMemorySaver
        >>> graph = build_order_graph().copy(update={"checkpointer": InMemorySaver()})
        >>> _ = graph.invoke(SEED_PAYLOAD, {"configurable": {"thread_id": "trace"}})
        >>> read_history(graph)
        HistoryRead(checkpoints=4, steps=(-1, 0, 1, 2), error=None)
    """
    config: RunnableConfig = {"configurable": {"thread_id": thread_id}}
    try:
        states = list(graph.get_state_history(config))
    except Exception as error:  # noqa: BLE001 - what a caller would get: shown, not raised
        headline = next(iter(str(error).splitlines()), "")
        return HistoryRead(0, (), f"{type(error).__name__}: {headline}")
    steps = tuple(sorted(state.metadata["step"] for state in states if state.metadata))
    return HistoryRead(len(states), steps)


def guarded_run(run: TextRun) -> GuardedRun:
    """What the guard did with a run `trace_text(..., checkpointer=guarded_saver)` made: where
    it refused (its `InvalidStateError`, also when LangGraph raised its own error first and
    dropped the save's) and the thread read back.

    Example:
        >>> import json
        >>> from core.order import SEED_PAYLOAD
        >>> from core.trace.from_text import trace_text
        >>> run = trace_text(json.dumps(SEED_PAYLOAD), graph="seed",
        ...                  faults=["negative_amount"], checkpointer=guarded_saver)
        >>> guarded = guarded_run(run)
        >>> guarded.refusal.step, guarded.refusal.nodes, guarded.history
        (1, ('validate_order',), HistoryRead(checkpoints=2, steps=(-1, 0), error=None))
    """
    if run.trace is None:  # the text is not JSON: nothing ran
        return GuardedRun(run)
    return GuardedRun(run, *_guard_outcome(run.trace))


def _guard_outcome(trace: Trace) -> tuple[InvalidStateError | None, HistoryRead | None]:
    if not trace.ran or trace.graph is None:
        return None, None
    saver = trace.graph.checkpointer
    refusal = saver.last_refusal if isinstance(saver, GuardedSaver) else None
    return refusal, read_history(trace.graph)
