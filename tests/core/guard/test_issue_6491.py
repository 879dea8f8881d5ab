"""langgraph #6491 on real stores: a node's bad write is checkpointed and the thread's history
raises; behind the guard nothing invalid is stored, under every durability mode."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from langgraph.graph import END, START, StateGraph
from pydantic import BaseModel, ValidationError

from core.guard import GuardedSaver, InvalidStateError

from .conftest import araw_rows, async_saver_on, raw_rows, saver_on

CONFIG: Any = {"configurable": {"thread_id": "t-6491"}}
ERRORS = [
    {
        "type": "string_type",
        "loc": ["tags", 1],
        "msg": "Input should be a valid string",
        "input": None,
    }
]
MESSAGE = (
    "[state_invalid] Thread 't-6491': the state at step 1 fails Tagged (tags[1]: Input should "
    "be a valid string [string_type]), written by tag. Nothing of it was stored: the thread's "
    "last valid checkpoint stays its head. Fix what tag returns, or write a valid value with "
    'update_state(config, values, as_node="tag"), then resume.'
)
# what the store holds after the refusal: the input and the state `tag` ran on, and no write
HEAD = [
    (0, "loop", {"tags": []}, []),
    (-1, "input", {}, [("branch:to:tag", None), ("tags", [])]),
]


class Tagged(BaseModel):
    tags: list[str] = []


def _tag(state: Tagged) -> dict[str, Any]:
    return {"tags": ["a", None]}  # the node: None inside a list[str]


def _finish(state: Tagged) -> dict[str, Any]:
    return {"tags": [*state.tags, "done"]}


def _graph(saver: Any, *, last: bool = False) -> Any:
    """START -> tag -> finish -> END (`last`: START -> tag -> END, nothing reads tag's write)."""
    builder = StateGraph(Tagged).add_node("tag", _tag).add_edge(START, "tag")
    if last:
        return builder.add_edge("tag", END).compile(checkpointer=saver)
    builder = builder.add_node("finish", _finish).add_edge("tag", "finish")
    return builder.add_edge("finish", END).compile(checkpointer=saver)


def test_without_the_guard_the_bad_write_is_stored_and_the_history_raises(store):
    with saver_on(*store) as saver:
        graph = _graph(saver)
        with pytest.raises(ValidationError):
            graph.invoke({"tags": []}, CONFIG, durability="sync")
        with pytest.raises(ValidationError):
            list(graph.get_state_history(CONFIG))
        assert raw_rows(saver, "t-6491") == [
            (1, "loop", {"tags": ["a", None]}, []),
            (0, "loop", {"tags": []}, [("branch:to:finish", None), ("tags", ["a", None])]),
            (-1, "input", {}, [("branch:to:tag", None), ("tags", [])]),
        ]


def test_the_guard_refuses_the_write_naming_the_node_and_a_fixed_update_lets_the_run_finish(
    store,
):
    with saver_on(*store) as saver:
        graph = _graph(GuardedSaver(saver, Tagged))
        with pytest.raises(InvalidStateError) as refused:
            graph.invoke({"tags": []}, CONFIG, durability="sync")
        error = refused.value
        assert (str(error), error.code, error.step, error.nodes, error.errors) == (
            MESSAGE, "state_invalid", 1, ("tag",), ERRORS,
        )  # fmt: skip
        history = [(s.metadata["step"], s.values, s.next) for s in graph.get_state_history(CONFIG)]
        assert history == [(0, {"tags": []}, ("tag",)), (-1, {}, ("__start__",))]
        assert raw_rows(saver, "t-6491") == HEAD
        # resumed without a fix: tag runs again and is refused again; still nothing stored
        with pytest.raises(InvalidStateError) as again:
            graph.invoke(None, CONFIG, durability="sync")
        assert (str(again.value), again.value.nodes, again.value.errors) == (
            MESSAGE,
            ("tag",),
            ERRORS,
        )
        assert raw_rows(saver, "t-6491") == HEAD
        # a bad update is refused too; a fixed one, as tag, lets the run go on to finish
        with pytest.raises(InvalidStateError):
            graph.update_state(CONFIG, {"tags": ["a", None]}, as_node="tag")
        graph.update_state(CONFIG, {"tags": ["a", "b"]}, as_node="tag")
        assert graph.invoke(None, CONFIG, durability="sync") == {"tags": ["a", "b", "done"]}
        assert [
            (s.metadata["step"], s.metadata["source"], s.values, s.next)
            for s in graph.get_state_history(CONFIG)
        ] == [
            (2, "loop", {"tags": ["a", "b", "done"]}, ()),
            (1, "update", {"tags": ["a", "b"]}, ("finish",)),
            (0, "loop", {"tags": []}, ("tag",)),
            (-1, "input", {}, ("__start__",)),
        ]


# LangGraph raises its own ValidationError when `finish` reads the state before the guard's
# refusal (made in the background) reaches the caller: acceptable, a stored bad state is not.
RAISED = {"sync": InvalidStateError, "async": ValidationError, "exit": ValidationError}
STORED = {"sync": HEAD, "async": HEAD, "exit": []}  # "exit" stores only at the end of a run


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_no_invalid_state_or_write_is_stored_under_any_durability(store, durability):
    with saver_on(*store) as saver:
        graph = _graph(GuardedSaver(saver, Tagged))
        with pytest.raises(RAISED[durability]):
            graph.invoke({"tags": []}, CONFIG, durability=durability)
        assert raw_rows(saver, "t-6491") == STORED[durability]
        assert [s.values for s in graph.get_state_history(CONFIG)] == [
            {"tags": []}, {},
        ][: len(STORED[durability])]  # fmt: skip


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_a_bad_write_by_the_last_node_which_langgraph_returns_unchecked_is_refused(
    store, durability
):
    with saver_on(*store) as saver:
        graph = _graph(GuardedSaver(saver, Tagged), last=True)
        with pytest.raises(InvalidStateError) as refused:
            graph.invoke({"tags": []}, CONFIG, durability=durability)
        assert (refused.value.step, refused.value.nodes, refused.value.errors) == (
            1, ("tag",), ERRORS,
        )  # fmt: skip
        head = [(0, "loop", {"tags": []}, []), HEAD[1]]
        assert raw_rows(saver, "t-6491") == ([] if durability == "exit" else head)


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_the_async_savers_behind_the_guard_store_nothing_invalid_either(store, durability):
    async def run() -> tuple[type[BaseException], list[Any], list[Any]]:
        async with async_saver_on(*store) as saver:
            graph = _graph(GuardedSaver(saver, Tagged))
            try:
                await graph.ainvoke({"tags": []}, CONFIG, durability=durability)
            except (InvalidStateError, ValidationError) as error:
                raised: type[BaseException] = type(error)
            history = [s.values async for s in graph.aget_state_history(CONFIG)]
            return raised, history, await araw_rows(saver, "t-6491")

    raised, history, rows = asyncio.run(run())
    assert (raised, rows) == (RAISED[durability], STORED[durability])
    assert history == [{"tags": []}, {}][: len(rows)]


def test_through_the_async_api_a_resume_is_refused_again_and_a_fix_finishes_the_run(store):
    async def run() -> tuple[list[str], Any, list[Any]]:
        async with async_saver_on(*store) as saver:
            graph = _graph(GuardedSaver(saver, Tagged))
            messages = []
            for payload in ({"tags": []}, None):
                with pytest.raises(InvalidStateError) as refused:
                    await graph.ainvoke(payload, CONFIG, durability="sync")
                messages.append(str(refused.value))
            await graph.aupdate_state(CONFIG, {"tags": ["a", "b"]}, as_node="tag")
            output = await graph.ainvoke(None, CONFIG, durability="sync")
            return messages, output, await araw_rows(saver, "t-6491")

    messages, output, rows = asyncio.run(run())
    assert (messages, output) == ([MESSAGE, MESSAGE], {"tags": ["a", "b", "done"]})
    assert [(step, source, state) for step, source, state, _ in rows] == [
        (2, "loop", {"tags": ["a", "b", "done"]}),
        (1, "update", {"tags": ["a", "b"]}),
        (0, "loop", {"tags": []}),
        (-1, "input", {}),
    ]
