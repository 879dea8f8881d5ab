"""The migration plan as a grid of our own inputs: one line of cells per step, and a last
line for a new step; every key typed stays in its cell.

Streamlit's data editor lost keys at a typist's pace (issue 41, items 4 and 8): "status"
typed into a new row at 40 ms a key became "atus", and Tab piled the next cells' text into
that cell. Plain inputs take every key the browser gives them, and Tab moves between them
natively. Each cell is committed on Enter or when it loses focus, as the grid's cells were.
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from core.migrate.plan import ACTIONS, MAX_STEPS
from ui import keys
from ui.text import plain
from ui.threads.migrate.cells import unticked
from ui.threads.migrate.plan_table import COLUMNS, JSON_COLUMNS

__all__ = ["CELLS", "cell_key", "plan_grid"]

CELLS = ("path", "action", *JSON_COLUMNS)  # what a line's inputs hold, in their order
_HELP = {
    "path": "Field names joined by dots; [*] after a list's name: items[*].sku",
    "action": f"What the step does: {', '.join(ACTIONS)}",
    "value": "default: the value to set",
    "from": "map: the old value",
    "to": "map: the new value; rename: the new name; coerce: int, float, str or bool",
}


# The action's box holds its longest name ("default") and the arrow, on a phone too
_ACTION_PX = 104
_HEAD = keys.part(keys.THREADS_MIGRATE_STEPS, "head")  # the captions' row over the lines
# A step's line is one row at 1400 px. Below Streamlit's phone breakpoint (its columns stack
# at 640 px) five fields in one row were 46 px each, "statu" in view: there a step is a card,
# its path the whole width, then two fields a row, each under its name (the head row's names
# would not be over them). The action box's "Clear value" button, which a chosen action
# adds, is shown under the pointer only: as a Tab stop of its own it took the key typed
# after Tab from the action box, so each next value landed one field back (a step typed at
# 40 ms a key read value "shipped", from "confirmed"). Fixed text only, no user data.
_CELL = f".st-key-{keys.THREADS_MIGRATE_STEPS} [data-testid='stHorizontalBlock'] > div"
_STYLE = (
    f"""<style>
.st-key-{keys.THREADS_MIGRATE_STEPS} [data-testid='stSelectbox']:not(:hover)
    button[aria-label='Clear value'] {{ display: none; }}
@media (max-width: 640px) {{
  .st-key-{_HEAD} {{ display: none; }}
  .st-key-{keys.THREADS_MIGRATE_STEPS} [data-testid='stHorizontalBlock'] {{
    flex-wrap: wrap; row-gap: 0.25rem; }}
  {_CELL} {{ flex: 1 1 calc(50% - 0.5rem); width: auto !important; min-width: 0; }}
  {_CELL}:first-child {{ flex-basis: 100%; }}
  {_CELL}::before {{ font-size: 0.75rem; opacity: 0.6; line-height: 1.2; }}
"""
    + "".join(
        f"  {_CELL}:nth-child({n})::before {{ content: '{name}'; }}\n"
        for n, name in enumerate(CELLS, start=1)
    )
    + "}\n</style>"
)


def cell_key(generation: int, row: int, column: str) -> str:
    """The widget key of the cell at `row` (0-based), `column` of the plan's grid, in the
    grid's `generation` (a new one after each new start): `threads_migrate_steps__0-path`.

    Example:
        >>> cell_key(0, 0, "path"), cell_key(2, 1, "to")
        ('threads_migrate_steps__0-path', 'threads_migrate_steps-2__1-to')
    """
    return keys.part(keys.generation(keys.THREADS_MIGRATE_STEPS, generation), f"{row}-{column}")


def _typed(generation: int, row: int) -> bool:
    """Whether any cell of `row` holds something (its widgets' values this run)."""
    return any(
        st.session_state.get(cell_key(generation, row, column)) not in (None, "")
        for column in CELLS
    )


def _lines(generation: int, base: list[dict[str, Any]]) -> int:
    """How many lines the grid draws: the base rows and every line typed into (a line
    emptied between two typed ones stays, empty), then one empty line for a new step (none
    past the plan's limit of steps)."""
    # Only lines drawn before can hold text, and they are the first ones: the look stops at
    # the first line never drawn (all 200 lines' cells were 40 ms of each run, a tenth of it)
    count = len(base)
    row = 0
    while row < MAX_STEPS and cell_key(generation, row, CELLS[0]) in st.session_state:
        if _typed(generation, row):
            count = max(count, row + 1)
        row += 1
    return min(count + 1, MAX_STEPS)


def _cell(generation: int, row: int, column: str, start: Any) -> None:
    key = cell_key(generation, row, column)
    label = plain(f"step {row + 1}, {column}")  # its accessible name
    if column == "action":
        first = ACTIONS.index(start) if start in ACTIONS else None
        st.selectbox(label, ACTIONS, index=first, key=key, label_visibility="collapsed",
                     width=_ACTION_PX, placeholder="action")  # fmt: skip
    else:
        st.text_input(label, value=str(start or ""), key=key, label_visibility="collapsed",
                      placeholder=column, width="stretch")  # fmt: skip


def plan_grid(generation: int, base: list[dict[str, Any]]) -> pd.DataFrame:
    """The plan's steps drawn as lines of inputs (`base`: the rows they start from, in the
    `generation` they belong to); returns the lines as the table `read_rows` reads (the
    `asked` and `note` of a base row kept, an added line's empty)."""
    lines = _lines(generation, base)
    st.html(_STYLE)
    with st.container(key=keys.THREADS_MIGRATE_STEPS):
        with st.container(horizontal=True, wrap=False, gap="small", key=_HEAD):
            for column in CELLS:
                if column == "action":
                    st.caption(column, width=_ACTION_PX, help=_HELP[column])
                else:
                    st.caption(column, width="stretch", help=_HELP[column])
        for row in range(lines):
            start = base[row] if row < len(base) else {}
            with st.container(horizontal=True, wrap=False, gap="small"):
                for column in CELLS:
                    _cell(generation, row, column, start.get(column))
            note = unticked(str(start.get("note") or ""))
            asked = "Asked: the proposal could not choose this value; choose it. " * bool(
                start.get("asked")
            )
            if note or asked:
                st.caption(plain(f"{asked}{note}"))
    table = []
    for row in range(lines):
        start = base[row] if row < len(base) else {"asked": None, "note": ""}
        cells = {c: st.session_state.get(cell_key(generation, row, c)) or "" for c in CELLS}
        table.append(cells | {"asked": start["asked"], "note": start["note"]})
    frame = pd.DataFrame(table, columns=list(COLUMNS))
    frame["asked"] = frame["asked"].astype("boolean")
    return frame
