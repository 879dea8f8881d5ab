"""PydanticAI for real: Agent(output_type=Answer) driven by a FunctionModel playing a script."""

from __future__ import annotations

import json
from typing import Any, cast

from pydantic import BaseModel, ValidationError

from core.jsontext.write import dumps
from core.retry.answer import full_errors
from core.retry.script import MAX_CALLS, QUESTION, SYSTEM_PROMPT, search, turn_at
from core.retry.timeline import (
    VERDICT_EXHAUSTED,
    VERDICT_RETRY,
    VERDICT_TOOL,
    VERDICT_VALID,
    Attempt,
    RetryRun,
    RunError,
    left_out,
)

__all__ = ["ARTICLE_FEEDBACK_PART", "SYSTEM_PROMPT", "run_with_pydantic_ai"]

# What the article (pydantic-ai 2.55.0) reads the validation feedback from.
ARTICLE_FEEDBACK_PART = "retry-prompt"


def run_with_pydantic_ai(
    script: list[dict[str, Any]], *, retries: int, model: type[BaseModel]
) -> RetryRun:
    """Run `script` through a real PydanticAI agent and read the timeline from its messages.

    Example:
        >>> from core.retry.answer import Answer
        >>> run_with_pydantic_ai([{"answer": {"answer": "x"}}], retries=1, model=Answer).calls
        2
    """
    # Imported here so that importing core.retry (or any page) does not load pydantic_ai.
    from pydantic_ai import Agent, capture_run_messages
    from pydantic_ai.exceptions import AgentRunError
    from pydantic_ai.messages import ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart
    from pydantic_ai.models.function import AgentInfo, FunctionModel
    from pydantic_ai.usage import UsageLimits

    output_tools: set[str] = set()

    def play(messages: list[Any], info: AgentInfo) -> ModelResponse:
        output_tools.update(t.name for t in info.output_tools)
        turn = turn_at(script, sum(isinstance(m, ModelResponse) for m in messages))
        if "text" in turn:
            return ModelResponse(parts=[TextPart(turn["text"])])
        if "tool" in turn:
            return ModelResponse(parts=[ToolCallPart(tool_name=turn["tool"], args=turn["args"])])
        return ModelResponse(
            parts=[ToolCallPart(tool_name=info.output_tools[0].name, args=turn["answer"])]
        )

    agent = Agent(output_type=model, system_prompt=SYSTEM_PROMPT, retries=retries, tools=[search])
    output, error, cause = None, None, None
    with capture_run_messages() as messages:
        try:
            result = agent.run_sync(
                QUESTION,
                model=FunctionModel(play),
                usage_limits=UsageLimits(request_limit=MAX_CALLS),
            )
            output = result.output
        except AgentRunError as exc:
            error, cause = RunError(type(exc).__name__, str(exc)), exc.__cause__
    attempts = _read_attempts(
        messages, output_tools, retries, model, ended=error is not None, cause=cause
    )
    return RetryRun(
        engine="pydantic_ai",
        retries=retries,
        calls=sum(m.kind == "response" for m in messages),
        attempts=attempts,
        output=output,
        error=error,
        notes=_notes(messages, attempts),
        messages=ModelMessagesTypeAdapter.dump_python(list(messages), mode="json"),
    )


def _read_attempts(
    messages: list[Any],
    output_tools: set[str],
    budget: int,
    model: type[BaseModel],
    *,
    ended: bool,
    cause: BaseException | None,
) -> list[Attempt]:
    """One row per model response; the verdict comes from the reply part the run recorded."""
    responses = [(i, m) for i, m in enumerate(messages) if m.kind == "response"]
    attempts, retries_left = [], budget
    for number, (index, response) in enumerate(responses, start=1):
        replies = messages[index + 1].parts if index + 1 < len(messages) else []
        for part in response.parts:
            returned, raw, is_text = _returned(part)
            reply = _reply_to(part, replies)
            row: dict[str, Any] = {
                "attempt": number,
                "returned": returned,
                "errors": "",
                "sent_back": "",
                "part": "",
                "left_out": "",
                "retries_left": retries_left,
            }
            if reply is not None and getattr(reply, "retry", None) is not None:
                retries_left = reply.retry.max_retries - reply.retry.attempt
                # Validation errors as a list of dicts; a plain sentence (the reply to an
                # empty text: "Please return text or …") sends the model no errors.
                sent = reply.content if isinstance(reply.content, list) else []
                text = (
                    reply.model_response()
                    if reply.part_kind == "retry-feedback"
                    else reply.model_response_str()
                )
                row |= {
                    "verdict": VERDICT_RETRY,
                    "errors": dumps(sent, default=str) if sent else "",
                    "sent_back": text,
                    "part": _part_label(reply),
                    "retries_left": retries_left,
                }
            elif reply is not None:
                is_output = part.part_kind == "tool-call" and part.tool_name in output_tools
                row |= {
                    "verdict": VERDICT_VALID if is_output else VERDICT_TOOL,
                    "sent_back": reply.model_response_str(),
                    "part": _part_label(reply),
                }
            elif ended and number == len(responses):
                sent = _cause_errors(cause)
                row |= {
                    "verdict": VERDICT_EXHAUSTED,
                    "errors": dumps(sent, default=str) if sent else "",
                    "retries_left": 0,
                }
            else:
                # A text answer that validated gets no reply part: it simply became the output.
                row |= {"verdict": VERDICT_VALID}
            if row["errors"]:
                # The one re-validation here: the full errors, to show what the feedback omits.
                full = full_errors(model, raw, as_json_text=is_text)
                row["left_out"] = left_out(json.loads(row["errors"]), full)
            attempts.append(Attempt(**row))
    return attempts


def _returned(part: Any) -> tuple[str, Any, bool]:
    if part.part_kind == "text":
        return dumps({"text": part.content}, default=str), part.content, True
    args = part.args_as_dict()
    return dumps({"tool": part.tool_name, "args": args}, default=str), args, False


def _reply_to(part: Any, replies: list[Any]) -> Any:
    if part.part_kind == "tool-call":
        call_id = part.tool_call_id
        return next((r for r in replies if getattr(r, "tool_call_id", None) == call_id), None)
    return next((r for r in replies if r.part_kind == "retry-feedback"), None)


def _part_label(part: Any) -> str:
    if part.part_kind == "tool-return":
        return f"tool-return (tool_name={part.tool_name}, outcome={part.outcome})"
    return f"{part.part_kind} (cause={part.retry.cause})"


def _cause_errors(cause: BaseException | None) -> list[dict[str, Any]]:
    """The errors the exhausting call failed with, from the exception PydanticAI chained."""
    if isinstance(cause, ValidationError):
        return cast("list[dict[str, Any]]", cause.errors(include_url=False, include_context=False))
    retry_part = getattr(cause, "tool_retry", None)
    content = getattr(retry_part, "content", None)
    return list(content) if isinstance(content, list) else []


def _notes(messages: list[Any], attempts: list[Attempt]) -> list[str]:
    from pydantic_ai import __version__

    kinds = sorted({a.part.split(" ")[0] for a in attempts if a.verdict == VERDICT_RETRY})
    notes = []
    if kinds and kinds != [ARTICLE_FEEDBACK_PART]:
        notes.append(
            f"The article reads the validation feedback from a '{ARTICLE_FEEDBACK_PART}' part; "
            f"on pydantic-ai {__version__} this run carried it in: {', '.join(kinds)}."
        )
    list_locs = [
        e["loc"]
        for m in messages
        if m.kind == "request"
        for p in m.parts
        if getattr(p, "retry", None) and isinstance(p.content, list)
        for e in p.content
        if isinstance(e.get("loc"), list) and e["loc"]
    ]
    if list_locs:
        loc = list_locs[0]
        notes.append(
            f"Each error's loc arrives as a list (e.g. {loc!r}), not the tuple "
            f"{tuple(loc)!r} the article prints."
        )
    wrapped = [
        a for a in attempts if a.verdict == VERDICT_RETRY and a.sent_back.startswith('{"error":')
    ]
    if wrapped:
        notes.append(
            'The text the model is shown wraps the errors in {"error": [...]}; '
            "the article prints the bare list."
        )
    return notes
