"""The demo store: real runs of the seed graphs through a real SqliteSaver, rebuilt by script."""

from __future__ import annotations

import copy
import sqlite3
import sys
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from pydantic import BaseModel, Field

from core.lg_compat import MESSAGE_IDS_UUID, recompile
from core.order import FAULTS, SEED_PAYLOAD, AgentState, build_order_graph
from core.stores.open import Store, open_store
from core.stores.serde import strict_serde

__all__ = [
    "DEMO_THREADS",
    "CandidateState",
    "build_demo_store",
    "open_demo_store",
    "run_demo_threads",
]


class CandidateState(AgentState):
    """A stricter next version of the state: orders above 500 now need approval elsewhere."""

    amount: float = Field(ge=0, le=500, allow_inf_nan=False)


def _payload(amount: float, thread_id: str) -> dict[str, Any]:
    payload = copy.deepcopy(SEED_PAYLOAD)
    payload["amount"] = amount
    payload["messages"][0]["id"] = f"{thread_id}-human"
    return payload


# thread id -> (fault ids, amount, interrupt before confirm, a second turn's message or None)
DEMO_THREADS: dict[str, tuple[tuple[str, ...], float, bool, str | None]] = {
    "clean-1": ((), 99, False, None),
    "clean-2": ((), 250, False, "One more, please"),  # a second input on the same thread
    **{f"fault-{fault}": ((fault,), 99, False, None) for fault in FAULTS},
    "interrupted": ((), 99, True, None),
    "model-change": ((), 750, False, None),  # valid under AgentState, not under CandidateState
}


@contextmanager
def _numbered_message_ids(thread_id: str) -> Iterator[None]:
    # add_messages gives each message without an id a uuid4; numbered ids keep the store
    # byte-comparable between builds. Only that module's name `uuid` is replaced.
    counter = iter(range(1, 1_000))
    ids = SimpleNamespace(uuid4=lambda: f"{thread_id}-msg-{next(counter)}")
    with mock.patch(MESSAGE_IDS_UUID, ids):
        yield


def run_demo_threads(saver: BaseCheckpointSaver[Any]) -> dict[str, str | None]:
    """Run every `DEMO_THREADS` entry through `saver`; thread id -> what stopped it, or None.

    Runs that raise (a fault's exception or LangGraph's ValidationError) keep the
    checkpoints written before the raise, as a real run does.
    """
    outcome: dict[str, str | None] = {}
    for thread_id, (faults, amount, interrupt, again) in DEMO_THREADS.items():
        graph = recompile(
            build_order_graph(faults), saver, interrupt_before=["confirm"] if interrupt else None
        )
        config: RunnableConfig = {"configurable": {"thread_id": thread_id}, "recursion_limit": 10}
        try:
            with _numbered_message_ids(thread_id):
                graph.invoke(_payload(amount, thread_id), config)
                if again:
                    turn = {"type": "human", "content": again, "id": f"{thread_id}-again"}
                    graph.invoke({"messages": [turn]}, config)
            outcome[thread_id] = "interrupted before confirm" if interrupt else None
        except Exception as exc:  # noqa: BLE001 - the store keeps what was checkpointed before the raise
            outcome[thread_id] = f"{type(exc).__name__}: {str(exc).splitlines()[0]}"
    return outcome


def build_demo_store(path: Path | str) -> dict[str, str | None]:
    """Write the demo store to `path` (replaced if it exists); returns `run_demo_threads`'s map.

    Example:
        >>> import tempfile, pathlib
        >>> outcome = build_demo_store(pathlib.Path(tempfile.mkdtemp()) / "demo.sqlite")
        >>> outcome["clean-1"], outcome["fault-node_exception"]
        (None, 'RuntimeError: payment service unavailable')
    """
    from langgraph.checkpoint.sqlite import SqliteSaver

    path = Path(path)
    for stale in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        stale.unlink(missing_ok=True)
    with closing(sqlite3.connect(path, check_same_thread=False)) as conn:
        outcome = run_demo_threads(SqliteSaver(conn))
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # one self-contained file
        conn.execute("PRAGMA journal_mode=DELETE")
    return outcome


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m core.stores.demo PATH")
    for thread, stopped in build_demo_store(sys.argv[1]).items():
        print(f"{thread}: {stopped or 'completed'}")


@contextmanager
def open_demo_store(model: type[BaseModel] = AgentState) -> Iterator[Store]:
    """The demo store, built in a temporary directory and opened read-only as the app opens
    any store (the examples of the stores' functions use it).

    Example:
        >>> with open_demo_store() as store:
        ...     store.kind
        'sqlite'
    """
    with tempfile.TemporaryDirectory(prefix="playground-demo-") as folder:
        path = Path(folder) / "demo.sqlite"
        build_demo_store(path)
        with open_store(str(path), strict_serde([model])) as store:
            yield store
