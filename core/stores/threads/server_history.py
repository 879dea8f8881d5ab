"""One thread's history on a LangGraph server, read in the windows it returns, and what a
checkpoint of it holds: its state, the writes that made it, the node that wrote them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from core.errors import ErrorCode
from core.stores.backends.server import PAGE_LIMIT, RemoteStore, ServerRefusal, server_writes
from core.stores.decode.state import cut_input, json_state_errors
from core.stores.threads.server_entry import checkpoint_id_of, source_of, step_at
from core.stores.threads.writers import Write, blame, violated_fields
from core.validate.channels import write_input
from core.validate.entry_run import entry_graph

__all__ = [
    "HistoryRead",
    "blamed_node",
    "checkpoint_id_at",
    "history",
    "read_history",
    "readable_history",
    "server_written_by",
    "source_of",
    "state_errors_of",
    "step_at",
    "when",
    "writes_of",
]


def when(stamp: Any) -> str:
    """A server's timestamp (a datetime, or ISO text) as ISO text.

    Example:
        >>> from datetime import UTC, datetime
        >>> when(datetime(2026, 12, 4, 12, 0, tzinfo=UTC)), when(None)
        ('2026-12-04T12:00:00+00:00', '')
    """
    if isinstance(stamp, datetime):
        return stamp.isoformat()
    return "" if stamp is None else str(stamp)


_GREGORIAN = 0x01B21DD213814000  # 100 ns intervals from 1582-10-15 to 1970-01-01


def checkpoint_id_at(stamp: Any) -> str:
    """The smallest checkpoint id LangGraph could give a checkpoint written at `stamp` (ISO
    text or a datetime): its ids are version-6 UUIDs, whose text sorts by the time in them.

    Example:
        >>> checkpoint_id_at("2026-12-04T22:30:04.348243+00:00")
        '1f1f0324-0542-613e-8000-000000000000'
    """
    moment = stamp if isinstance(stamp, datetime) else datetime.fromisoformat(str(stamp))
    ticks = round(moment.timestamp() * 1_000_000) * 10 + _GREGORIAN
    high = f"{(ticks >> 12) & 0xFFFF_FFFF_FFFF:012x}"
    return f"{high[:8]}-{high[8:]}-6{ticks & 0xFFF:03x}-8000-000000000000"


@dataclass(frozen=True)
class HistoryRead:
    """What the server returned of a thread's history: its states newest first, and when it
    refused the whole (`refusal`), which parts of it are shown (`shown`: plain words)."""

    states: list[dict[str, Any]]
    refusal: ServerRefusal | None = None
    shown: tuple[str, ...] = ()
    stopped: bool = False  # read up to a full page holding an odd state: older not asked

    @property
    def newest_shown(self) -> bool:
        """Whether the states hold the thread's newest checkpoint (all, or the newest window)."""
        return self.refusal is None or self.shown[:1] == (_NEWEST,)

    def note(self, *, message: bool = True) -> str | None:
        """The coded note the timeline carries for a refused history, or one read up to a
        full page holding an odd state; None when neither; with `message`, the server's
        message (False: the timeline shows the error itself).

        Example:
            >>> refused = HistoryRead([], ServerRefusal(400, "1 validation error"), ("x",))
            >>> refused.note()
            "[server_history_refused] The server answered 400 for this thread's history (1 validation error); shown: x."
            >>> refused.note(message=False)
            "[server_history_refused] The server answered 400 for this thread's history: a stored state fails the graph's model, as the checkpoint below shows; shown: x."
        """  # noqa: E501
        if self.refusal is None:
            return _STOPPED if self.stopped else None
        said = (
            f" ({self.refusal.message})"
            if message
            else ": a stored state fails the graph's model, as the checkpoint below shows"
        )
        return (
            f"[{ErrorCode.SERVER_HISTORY_REFUSED}] The server answered {self.refusal.status} "
            f"for this thread's history{said}; shown: {' and '.join(self.shown)}."
        )


_NEWEST = "its newest checkpoints the server returns"
_STOPPED = (
    f"[{ErrorCode.ROW_NOT_A_CHECKPOINT}] The server's history holds a state that names no "
    "checkpoint, so the checkpoints older than its page could not be asked for; shown: "
    "those up to that page."
)


def read_history(store: RemoteStore, thread_id: str) -> HistoryRead:
    """The thread's history, newest first; or, when the server refuses it (a stored state
    fails the graph's model: every window holding a checkpoint it cannot prepare answers
    400), the windows it does return: the newest checkpoints up to the first it refuses, and
    those before its newest failed run or, with none, before its state was last written.
    Raises `ServerRefusal` when it returns none."""
    try:
        states, stopped = _paged(store, thread_id, None)
        return HistoryRead(states, stopped=stopped)
    except ServerRefusal as refusal:
        if refusal.status == 404:
            raise
        newest = _newest_window(store, thread_id)
        older, failed_at = _before_failed_run(store, thread_id)
        seen = {checkpoint_id_of(s) for s in newest}
        states = newest + [s for s in older if checkpoint_id_of(s) not in seen]
        if not states:
            raise
        states.sort(key=checkpoint_id_of, reverse=True)
        shown = [_NEWEST] if newest else []
        if older:
            shown.append(f"those before {failed_at}")
        return HistoryRead(states, refusal, tuple(shown))


def readable_history(store: RemoteStore, thread_id: str) -> tuple[list[dict[str, Any]], str | None]:
    """`read_history` as the thread's states, newest first, and its coded note (None when
    the server returned the whole history). Raises `ServerRefusal` when it returns none."""
    read = read_history(store, thread_id)
    return read.states, read.note()


def _newest_window(store: RemoteStore, thread_id: str) -> list[dict[str, Any]]:
    """The most newest checkpoints get_history returns in one window (found by halving)."""
    low, high, found = 0, PAGE_LIMIT, list[dict[str, Any]]()
    while low < high:
        size = (low + high + 1) // 2
        try:
            page = store.history_page(thread_id, size)
        except ServerRefusal:
            high = size - 1
            continue
        low, found = size, page
        if len(page) < size:  # the whole history fits: nothing older to look for
            break
    return found


def _before_failed_run(store: RemoteStore, thread_id: str) -> tuple[list[dict[str, Any]], str]:
    """The checkpoints before the newest failed run whose window the server returns, and
    which run; with no such run, those before the thread's state was last written (an
    update_state the server took but cannot prepare the state of)."""
    moments = [(run.get("created_at"), f"the run that failed at {when(run.get('created_at'))}")
               for run in store.failed_runs(thread_id) if isinstance(run, dict)]  # fmt: skip
    if not moments:
        try:
            thread = store.thread(thread_id)
        except ServerRefusal:
            thread = {}
        stamp = thread.get("state_updated_at") if isinstance(thread, dict) else None
        moments = [(stamp, f"its state was last written, at {when(stamp)}")]
    for stamp, said in moments:  # newest first
        try:
            states = history(store, thread_id, before=checkpoint_id_at(stamp))
        except (ServerRefusal, KeyError, ValueError, TypeError):
            continue
        if states:
            return states, said
    return [], ""


def history(
    store: RemoteStore, thread_id: str, *, before: str | None = None
) -> list[dict[str, Any]]:
    """Every root checkpoint of a thread from get_history, newest first, a page at a time
    (`before` the last one read; with `before`, only those older than that checkpoint id).
    An oddly shaped answer (a state that is not an object or names no checkpoint) cannot be
    paged on: the pages read before it are kept and its page is returned as given, each
    state for `read_entry` to judge (`read_history` notes that older ones may be missing).
    Raises `ServerRefusal` when the server refuses it (`Backend.thread_rows`)."""
    return _paged(store, thread_id, before)[0]


def _paged(
    store: RemoteStore, thread_id: str, before: str | None
) -> tuple[list[dict[str, Any]], bool]:
    """`history`, and whether it stopped at an oddly shaped page that was full (older pages
    may follow it, which cannot be asked for): the pages read before it are kept, then that
    page as given."""
    read: list[dict[str, Any]] = []
    try:
        for row in store.thread_rows(thread_id, before=before):
            read.append(row.payload)
        return read, False
    except (KeyError, TypeError, AttributeError):  # a state of the page now read is odd
        whole = len(read) - len(read) % PAGE_LIMIT  # the pages read before it
        after = checkpoint_id_of(read[whole - 1]) if whole else before
        page: Any = store.history_page(thread_id, PAGE_LIMIT, after)
        page = list(page) if isinstance(page, list) else [page]
        return read[:whole] + page, len(page) >= PAGE_LIMIT


def writes_of(parent: dict[str, Any] | None) -> list[tuple[str, str, str, Any]]:
    """The writes that made a checkpoint: its parent's tasks' results, as (task id, node,
    channel, value), in the order the server lists the tasks."""
    return [(w.task_id, w.node or "", w.channel, w.value) for w in server_writes(parent)]


def state_errors_of(
    state: dict[str, Any], model: type[BaseModel]
) -> tuple[Any, list[dict[str, Any]]]:
    """A server checkpoint's state and its errors, in JSON mode. An input checkpoint's state
    is the state so far with its `__start__` task's result (the input) written through the
    model's channels, as LangGraph writes it; what a reducer raised is an error."""
    values = state.get("values")
    if not isinstance(values, dict):
        return values, json_state_errors(values, model)
    tasks = state.get("tasks")
    start = next((task.get("result") for task in (tasks if isinstance(tasks, list) else [])
                  if isinstance(task, dict) and task.get("name") == "__start__"), None)  # fmt: skip
    if source_of(state) != "input" or not isinstance(start, dict):
        return values, json_state_errors(values, model)
    written, raised = write_input(entry_graph(model), values, start)
    return written, [_cut(row) for row in raised] + json_state_errors(written, model)


def _cut(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "loc": list(row["loc"]), "input": cut_input(row["input"])}


def blamed_node(parent: dict[str, Any] | None, errors: list[dict[str, Any]]) -> str | None:
    """`blame` over the writes of `parent`'s tasks (the node(s) whose writes made its child)."""
    writes = [Write(task_id, node, channel) for task_id, node, channel, _ in writes_of(parent)]
    return blame(writes, violated_fields(errors))


def server_written_by(
    state: dict[str, Any], parent: dict[str, Any] | None, errors: list[dict[str, Any]]
) -> str | None:
    """`core.stores.writers.written_by` for a server's checkpoint `state`: None for an input
    checkpoint, else the node(s) of its `parent`'s tasks that wrote it (`blamed_node`)."""
    return None if source_of(state) == "input" else blamed_node(parent, errors)
