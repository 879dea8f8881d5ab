"""What stopped a traced run: LangGraph's exception, classified and blamed on the writer."""

from __future__ import annotations

import re
from dataclasses import dataclass

from langgraph.errors import GraphRecursionError, InvalidUpdateError
from pydantic import ValidationError

from core.trace_steps import Step, TraceTimeout

__all__ = ["TraceError", "trace_error"]

_NAMED = re.compile(r"^(Before|During) task with name '([^']*)'")


@dataclass(frozen=True)
class TraceError:
    """What stopped the run (code: node_error, input_invalid, concurrent_update, ...)."""

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
    def headline(self) -> str:
        """The message's first line ("" for an exception raised without one, as `assert`)."""
        return next(iter(self.message.splitlines()), "")


def trace_error(exc: BaseException, steps: list[Step], step: int) -> TraceError:
    """Classify `exc` (node_error, input_invalid, concurrent_update, ...) and name its writers."""
    named = next(filter(None, map(_NAMED.match, getattr(exc, "__notes__", []))), None)
    code, node, fields = "graph_error", named.group(2) if named else "", set()
    if isinstance(exc, TraceTimeout | GraphRecursionError):
        code = TraceTimeout.code if isinstance(exc, TraceTimeout) else "recursion_limit"
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
