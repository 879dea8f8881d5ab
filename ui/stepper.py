"""A stepper over any rows (a trace's steps, a stored thread's checkpoints): Prev, Next, slider."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from ui import keys

__all__ = ["move_step", "step_controls"]

# On a phone the slider sat beside Prev / Next in 199 px, and its value's label, drawn over
# its thumb, is wider than that: at the last row ("checkpoint 4 of 4 · step 2 · loop ·
# invalid", 227 px) it ran left over the Next button. There the slider takes a row of its
# own under the buttons. (Static CSS, no user data: style-only HTML takes no place.)
_ROW = "stepper"
_STYLE = f"""<style>
@media (max-width: 640px) {{
  [class*="__{_ROW}"] > :has([data-testid="stSlider"]) {{ flex-basis: 100%; min-width: 100%; }}
}}
</style>"""


def move_step(delta: int, last: int, slider: str = keys.STEP_SLIDER) -> None:
    """Prev/Next callback: the stepper `slider` moves by `delta` rows within 0..last."""
    current = st.session_state.get(slider, 0)
    st.session_state[slider] = min(max(current + delta, 0), last)


def step_controls(count: int, option: Callable[[int], str], *, slider: str, label: str) -> int:
    """The stepper itself, for any `count` rows: Prev / Next side by side (their keys follow
    from `slider`: `keys.step_button`), then a slider whose option `i` reads `option(i)`.
    Returns the chosen row; `slider` must already hold a row in 0..count-1 (or nothing)."""
    last = count - 1
    current = st.session_state.get(slider, 0)
    # One row: the buttons stay side by side even on a phone, where st.columns would stack
    # them above and below the slider; the slider wraps under them when the row is narrow.
    st.html(_STYLE)
    with st.container(
        horizontal=True, vertical_alignment="center", gap="small", key=keys.part(slider, _ROW)
    ):
        # The buttons in a row of their own, which never wraps: only the slider moves under
        # them when the screen is narrow.
        with st.container(horizontal=True, width="content", gap="small"):
            st.button(
                "◀ Prev",
                key=keys.step_button(slider, "prev"),
                on_click=move_step,
                args=(-1, last, slider),
                disabled=current <= 0,
                help="The previous row",
            )
            st.button(
                "Next ▶",
                key=keys.step_button(slider, "next"),
                on_click=move_step,
                args=(1, last, slider),
                disabled=current >= last,
                help="The next row",
            )
        chosen: int = st.select_slider(
            label,
            options=list(range(count)),
            format_func=option,
            key=slider,
            persist_state="session",
            label_visibility="collapsed",
            width="stretch",
        )
        return chosen
