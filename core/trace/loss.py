"""Silent losses in a recorded run: a reducer bypassed with `Overwrite`, a key LangGraph dropped.

LangGraph raises on neither and its streams say nothing: an `Overwrite` write replaces the
channel's value instead of going through its reducer (`operator.add` appends, so what the
channel held is gone), and a key the state does not declare is discarded from the node's
update before any stream sees it. Both are read off the run `core.trace` recorded: the node's
own return value (LangGraph's callback), the reducer each write got, and the channel values of
the checkpoints before and after the step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from core.jsontext.write import clip
from core.trace.reducers import DROPPED, OVERWRITE, dump_json, graph_reducers
from core.trace.run import Step, Trace

__all__ = ["Loss", "losses", "row_losses"]

# A fork's first row writes the user's edit with Overwrite on purpose (core.trace.fork): an
# edit, not a node, so nothing is lost behind anyone's back.
_EDIT = "update_state"


@dataclass(frozen=True)
class Loss:
    """One field of one row whose write LangGraph merged by losing data.

    `kind` "overwrite": the node's `Overwrite` bypassed the channel's reducer `bypassed`;
    `was` is the field's value before the step, `remains` after it, `lost` the entries of
    `was` that `remains` no longer holds. `kind` "dropped": the field is not a state channel;
    `was` is the value the node returned for it, `remains` None (the state has no such key),
    `lost` that value.
    """

    index: int  # the row in trace.steps
    step: int
    node: str
    field: str
    kind: Literal["overwrite", "dropped"]
    bypassed: str  # the reducer the Overwrite went around ("" for a dropped key)
    was: Any
    remains: Any
    lost: list[Any]

    @property
    def who(self) -> str:
        """The writer as a sentence names it (`__start__` is the graph's input, not a node)."""
        return "the input" if self.node == "__start__" else self.node

    def summary(self, limit: int | None = None) -> str:
        """What happened, in one clause (values cut at `limit` characters when given).

        Example:
            >>> print(Loss(2, 2, "confirm", "logs", "overwrite", "operator.add", ["a"], ["b"],
            ...            ["a"]).summary())
            confirm's Overwrite replaced logs, bypassing operator.add (it held ["a"], now ["b"])
        """
        if self.kind == "overwrite":
            return (
                f"{self.who}'s Overwrite replaced {self.field}, bypassing {self.bypassed} "
                f"(it held {_text(self.was, limit)}, now {_text(self.remains, limit)})"
            )
        verb = "had" if self.node == "__start__" else "returned"
        return (
            f"{self.who} {verb} {self.field}={_text(self.was, limit)}, a key the state does "
            "not declare, and LangGraph discarded it"
        )

    def why(self) -> str:
        """The merge view's note: what was there, what remains, what is gone.

        Example:
            >>> print(Loss(1, 1, "validate_order", "totl", "dropped", "", 1, None, [1]).why())
            not a state field: LangGraph discarded the write. Was there: 1, in the node's update. \
Remains: nothing (the state has no totl).
        """
        if self.kind == "overwrite":
            return (
                f"Overwrite bypassed {self.bypassed}. Was there: {dump_json(self.was)}. "
                f"Remains: {dump_json(self.remains)}. Lost: "
                + ", ".join(dump_json(item) for item in self.lost)
                + "."
            )
        source = "the input" if self.node == "__start__" else "the node's update"
        return (
            f"not a state field: LangGraph discarded the write. Was there: {dump_json(self.was)}, "
            f"in {source}. Remains: nothing (the state has no {self.field})."
        )


def losses(trace: Trace) -> list[Loss]:
    """Every silent loss of the run, in row order (rows LangGraph never merged lose nothing).

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> from core.trace import run_trace
        >>> [(loss.step, loss.node, loss.field, loss.kind, loss.was, loss.remains)
        ...  for loss in losses(run_trace(build_order_graph(["overwrite_logs"]), SEED_PAYLOAD))]
        [(2, 'confirm', 'logs', 'overwrite', ['amount=99.0 items=1'], ['confirmed'])]
    """
    return [loss for index in range(len(trace.steps)) for loss in row_losses(trace, index)]


def row_losses(trace: Trace, index: int) -> list[Loss]:
    """The silent losses of row `index`, in the order its fields were written."""
    step = trace.steps[index]
    if not step.committed or (step.node == _EDIT and step.input is None):
        return []
    out = []
    for name, reducer in step.reducers.items():
        if reducer == DROPPED:
            written = step.update.get(name) if isinstance(step.update, dict) else None
            out.append(_loss(step, index, name, "dropped", "", written, None, [written]))
        elif reducer == OVERWRITE and name in step.before:
            was, remains = step.before[name], step.state.get(name)
            gone = _gone(was, remains)
            if gone:
                bypassed = _bypassed(trace, name)
                out.append(_loss(step, index, name, "overwrite", bypassed, was, remains, gone))
    return out


def _loss(step: Step, index: int, name: str, *fields: Any) -> Loss:
    return Loss(index, step.step, step.node, name, *fields)


def _gone(was: Any, remains: Any) -> list[Any]:
    """The entries of `was` that `remains` lacks (a list's, each counted); a whole other value
    when they are not lists."""
    if isinstance(was, list) and isinstance(remains, list):
        left, gone = list(remains), []
        for item in was:
            if item in left:
                left.remove(item)
            else:
                gone.append(item)
        return gone
    return [] if was == remains else [was]


def _bypassed(trace: Trace, name: str) -> str:
    # The channel's own reducer, as the graph compiled it (read once per loss: losses are few).
    return graph_reducers(trace.graph).get(name, "its reducer") if trace.graph else "its reducer"


def _text(value: Any, limit: int | None) -> str:
    text = dump_json(value)
    return text if limit is None else clip(text, limit)
