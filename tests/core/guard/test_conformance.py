"""LangGraph's own saver contract (langgraph-checkpoint-conformance) around the guard: every
capability the bare saver passes, the guarded one passes alike, and it has no other."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.checkpoint.conformance import checkpointer_test, validate
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from pydantic import BaseModel, ConfigDict

from core.guard import GuardedSaver

_files = itertools.count()


class AnyState(BaseModel):
    """Every state the suite stores is valid here: it tests the saver, not a model."""

    model_config = ConfigDict(extra="allow")


def _suite(name: str, open_saver: Callable[[], Any], guarded: bool) -> dict[str, Any]:
    """The suite's report on fresh savers from `open_saver` (an async context manager), each
    wrapped in the guard when `guarded`."""

    async def factory() -> AsyncIterator[BaseCheckpointSaver[Any]]:
        async with open_saver() as saver:
            yield GuardedSaver(saver, AnyState) if guarded else saver

    report = asyncio.run(validate(checkpointer_test(name=name)(factory)))
    return report.to_dict()


def _memory() -> Any:
    return InMemorySaver()  # its own async context manager


def _sqlite(tmp_path) -> Callable[[], Any]:
    return lambda: AsyncSqliteSaver.from_conn_string(str(tmp_path / f"{next(_files)}.sqlite"))


def _postgres(cluster) -> Callable[[], Any]:
    class _Fresh:  # a database of its own for each suite, as a fresh saver would have
        async def __aenter__(self) -> AsyncPostgresSaver:
            dsn = cluster.create_database(f"conformance{next(_files)}")
            self._open = AsyncPostgresSaver.from_conn_string(dsn)
            saver = await self._open.__aenter__()
            await saver.setup()
            return saver

        async def __aexit__(self, *exc: Any) -> None:
            await self._open.__aexit__(*exc)

    return _Fresh


# capability -> (detected, passed, tests passed): what each bare saver gets on the pinned suite
BASE = {
    "put": (True, True, 17),
    "put_writes": (True, True, 10),
    "get_tuple": (True, True, 10),
    "list": (True, True, 16),
    "delete_thread": (True, True, 5),
    "delete_for_runs": (False, None, 0),
    "copy_thread": (False, None, 0),
}
EXPECTED = {
    "InMemorySaver": {**BASE, "prune": (False, None, 0)},
    "AsyncSqliteSaver": {**BASE, "prune": (False, None, 0)},
    "AsyncPostgresSaver": {**BASE, "prune": (True, True, 8)},
}


@pytest.mark.parametrize("saver", list(EXPECTED))
def test_the_guarded_saver_passes_langgraphs_conformance_suite_as_the_bare_one_does(
    saver, tmp_path, request
):
    open_saver = {
        "InMemorySaver": lambda: _memory,
        "AsyncSqliteSaver": lambda: _sqlite(tmp_path),
        "AsyncPostgresSaver": lambda: _postgres(request.getfixturevalue("postgres")),
    }[saver]()
    bare = _suite(saver, open_saver, guarded=False)
    guarded = _suite(saver, open_saver, guarded=True)
    assert {
        name: (r["detected"], r["passed"], r["tests_passed"]) for name, r in bare["results"].items()
    } == EXPECTED[saver]
    assert (guarded, guarded["conformance_level"]) == (bare, "FULL")
