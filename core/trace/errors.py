"""What stopped a traced run: LangGraph's exception, classified and blamed on the writer."""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph.errors import EmptyInputError, GraphRecursionError, InvalidUpdateError
from pydantic import ValidationError

from core.trace.steps import Step, TraceTimeout

__all__ = ["TraceError", "explain_run_error", "trace_error"]

# The error code LangGraph ends this message with (its troubleshooting link): the first line
# quotes the value, which may be the user's payload, so only the last line is read.
_NOT_A_DICT = "INVALID_GRAPH_NODE_RETURN_VALUE"
_NAMED = re.compile(r"^(Before|During) task with name '([^']*)'")


@dataclass(frozen=True)
class TraceError:
    """What stopped the run (code: node_error, input_invalid, input_not_object,
    concurrent_update, invalid_update, ...)."""

    code: str
    step: int
    node: str  # the node LangGraph's own error names ("" when it names none)
    writers: str  # the node(s) whose writes caused it, read from the checkpoint
    type: str
    message: str

    def __str__(self) -> str:
        where = f"step {self.step}" + (f", node {self.node}" if self.node else "")
        blame = (
            f" (written by {self.writers})" if self.writers and self.writers != self.node else ""
        )
        return f"[{self.code}] {where}{blame}: {self.type}: {self.headline}"

    @property
    def hint(self) -> str | None:
        """Advice when a node's own exception says the graph expected config or context.

        Only for node errors, read off the exception's type and first line: other errors
        (LangGraph refusing the input, say) quote the payload, whose words must not pick a hint.
        """
        return (
            explain_run_error(f"{self.type}: {self.headline}")
            if self.code == "node_error"
            else None
        )

    @property
    def headline(self) -> str:
        """The message's first line ("" for an exception raised without one, as `assert`)."""
        return next(iter(self.message.splitlines()), "")


def _returned_no_dict(exc: BaseException) -> bool:
    return isinstance(exc, InvalidUpdateError) and str(exc).rstrip().endswith(_NOT_A_DICT)


def trace_error(exc: BaseException, steps: list[Step], step: int) -> TraceError:
    """Classify `exc` (node_error, input_invalid, concurrent_update, ...) and name its writers."""
    named = next(filter(None, map(_NAMED.match, getattr(exc, "__notes__", []))), None)
    code, node, fields = "graph_error", named.group(2) if named else "", set()
    if isinstance(exc, TraceTimeout | GraphRecursionError):
        code = TraceTimeout.code if isinstance(exc, TraceTimeout) else "recursion_limit"
    elif isinstance(exc, EmptyInputError) or _returned_no_dict(exc):  # "Expected dict, got [1]"
        code = "input_not_object" if node in ("", "__start__") else "invalid_update"
    elif isinstance(exc, InvalidUpdateError):
        code, fields = "concurrent_update", set(re.findall(r"At key '([^']*)'", str(exc)))
    elif named and named.group(1) == "Before":
        code = "input_invalid"  # LangGraph names the reader; the writer is an earlier node
        if isinstance(exc, ValidationError):
            fields = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
    elif named:
        code = "node_error"
    writers = [s for s in steps if fields & set(s.changed)]
    last = max((s.step for s in writers), default=None)
    names = sorted({s.node for s in writers if s.step == last}) if fields else [node] * bool(node)
    return TraceError(code, step, node, ", ".join(names), type(exc).__name__, str(exc))


def explain_run_error(message: str) -> str | None:
    """A hint when a run failed because the graph expected config, context or a resume.

    Example:
        >>> explain_run_error("KeyError: 'configurable'")[:38]
        'The graph reads config["configurable"]'
    """
    if "configurable" in message or "thread_id" in message:
        return (
            'The graph reads config["configurable"]; the playground passes only a thread_id. '
            "Give the keys defaults in your node, or wrap the graph in a factory that binds them."
        )
    if "context" in message.lower() and "runtime" in message.lower():
        return (
            "The graph reads runtime.context, which the playground does not pass. Give the "
            "context fields defaults, or point --graph at a variant that does not need them."
        )
    return None
