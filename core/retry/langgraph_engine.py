"""The retry loop as a LangGraph StateGraph: generate -> validate -> feedback -> retry or end."""

from __future__ import annotations

import operator
from dataclasses import replace
from typing import Annotated, Any

from langchain_core.messages import AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from core.jsontext.write import dumps
from core.order.graph import CompiledGraph
from core.retry import timeline
from core.retry.answer import full_errors
from core.retry.lg_messages import (
    feedback_message,
    last_turn,
    message_dict,
    model_turn,
    raw_output,
    returned,
)
from core.retry.script import MAX_CALLS, QUESTION, SYSTEM_PROMPT, search, turn_at
from core.retry.timeline import Attempt, RetryRun, RunError, left_out
from core.trace import run_trace
from core.words import count

__all__ = [
    "RECURSION_LIMIT",
    "RetryLoopState",
    "build_retry_graph",
    "run_with_langgraph",
]

# At most three nodes per model call (generate, validate, feedback) plus the entry.
RECURSION_LIMIT = 3 * MAX_CALLS + 5
_SENT_KEYS = ("type", "loc", "msg", "input")


class RetryLoopState(BaseModel):
    """The loop's state; `attempts` and `logs` accumulate, everything else is last-write."""

    messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)
    attempts: Annotated[list[dict[str, Any]], operator.add] = Field(default_factory=list)
    logs: Annotated[list[str], operator.add] = Field(default_factory=list)
    status: str = "start"
    calls: int = 0
    # Two counters because PydanticAI keeps two: the output tool's own retries and the run's.
    tool_retries: int = 0
    output_retries: int = 0
    retries_left: int = 0
    errors: list[dict[str, Any]] = Field(default_factory=list)
    output: dict[str, Any] | None = None
    error: dict[str, str] | None = None


def build_retry_graph(
    script: list[dict[str, Any]], *, retries: int, model: type[BaseModel]
) -> CompiledGraph:
    """Compile the loop for one script, budget and output model.

    Example:
        >>> from core.retry.answer import Answer
        >>> sorted(build_retry_graph([{"text": "x"}], retries=1, model=Answer).nodes)
        ['__start__', 'feedback', 'generate', 'search', 'validate']
    """

    def generate(state: RetryLoopState) -> dict[str, Any]:
        if state.calls >= MAX_CALLS:
            message = f"The next request would exceed the request_limit of {MAX_CALLS}"
            return {"status": "stopped", "error": {"type": "CallLimitExceeded", "message": message}}
        number = state.calls + 1
        return {
            "messages": [model_turn(turn_at(script, state.calls), number)],
            "calls": number,
            "status": "generated",
            "logs": [f"call {number}"],
        }

    def run_search(state: RetryLoopState) -> dict[str, Any]:
        call = last_turn(state.messages).tool_calls[0]
        content = dumps(search(**call["args"]), compact=True)
        reply = ToolMessage(
            content, tool_call_id=call["id"], name="search", id=f"tool-{state.calls}"
        )
        part = "ToolMessage (name=search, status=success)"
        row = Attempt(
            state.calls,
            returned(last_turn(state.messages)),
            timeline.VERDICT_TOOL,
            sent_back=content,
            part=part,
            retries_left=state.retries_left,
        )
        return {"messages": [reply], "attempts": [row.to_row()], "status": "searched"}

    def validate(state: RetryLoopState) -> dict[str, Any]:
        raw, is_text = raw_output(last_turn(state.messages))
        errors = full_errors(model, raw, as_json_text=is_text)
        if errors:
            return {"errors": errors, "status": "invalid", "logs": [count(len(errors), "error")]}
        value = model.model_validate_json(raw) if is_text else model.model_validate(raw)
        row = Attempt(
            state.calls,
            returned(last_turn(state.messages)),
            timeline.VERDICT_VALID,
            retries_left=state.retries_left,
        )
        return {
            "errors": [],
            "output": value.model_dump(mode="json"),
            "status": "valid",
            "attempts": [row.to_row()],
        }

    def feedback(state: RetryLoopState) -> dict[str, Any]:
        last = last_turn(state.messages)
        sent = [{k: e[k] for k in _SENT_KEYS if k in e} for e in state.errors]
        # PydanticAI charges an output-tool call to that tool's budget and plain text to the
        # run's; both count towards the run's, which is checked on the text path only.
        used = {"output_retries": state.output_retries + 1}
        if last.tool_calls:
            used["tool_retries"] = state.tool_retries + 1
        left = retries - used.get("tool_retries", used["output_retries"])
        row = Attempt(
            state.calls,
            returned(last),
            timeline.VERDICT_RETRY,
            dumps(sent, default=str),
            left_out=left_out(sent, state.errors),
            retries_left=max(left, 0),
        )
        if left < 0:
            message = f"Exceeded maximum output retries ({retries})"
            row = replace(row, verdict=timeline.VERDICT_EXHAUSTED)
            return {
                **used,
                "retries_left": 0,
                "status": "exhausted",
                "attempts": [row.to_row()],
                "error": {"type": "OutputRetriesExceeded", "message": message},
            }
        reply, part = feedback_message(last, sent, f"fb-{state.calls}")
        row = replace(row, sent_back=reply.content, part=part)
        return {
            **used,
            "retries_left": left,
            "status": "retrying",
            "messages": [reply],
            "attempts": [row.to_row()],
        }

    graph = StateGraph(RetryLoopState)
    graph.add_node("generate", generate)
    graph.add_node("search", run_search)
    graph.add_node("validate", validate)
    graph.add_node("feedback", feedback)
    graph.add_edge(START, "generate")
    graph.add_conditional_edges("generate", _after_generate, ["search", "validate", END])
    graph.add_edge("search", "generate")
    graph.add_conditional_edges(
        "validate", lambda s: "feedback" if s.errors else END, ["feedback", END]
    )
    graph.add_conditional_edges(
        "feedback", lambda s: END if s.error else "generate", ["generate", END]
    )
    return graph.compile()


def run_with_langgraph(
    script: list[dict[str, Any]], *, retries: int, model: type[BaseModel]
) -> RetryRun:
    """Run `script` through the LangGraph loop; the timeline is what its nodes wrote, and
    `trace` the run as the Trace page records it.

    Example:
        >>> from core.retry.answer import Answer
        >>> run = run_with_langgraph([{"answer": {"answer": "x"}}], retries=1, model=Answer)
        >>> run.calls, len(run.trace.steps) > 0
        (2, True)
    """
    graph = build_retry_graph(script, retries=retries, model=model)
    start = {
        "messages": [
            SystemMessage(SYSTEM_PROMPT, id="system"),
            HumanMessage(QUESTION, id="user"),
        ],
        "retries_left": retries,
    }
    # One real run, recorded step by step by the Trace page's machinery (its own checkpointer).
    trace = run_trace(graph, start, recursion_limit=RECURSION_LIMIT)
    final = trace.output or {}
    error = final.get("error")
    if trace.error is not None:
        error = {"type": trace.error.type, "message": trace.error.message}
    return RetryRun(
        engine="langgraph",
        retries=retries,
        calls=final.get("calls", 0),
        attempts=[Attempt(**row) for row in final.get("attempts", [])],
        output=None if final.get("output") is None else model.model_validate(final["output"]),
        error=RunError(error["type"], error["message"]) if error else None,
        messages=[message_dict(m) for m in final.get("messages", [])],
        trace=trace,
    )


def _after_generate(state: RetryLoopState) -> str:
    if state.error:
        return END
    calls = last_turn(state.messages).tool_calls
    return "search" if calls and calls[0]["name"] == "search" else "validate"
