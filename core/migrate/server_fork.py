"""A migration's fork on a LangGraph server, through its API (threads.update_state)."""

from __future__ import annotations

from typing import Any

from langgraph.channels.binop import BinaryOperatorAggregate
from pydantic import BaseModel

from core.jsontext.write import jsonable
from core.migrate.chain import Chain
from core.migrate.fork_fields import Written, fork_fields
from core.migrate.standing import RECORD_KEY, start_of
from core.migrate.states import StoredState
from core.stores.server import RemoteStore, ServerRefusal
from core.stores.server_read import blamed_node
from core.stores.server_unbrick import OVERWRITE
from core.stores.unbrick import UnbrickCode, UnbrickError
from core.validate.entry_run import entry_graph

__all__ = ["Written", "write_server_fork"]


def write_server_fork(
    store: RemoteStore, chain: Chain, records: Any, read: StoredState, candidate: type[BaseModel]
) -> Written | None:
    """Fork the thread's head as the plan migrates it, its `migration` record in the fork's
    metadata; None when the head, read now (the thread list's values can lag a write by a
    moment), needs no change.

    The state migrated is the head's as stored (`_as_stored`). Only the head is read
    (get_history's page of one): the server prepares each listed
    checkpoint's pending tasks under the model it serves now, and an older checkpoint
    stopped before a node, its state of an older version, is refused. LangGraph names the
    node that wrote the head, as on a database; only when two nodes wrote its step is the
    one before it read, to name the first of them.
    """
    page = _history(store, read.thread_id, 1)
    if not page:
        return None
    head = StoredState(read.thread_id, str(page[0]["checkpoint"]["checkpoint_id"]), read.step,
                       read.source, _as_stored(read.state, page[0].get("values")), True,
                       json_mode=True)  # fmt: skip
    fields = fork_fields(chain.plan(start_of(chain, records, head)), head, candidate)
    if fields is None:
        return None
    channels = entry_graph(candidate).channels  # the candidate's reducers, as LangGraph reads them
    values = {k: {OVERWRITE: jsonable(v)} if isinstance(channels.get(k), BinaryOperatorAggregate)
              else jsonable(v) for k, v in fields.items()}  # fmt: skip
    # The API takes no metadata for a fork, but it merges the `checkpoint` object into the
    # configurable, and LangGraph's savers copy a configurable's plain values into the
    # metadata of the checkpoint they write: the record lands where a database's fork has it.
    # No checkpoint id: given one, the server forks it but then lists the thread with that
    # checkpoint's values and next nodes, not the fork's (langgraph-api 0.16); without one
    # it forks the latest, the head just read (it refuses an update while a run is in flight).
    checkpoint = {"thread_id": read.thread_id, "checkpoint_ns": "",
                  **({RECORD_KEY: chain.head} if chain.head else {})}  # fmt: skip
    try:
        try:
            new = _update(store, read.thread_id, values, None, checkpoint)
        except ServerRefusal as refusal:
            if _AMBIGUOUS not in refusal.message:
                raise
            older = _history(store, read.thread_id, 2)
            node = blamed_node(older[1] if len(older) > 1 else None, [])
            new = _update(store, read.thread_id, values,
                          node.split(",")[0].strip() if node else None, checkpoint)  # fmt: skip
    except ServerRefusal as refusal:
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"thread {read.thread_id!r}: the server refused the migrated state "
            f"({refusal.status}: {refusal.message}).",
        ) from None
    return Written(read.thread_id, head.checkpoint_id, str(new["checkpoint"]["checkpoint_id"]))


def _as_stored(listed: Any, served: Any) -> Any:
    """The head's values as stored: the server shows a checkpoint through the graph it serves
    now, so a field the deployed model no longer has (renamed or dropped since) is missing
    from get_history's values; the thread list keeps the values its last run or update left,
    and gives those fields back. The served values win for every field they hold (the list
    can lag a write by a moment)."""
    if not isinstance(served, dict) or not isinstance(listed, dict):
        return served
    return {**{key: value for key, value in listed.items() if key not in served}, **served}


_AMBIGUOUS = "Ambiguous update"  # LangGraph's InvalidUpdateError when two nodes wrote the step


def _history(store: RemoteStore, thread_id: str, limit: int) -> list[dict[str, Any]]:
    try:
        page: list[dict[str, Any]] = store.call(
            lambda: store.client.threads.get_history(thread_id, limit=limit)
        )
    except ServerRefusal as refusal:
        raise UnbrickError(
            UnbrickCode.WRITE_FAILED,
            f"thread {thread_id!r}: the server refused its latest checkpoint "
            f"({refusal.status}: {refusal.message}); nothing was written to it."
            + (_UNFIT if refusal.status == 400 else ""),
        ) from None
    return page


# LangGraph prepares a checkpoint's pending tasks under the graph the server serves, both to
# show it and before forking it: the server cannot fork such a thread through its API.
_UNFIT = (
    " The thread waits on a node whose input the graph the server serves now refuses (its "
    "state is of an older version). Apply the migration to the database the server's "
    "checkpointer writes (its file or DSN)."
)


def _update(
    store: RemoteStore, thread_id: str, values: dict[str, Any], node: str | None,
    checkpoint: dict[str, Any],
) -> dict[str, Any]:  # fmt: skip
    new: dict[str, Any] = store.call(
        lambda: store.client.threads.update_state(
            thread_id,
            values,
            as_node=node,
            checkpoint=checkpoint,
        )
    )
    return new
