"""The LangGraph retry loop's messages: model turns, the feedback that carries errors back."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, ToolMessage

from core.jsontext.write import dumps

__all__ = [
    "OUTPUT_TOOL",
    "feedback_message",
    "last_turn",
    "message_dict",
    "model_turn",
    "raw_output",
    "returned",
]

OUTPUT_TOOL = "final_result"


def model_turn(turn: dict[str, Any], number: int) -> AIMessage:
    """A script turn as the model's message: plain text, or one tool call.

    Example:
        >>> model_turn({"text": "hi"}, 1).content
        'hi'
    """
    if "text" in turn:
        return AIMessage(turn["text"], id=f"ai-{number}")
    name, args = (turn["tool"], turn["args"]) if "tool" in turn else (OUTPUT_TOOL, turn["answer"])
    return AIMessage(
        "", tool_calls=[{"name": name, "args": args, "id": f"call-{number}"}], id=f"ai-{number}"
    )


def last_turn(messages: Sequence[AnyMessage]) -> AIMessage:
    """The last message, the model's turn: every node after `generate` reads it (no copy)."""
    return cast(AIMessage, messages[-1])


def feedback_message(last: AIMessage, sent: list[dict[str, Any]], id_: str) -> tuple[Any, str]:
    """The message carrying the errors back: the output tool's result, or a user turn for text."""
    if last.tool_calls:
        text = dumps({"error": sent}, compact=True)
        call_id = last.tool_calls[0]["id"]
        reply = ToolMessage(text, tool_call_id=call_id, name=OUTPUT_TOOL, status="error", id=id_)
        return reply, f"ToolMessage (name={OUTPUT_TOOL}, status=error)"
    text = f"Validation errors:\n{dumps(sent)}\nFix them and answer again."
    return HumanMessage(text, id=id_), "HumanMessage"


def raw_output(message: AIMessage) -> tuple[Any, bool]:
    """What to validate from the model's message, and whether it is JSON text."""
    if message.tool_calls:
        return message.tool_calls[0]["args"], False
    return message.content, True


def returned(message: AIMessage) -> str:
    """The model's message as the timeline's `returned` column: {"text"} or {"tool", "args"}."""
    if message.tool_calls:
        call = message.tool_calls[0]
        return dumps({"tool": call["name"], "args": call["args"]}, default=str)
    return dumps({"text": message.content}, default=str)


def message_dict(message: AnyMessage) -> dict[str, Any]:
    """A message as plain JSON for the page: type, content and the tool fields it has."""
    shown = {"type": message.type, "content": message.content}
    for extra in ("tool_calls", "tool_call_id", "name", "status"):
        if getattr(message, extra, None):
            shown[extra] = getattr(message, extra)
    return shown
