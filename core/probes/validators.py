"""Probe of `field_validator` rewrites: seen by nodes, but are they written back to channels?"""

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, field_validator

from core.probes._model import ARTICLE_STATE, Check, Probe

__all__ = ["PROBES"]


def probe_validator_rewrite_not_written_back() -> list[Check]:
    class Ticket(BaseModel):
        code: str
        seen_by_node: str = ""

        @field_validator("code")
        @classmethod
        def upper(cls, value: str) -> str:
            return value.upper()

    def read(state: Ticket) -> dict[str, str]:
        return {"seen_by_node": state.code}

    builder = StateGraph(Ticket)
    builder.add_node("read", read)
    builder.add_edge(START, "read")
    builder.add_edge("read", END)
    result = builder.compile().invoke({"code": "ab-1"}, {"recursion_limit": 10})
    return [
        Check(
            expected="the validator's return value ('AB-1') is not written back: code stays 'ab-1'",
            observed=(
                f"final code={result['code']!r}; "
                f"the node read code={result['seen_by_node']!r} (validated before it ran)"
            ),
            matches=result["code"] == "ab-1",
        ),
    ]


PROBES = (
    Probe(
        id="validator_rewrite_not_written_back",
        claim="field_validator rewrites (return a normalised value) are not written back to "
        "the channels; only raising is reliable.",
        source=f"{ARTICLE_STATE} § 5.6 custom validators; § 8 pitfall 3",
        run=probe_validator_rewrite_not_written_back,
    ),
)
