"""A chain of plans in the Migrate section: its upload (several TOML files), the chain in
order, and where each thread of the store stands in it."""

from __future__ import annotations

from itertools import islice

import pandas as pd
import streamlit as st
from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.migrate.chain import MAX_PLANS, Chain
from core.migrate.plan import MAX_PLAN_BYTES
from core.migrate.standing import Standing, chain_standing
from core.stores.errors import coded
from core.stores.reader import open_any
from core.stores.serde import strict_serde
from ui import keys
from ui.heavy import heavy_slot
from ui.threads.coded import show_coded
from ui.threads.migrate.cells import unticked
from ui.threads.migrate.chained import read_chain, serde_models
from ui.threads.source import StoreChoice

__all__ = ["chain_picker", "chain_table", "standing_table"]

_SHOWN_THREADS = 1000  # rows of the standing table: a store of more says so
_UPLOAD_CEILING_MB = 1  # per file, as the one plan's upload: the page says its own limit
# Streamlit's limit is whole megabytes: the box's "Limit 1MB per file" hidden, so the page
# says one limit, the label's (as the one plan's upload does)
_UPLOAD_STYLE = f"""<style>
.st-key-{keys.THREADS_MIGRATE_CHAIN_UPLOAD} [data-testid="stFileUploaderDropzoneInstructions"] {{
  display: none; }}
</style>"""


def _uploaded() -> None:
    """The uploaded files, read as one chain; a refusal keeps the files and the chain before."""
    st.session_state.pop(keys.THREADS_MIGRATE_CHAIN_ERROR, None)
    files = st.session_state.get(keys.THREADS_MIGRATE_CHAIN_UPLOAD) or []
    if not files:
        return
    try:
        chain = read_chain([(file.name, file.getvalue()) for file in files])
    except CodedError as error:
        st.session_state[keys.THREADS_MIGRATE_CHAIN_ERROR] = error
        return
    st.session_state[keys.THREADS_MIGRATE_CHAIN] = chain


def _cleared() -> None:
    st.session_state.pop(keys.THREADS_MIGRATE_CHAIN, None)
    st.session_state.pop(keys.THREADS_MIGRATE_CHAIN_ERROR, None)


def chain_picker() -> Chain | None:
    """The chain's upload, and why the last files were refused; returns the chain in use
    (None: the table's one plan)."""
    st.html(_UPLOAD_STYLE)  # the box's own "1MB per file" said otherwise than the label
    st.file_uploader(
        f"Or upload a chain: several plans (TOML), each with its id, every one but the first "
        f"with the after it follows (up to {MAX_PLANS} files of {MAX_PLAN_BYTES // 1000:,} KB)",
        type=["toml"],
        accept_multiple_files=True,
        key=keys.THREADS_MIGRATE_CHAIN_UPLOAD,
        on_change=_uploaded,
        max_upload_size=_UPLOAD_CEILING_MB,
    )
    chain: Chain | None = st.session_state.get(keys.THREADS_MIGRATE_CHAIN)
    refused = st.session_state.get(keys.THREADS_MIGRATE_CHAIN_ERROR)
    if isinstance(refused, CodedError):
        kept = "the chain below is unchanged" if chain is not None else "the table's plan stays"
        said = CodedError(ErrorCode(refused.code), unticked(refused.message))
        show_coded(f"The uploaded files are not one chain ({kept})", said)
    if chain is None:
        return None
    st.button("Use the table's plan instead", key=keys.THREADS_MIGRATE_CHAIN_CLEAR,
              on_click=_cleared)  # fmt: skip
    if st.session_state.get(keys.THREADS_MIGRATE_CHAIN_TO) not in chain.ids:
        st.session_state[keys.THREADS_MIGRATE_CHAIN_TO] = chain.ids[-1]  # a new chain: whole
    stop = st.selectbox(
        "Stop after the plan", chain.ids, key=keys.THREADS_MIGRATE_CHAIN_TO,
        help="As migrate --to ID: the plans after it are not applied (nor counted) yet.",
    )  # fmt: skip
    return chain.to(stop)


def chain_table(chain: Chain) -> None:
    """The chain's plans in the order they apply."""
    st.caption("The chain, in the order its plans apply to a thread (each from where it stands)")
    frame = pd.DataFrame(
        {
            "plan": [link.id for link in chain.links],
            "after": [link.plan.after or "" for link in chain.links],
            "model": [link.plan.model or "" for link in chain.links],
            "steps": pd.Series([len(link.plan.steps) for link in chain.links], dtype="int64"),
            "file": [link.file for link in chain.links],
        }
    )
    st.dataframe(frame, key=keys.THREADS_MIGRATE_CHAIN_TABLE, hide_index=True)


def _no_standing() -> None:
    """A cancelled wait: the table is left out of this run."""


def standing_table(
    choice: StoreChoice, model: type[BaseModel], candidate: type[BaseModel], chain: Chain
) -> None:
    """Each thread's place in the chain: its newest migration record, the plan it stands
    after and the plans still to apply (the first _SHOWN_THREADS threads)."""
    try:
        with (
            heavy_slot(keys.THREADS_MIGRATE_PREVIEW, "Where each thread stands", _no_standing),
            open_any(choice.spec, strict_serde(serde_models(model, candidate, chain)),
                     assistant=choice.assistant) as store,
        ):  # fmt: skip
            rows = [row for row in islice(chain_standing(store, chain, model), _SHOWN_THREADS + 1)
                    if isinstance(row, Standing)]  # fmt: skip
    except Exception as error:  # noqa: BLE001 - a store is untrusted: coded, never a traceback
        st.error("The store cannot be read:")
        st.code(str(coded(error, choice.label)), language=None, wrap_lines=True)
        return
    more = len(rows) > _SHOWN_THREADS
    st.caption(
        "Where each thread stands: after the plan its newest migration record names, else "
        "the newest plan whose model accepts its latest state, else before the first"
        + (f" (the first {_SHOWN_THREADS:,} threads)" if more else "")
    )
    shown = rows[:_SHOWN_THREADS]
    frame = pd.DataFrame(
        {
            "thread": [row.thread_id for row in shown],
            "after": [row.after or "(before the first)" for row in shown],
            "to apply": [", ".join(row.pending) or "(none)" for row in shown],
            "record": [row.record or "" for row in shown],
            "checkpoint": [row.checkpoint_id for row in shown],
        }
    )
    st.dataframe(frame, key=keys.THREADS_MIGRATE_STANDING, hide_index=True)
