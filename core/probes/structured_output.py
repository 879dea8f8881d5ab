"""Probes of PydanticAI's structured output: the hidden output tool, retries, their limit.

Each run is a real `Agent(output_type=...)` driven by a `FunctionModel` (no network, no key).
pydantic_ai is imported with the family (by `registry()`, as the other families import
LangGraph), so a probe's time is its run, not the import.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field
from pydantic_ai import Agent, capture_run_messages
from pydantic_ai.exceptions import AgentRunError
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from core.probes._model import ARTICLE_OUTPUT, OUTPUT_PACKAGES, Check, article_probe, describe
from core.words import count

__all__ = ["PROBES"]


class _Citation(BaseModel):
    source: str


class _Answer(BaseModel):
    answer: str
    citations: list[_Citation] = Field(min_length=1)


_INVALID = {"answer": "PostgreSQL", "citations": []}  # breaks min_length=1 every time


def _run(answers: list[dict[str, Any]], **run_options: Any) -> dict[str, Any]:
    """Run an agent whose model submits `answers` in turn (the last repeats); what it saw."""
    seen: dict[str, Any] = {"calls": 0}

    def play(messages: list[Any], info: AgentInfo) -> ModelResponse:
        seen["output_tools"] = [tool.name for tool in info.output_tools]
        seen["function_tools"] = [tool.name for tool in info.function_tools]
        answer = answers[min(seen["calls"], len(answers) - 1)]
        seen["calls"] += 1
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, answer)])

    agent = Agent(output_type=_Answer)

    @agent.tool_plain
    def search(query: str) -> str:
        """Look the question up (returns a fixed passage)."""
        return "The order service stores its data in PostgreSQL 17."

    with capture_run_messages() as messages:
        try:
            model = FunctionModel(play)
            seen["output"] = agent.run_sync("Which Postgres?", model=model, **run_options)
            seen["error"] = None
        except AgentRunError as exc:
            seen["output"], seen["error"] = None, exc
    # The parts of each request after the first: what the model was sent back.
    seen["sent_back"] = [
        [part.part_kind for part in message.parts]
        for message in messages[1:]
        if message.kind == "request" and message.parts
    ]
    return seen


def probe_output_is_a_hidden_tool() -> list[Check]:
    seen = _run([{"answer": "PostgreSQL 17", "citations": [{"source": "pg"}]}])
    output_tools, function_tools = seen["output_tools"], seen["function_tools"]
    return [
        Check(
            expected="the model is offered one output tool, final_result",
            observed=f"output tools {output_tools}",
            matches=output_tools == ["final_result"],
        ),
        Check(
            expected="our own tools stay separate from it (function tools: search)",
            observed=f"function tools {function_tools}",
            matches=function_tools == ["search"],
        ),
    ]


def probe_default_retry_limit() -> list[Check]:
    seen = _run([_INVALID])
    error = seen["error"]
    return [
        Check(
            expected="an always-invalid model is called 2 times (1 try + 1 retry)",
            observed=count(seen["calls"], "model call"),
            matches=seen["calls"] == 2,
        ),
        Check(
            expected="UnexpectedModelBehavior: Exceeded maximum output retries (1)",
            observed=describe(error) if error else "no exception: the run returned an output",
            matches=type(error).__name__ == "UnexpectedModelBehavior"
            and str(error) == "Exceeded maximum output retries (1)",
        ),
    ]


def probe_retries_can_be_raised() -> list[Check]:
    seen = _run([_INVALID, _INVALID, {"answer": "PostgreSQL 17", "citations": [{"source": "pg"}]}])
    raised = _run(
        [_INVALID, _INVALID, {"answer": "PostgreSQL 17", "citations": [{"source": "pg"}]}],
        retries=2,
    )
    return [
        Check(
            expected="with the default, two bad answers exhaust the retries",
            observed=describe(seen["error"]) if seen["error"] else "the run returned an output",
            matches=seen["error"] is not None,
        ),
        Check(
            expected="run_sync(retries=2) lets the third answer through",
            observed=(
                f"{count(raised['calls'], 'model call')}, output {raised['output'].output!r}"
                if raised["error"] is None
                else describe(raised["error"])
            ),
            matches=raised["error"] is None and raised["calls"] == 3,
        ),
    ]


def probe_feedback_part() -> list[Check]:
    seen = _run([_INVALID, {"answer": "PostgreSQL 17", "citations": [{"source": "pg"}]}])
    kinds = seen["sent_back"][0] if seen["sent_back"] else []
    return [
        Check(
            expected="the validation error goes back to the model and the run retries",
            observed=f"{count(seen['calls'], 'model call')}; "
            f"sent back after the bad answer: {kinds}",
            matches=seen["calls"] == 2 and seen["error"] is None,
        ),
        Check(
            expected="it travels in a 'retry-prompt' part",
            observed=f"part kinds {kinds}",
            matches=kinds == ["retry-prompt"],
        ),
    ]


_probe = article_probe(ARTICLE_OUTPUT, OUTPUT_PACKAGES)


PROBES = (
    _probe(
        "output_is_hidden_final_result_tool",
        "output_type is carried out as a hidden tool call named final_result.",
        "2.2.2 output_type",
        probe_output_is_a_hidden_tool,
    ),
    _probe(
        "output_retries_default_one",
        "Output validation retries once by default; then UnexpectedModelBehavior is raised.",
        "retry limit and failure",
        probe_default_retry_limit,
    ),
    _probe(
        "output_retries_raised_per_run",
        "retries= (on Agent or per run_sync) raises the retry limit.",
        "retry limit and failure",
        probe_retries_can_be_raised,
    ),
    _probe(
        "output_feedback_retry_prompt",
        "The Pydantic error is fed back to the model in a retry-prompt part.",
        "validation retry",
        probe_feedback_part,
    ),
)
