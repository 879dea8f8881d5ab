"""Probe of `SecretStr` in state: masked when printed, but does the secret reach a checkpoint?"""

from typing import Any

from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, SecretStr

from core.probes._model import ARTICLE_STATE, Check, Probe

__all__ = ["PROBES"]

_SECRET = "sk-live-probe-1234"


def probe_secretstr_masked_but_checkpointed() -> list[Check]:
    class Credentials(BaseModel):
        api_key: SecretStr
        calls: int = 0

    written: list[bytes] = []

    class RecordingSerializer(JsonPlusSerializer):
        """Keeps the bytes the checkpointer persists, exactly as a database would get them."""

        def dumps_typed(self, obj: Any) -> tuple[str, bytes]:
            kind, data = super().dumps_typed(obj)
            written.append(data)
            return kind, data

    builder = StateGraph(Credentials)
    builder.add_node("call", lambda state: {"calls": state.calls + 1})
    builder.add_edge(START, "call")
    builder.add_edge("call", END)
    # A fresh checkpointer per run: nothing is shared between probe runs or sessions.
    saver = InMemorySaver(serde=RecordingSerializer())
    config = {"configurable": {"thread_id": "probe"}, "recursion_limit": 10}
    builder.compile(checkpointer=saver).invoke({"api_key": SecretStr(_SECRET)}, config)
    printed = repr(Credentials(api_key=_SECRET))
    leaks = [data for data in written if _SECRET.encode() in data]
    return [
        Check(
            expected="printing the state masks the secret",
            observed=printed,
            matches=_SECRET not in printed,
        ),
        Check(
            expected="the plain-text secret still reaches the checkpoint",
            observed=(
                f"{len(leaks)} of {len(written)} checkpoint writes hold the plain secret; "
                f"first: {leaks[0] if leaks else b''!r}"
            ),
            matches=bool(leaks),
        ),
    ]


PROBES = (
    Probe(
        id="secretstr_masked_but_checkpointed",
        claim="SecretStr is masked when printed, but the secret still reaches a checkpoint.",
        source=f"{ARTICLE_STATE} § 5.4 semantic types: SecretStr; § 8 pitfall 7",
        run=probe_secretstr_masked_but_checkpointed,
    ),
)
