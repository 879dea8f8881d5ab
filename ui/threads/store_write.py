"""Every write to a checkpoint store from the Threads page (an unbrick fork, a migration's
forks) the same way: one sentence before it, the write said plainly when the store refuses
it, the rows it wrote, and what to do next (resume the thread)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import pandas as pd
import streamlit as st

from core.errors import CodedError, ErrorCode
from core.stores.backends.any_store import is_server
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from core.stores.unbrick import UnbrickError
from ui import keys
from ui.threads.coded import show_coded
from ui.threads.columns import fit_words
from ui.threads.listing import short_ids
from ui.threads.source import StoreChoice

__all__ = [
    "WRITTEN_COLUMNS",
    "planned_table",
    "resume_code",
    "resume_input",
    "server_assistant",
    "store_write",
    "what_next",
    "written_table",
]

T = TypeVar("T")
# The rows a write wrote, named as `python -m core migrate --json` names them.
WRITTEN_COLUMNS = ["thread_id", "from_checkpoint_id", "new_checkpoint_id"]
_SHOWN = ["thread", "from checkpoint", "new checkpoint"]
_CHECKPOINTS = {"from checkpoint": "from_checkpoint_id", "new checkpoint": "new_checkpoint_id"}
_LISTED = 20  # thread ids written into the resume code; the written table has them all


def store_write(write: Callable[[], T], *, after: str) -> T | None:
    """What `write()` wrote, or None after saying why nothing was: our coded error whole, a
    driver's by its type only (its text may quote the DSN), then `after` (what to check)."""
    try:
        return write()
    except UnbrickError as error:
        show_coded("Not written", error)
    except Exception as error:  # noqa: BLE001 - the driver's text may quote the DSN
        refused = f"the store refused the write ({type(error).__name__}); {after}"
        show_coded("Not written", CodedError(ErrorCode.STORE_WRITE_FAILED, refused))
    return None


def planned_table(rows: Sequence[dict[str, str]], key: str) -> None:
    """What a write will write, one row per new checkpoint, under the names `rows` give its
    columns (thread, from checkpoint, ..., fields written: their JSON, in a wide column)."""
    wide = {"fields written": st.column_config.TextColumn(width="large")}
    st.dataframe(pd.DataFrame(list(rows), dtype=str), key=key, hide_index=True,
                 column_config=wide)  # fmt: skip


def written_table(rows: Sequence[dict[str, str]], key: str, **layout: Any) -> pd.DataFrame:
    """The rows written (thread, the checkpoint forked from, the new one), drawn; returns
    them under their JSON names (the downloads' columns)."""
    frame = pd.DataFrame(list(rows), columns=WRITTEN_COLUMNS, dtype=str)
    ids = list(dict.fromkeys([*frame["from_checkpoint_id"], *frame["new_checkpoint_id"]]))
    short = dict(zip(ids, short_ids(ids), strict=True))  # whole in the downloads and JSON
    shown = frame.set_axis(_SHOWN, axis="columns").assign(
        **{name: frame[column].map(short) for name, column in _CHECKPOINTS.items()}
    )
    st.dataframe(shown, key=key, **fit_words({"hide_index": True} | layout, shown))
    return frame


def resume_code(
    choice: StoreChoice, threads: Sequence[str], assistant: str | None, given: str = "None"
) -> str:
    """The call that runs `threads` on from their latest checkpoint: LangGraph's own
    `invoke(None, ...)` on a file or database, the SDK's `runs.wait` on a server (`given`:
    the input, as Python; None resumes what is due).

    Example:
        >>> demo = StoreChoice("x.sqlite", "demo store", "demo")
        >>> print(resume_code(demo, ["t-1"], None))
        # graph: your graph, compiled with a checkpointer on this store
        graph.invoke(None, {"configurable": {"thread_id": "t-1"}})
    """
    listed = [json.dumps(thread, ensure_ascii=False) for thread in threads[:_LISTED]]
    more = len(threads) - len(listed)
    if is_server(choice.spec):
        lines = [
            "from langgraph_sdk import get_sync_client",
            "",
            f"client = get_sync_client(url={json.dumps(choice.label)})",
        ]
        named = json.dumps(assistant or "agent", ensure_ascii=False)
        call = f"client.runs.wait(<thread>, {named}, input={given})"
        if assistant is None:
            lines.append('# "agent": the assistant (or graph id) that ran the thread')
    else:
        lines = ["# graph: your graph, compiled with a checkpointer on this store"]
        call = f'graph.invoke({given}, {{"configurable": {{"thread_id": <thread>}}}})'
    if len(listed) == 1 and not more:
        return "\n".join([*lines, call.replace("<thread>", listed[0])])
    loop = [
        f"for thread_id in [{', '.join(listed)}]:",
        "    " + call.replace("<thread>", "thread_id"),
    ]
    if more:
        loop.insert(0, f"# the first {len(listed)} of {len(threads)}: the table lists them all")
    return "\n".join([*lines, *loop])


def server_assistant(choice: StoreChoice, thread_id: str) -> str | None:
    """The assistant a server's thread is resumed with: the one the page reads (--assistant),
    else the graph that ran the thread (its metadata's graph_id); None for any other store,
    or when the server does not say."""
    if not is_server(choice.spec) or choice.assistant:
        return choice.assistant
    try:
        with open_any(choice.spec, strict_serde([])) as store:
            found: dict[str, Any] | None = store.pick(
                database=lambda _: None, server=lambda server: server.thread(thread_id)
            )
    except Exception:  # noqa: BLE001 - only a hint: the code then names a placeholder
        return None
    if found is None:
        return None
    graph = (found.get("metadata") or {}).get("graph_id")
    return str(graph) if graph else None


def resume_input(pending: Sequence[str]) -> str:
    """The input a written thread's resume call passes, as Python: None runs the nodes due
    at its new checkpoint (`pending`); with none due its run had ended, and its next input
    starts a new one.

    Example:
        >>> resume_input(["confirm"]), resume_input([])
        ('None', 'new_input')
    """
    return "None" if pending else "new_input"


def what_next(
    choice: StoreChoice,
    pending: Mapping[str, Sequence[str]],
    said: Mapping[str, str],
    assistant: str | None = None,
) -> None:
    """After a write: for the written threads (`pending`: each one's nodes due at its new
    checkpoint) resumed with None, then those that take their next input (resume_input),
    what they do next (`said`, by that input) and the call."""
    box = st.container(key=keys.THREADS_WRITE_NEXT)
    for given in ("None", "new_input"):
        threads = [thread for thread, due in pending.items() if resume_input(due) == given]
        if threads:
            box.caption(said[given])
            code = resume_code(choice, threads, assistant, given)
            box.code(code, language="python", wrap_lines=True)
