"""Probe of mutable defaults: is `logs: list = []` shared between states and runs?"""

from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel

from core.probes._model import ARTICLE_STATE, Check, Probe

__all__ = ["PROBES"]


def probe_mutable_default_is_shared() -> list[Check]:
    class Shared(BaseModel):
        logs: list = []  # type: ignore[type-arg]  # the article's pitfall, as the article writes it

    first = Shared()
    first.logs.append("first")
    second = Shared()

    def append_in_place(state: Shared) -> dict[str, list[str]]:
        state.logs.append("node")  # mutates the default if Pydantic did not copy it
        return {"logs": state.logs}

    builder = StateGraph(Shared)
    builder.add_node("append", append_in_place)
    builder.add_edge(START, "append")
    builder.add_edge("append", END)
    graph = builder.compile()
    runs = [graph.invoke({}, {"recursion_limit": 10})["logs"] for _ in range(2)]
    return [
        Check(
            expected="a second instance sees the first instance's append: ['first']",
            observed=f"Shared().logs after Shared().logs.append('first'): {second.logs!r}",
            matches=second.logs == ["first"],
        ),
        Check(
            expected="a second invoke sees the first invoke's in-place append",
            observed=f"logs of two invokes: {runs!r}; class default now {Shared().logs!r}",
            matches=runs[1] != runs[0],
        ),
    ]


PROBES = (
    Probe(
        id="mutable_default_is_shared",
        claim="logs: list = [] is a class-level shared mutable default; use default_factory.",
        source=f"{ARTICLE_STATE} § 8 pitfall 1; key settings: default_factory",
        run=probe_mutable_default_is_shared,
    ),
)
