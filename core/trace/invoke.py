"""Drive one LangGraph run as `invoke` would (or `ainvoke`, for async nodes), within its budget."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.pregel import Pregel
from langgraph.types import StreamMode

from core.lg_compat import INTERRUPT as _INTERRUPT
from core.lg_compat import branches_of, builder_of, node_runnable, only_async
from core.order.graph import CompiledGraph
from core.trace.steps import TaskLog, TraceTimeout

__all__ = ["needs_async", "run_like_invoke"]


def needs_async(graph: Pregel[Any, Any, Any, Any]) -> bool:
    """Whether some node or branch of `graph` (or of a subgraph) has only an async function.

    Read off LangGraph's own node objects: such a node is a `RunnableCallable` holding no
    sync `func`, and `invoke` fails on it ("No synchronous function provided").

    Example:
        >>> from core.order import build_order_graph
        >>> needs_async(build_order_graph())
        False
    """
    runnables: list[Any] = [node_runnable(node) for node in graph.nodes.values()]
    runnables.extend(branch.path for branch in branches_of(builder_of(graph)))
    for runnable in runnables:
        if only_async(runnable):
            return True
        if isinstance(runnable, Pregel) and needs_async(runnable):
            return True
    return False


def run_like_invoke(run: CompiledGraph, payload: Any, config: RunnableConfig, log: TaskLog) -> Any:
    """What `run.invoke(payload, config)` returns (or raises), streamed so `log` sees each step.

    The stream is the one `invoke` itself reads (modes updates and values, the graph's output
    channels), so an `output_schema` is honoured and interrupts are attached the same way.
    A graph with async nodes runs through `astream` on a private event loop (in a worker
    thread when this thread already runs one), bounded by `log`'s deadline while it awaits.

    Example:
        >>> from core.order import SEED_PAYLOAD, build_order_graph
        >>> log = TaskLog(time.monotonic() + 10)
        >>> sorted(run_like_invoke(build_order_graph(), SEED_PAYLOAD, {}, log))
        ['amount', 'items', 'logs', 'messages', 'status', 'user_id']
    """
    modes: list[StreamMode] = ["updates", "values"]
    keys = run.output_channels
    if not needs_async(run):
        return _latest(run.stream(payload, config, stream_mode=modes, output_keys=keys), log)

    async def drive() -> Any:
        chunks: list[Any] = []
        try:
            async with asyncio.timeout(max(log.deadline - time.monotonic(), 0)):
                stream = run.astream(payload, config, stream_mode=modes, output_keys=keys)
                await _collect(stream, chunks, log)
        except TimeoutError as exc:
            if isinstance(exc, TraceTimeout):
                raise
            raise TraceTimeout(f"[{TraceTimeout.code}] the run passed its time budget") from exc
        return _latest(chunks, log)

    return _run_coroutine(drive)


async def _collect(stream: AsyncIterator[Any], into: list[Any], log: TaskLog) -> None:
    async for chunk in stream:
        log.check_deadline()
        into.append(chunk)


def _latest(chunks: Iterable[Any], log: TaskLog) -> Any:
    # Pregel.invoke's own loop (version v1): the last values chunk, plus any interrupts.
    latest, interrupts = None, []
    for mode, payload in chunks:
        log.check_deadline()
        if mode == "updates" and isinstance(payload, dict) and _INTERRUPT in payload:
            interrupts.extend(payload[_INTERRUPT])
        elif mode == "values":
            latest = payload
    if not interrupts:
        return latest
    return {**(latest if isinstance(latest, dict) else {}), _INTERRUPT: interrupts}


def _run_coroutine(factory: Callable[[], Coroutine[Any, Any, Any]]) -> Any:
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # Streamlit's script thread and the CLI run no loop: use our own
        return asyncio.run(factory())
    with ThreadPoolExecutor(max_workers=1) as pool:  # never block a loop that is running
        return pool.submit(lambda: asyncio.run(factory())).result()
