"""Probes of message fields: `add_messages` dedupe, and `list[BaseMessage]` round trips."""

from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, BaseMessage, HumanMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from pydantic import BaseModel, Field

from core.probes._model import ARTICLE_STATE, Check, Probe

__all__ = ["PROBES"]


def _names(messages: list[Any]) -> list[str]:
    return [type(message).__name__ for message in messages]


def probe_add_messages_dedupes_by_id() -> list[Check]:
    class Chat(BaseModel):
        messages: Annotated[list[AnyMessage], add_messages] = Field(default_factory=list)

    def reply(state: Chat) -> dict[str, list[AIMessage]]:
        return {"messages": [AIMessage("edited", id="m1"), AIMessage("new", id="m2")]}

    builder = StateGraph(Chat)
    builder.add_node("reply", reply)
    builder.add_edge(START, "reply")
    builder.add_edge("reply", END)
    start = [HumanMessage("hi", id="m0"), AIMessage("draft", id="m1")]
    result = builder.compile().invoke({"messages": start}, {"recursion_limit": 10})
    seen = [(message.id, message.content) for message in result["messages"]]
    return [
        Check(
            expected="a message with an existing id replaces it; a new id is appended",
            observed=f"(id, content) after the node: {seen}",
            matches=seen == [("m0", "hi"), ("m1", "edited"), ("m2", "new")],
        ),
    ]


def probe_basemessage_loses_subclass() -> list[Check]:
    class Loose(BaseModel):
        messages: list[BaseMessage] = Field(default_factory=list)

    builder = StateGraph(Loose)
    builder.add_node("noop", lambda state: {"messages": state.messages})
    builder.add_edge(START, "noop")
    builder.add_edge("noop", END)
    saver = InMemorySaver()
    config = {"configurable": {"thread_id": "probe"}, "recursion_limit": 10}
    sent = [HumanMessage("hi"), ToolMessage("42", tool_call_id="c1"), AIMessage("ok")]
    builder.compile(checkpointer=saver).invoke({"messages": sent}, config)
    stored = saver.get_tuple(config)
    assert stored is not None  # the run has just been checkpointed
    restored = stored.checkpoint["channel_values"]["messages"]
    wire = Loose.model_validate_json(Loose(messages=sent).model_dump_json()).messages
    return [
        Check(
            expected="after a checkpoint round trip the messages are no longer "
            "HumanMessage / ToolMessage / AIMessage",
            observed=f"{_names(sent)} -> checkpoint -> {_names(restored)}",
            matches=_names(restored) != _names(sent),
        ),
        Check(
            expected="over the wire (JSON dump -> validate) the subclasses are lost",
            observed=f"{_names(sent)} -> JSON -> {_names(wire)}",
            matches=_names(wire) != _names(sent),
        ),
    ]


PROBES = (
    Probe(
        id="add_messages_dedupes_by_id",
        claim="AnyMessage + add_messages appends messages and de-duplicates them by message id.",
        source=f"{ARTICLE_STATE} § 4.1 data path, step 4 ('append, de-duplicated by message id')",
        run=probe_add_messages_dedupes_by_id,
    ),
    Probe(
        id="basemessage_loses_subclass",
        claim="A list[BaseMessage] field loses the concrete message subclass over the wire "
        "or through a checkpoint round trip; use list[AnyMessage].",
        source=f"{ARTICLE_STATE} § 8 pitfall 4; key settings: AnyMessage",
        run=probe_basemessage_loses_subclass,
    ),
)
