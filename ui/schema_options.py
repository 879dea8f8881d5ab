"""Schema options: the knobs of the order model, as widgets in a popover."""

from __future__ import annotations

from typing import Any, Literal, get_args

import streamlit as st

from core.order.schema_options import SchemaOptions
from ui import keys
from ui.text import plain

__all__ = ["current_options", "schema_options_form"]

Extra = Literal["forbid", "ignore", "allow"]  # SchemaOptions.extra
# Each option's widget label, also how the line under the popover names a changed one.
LABELS = {
    "strict": "strict mode",
    "extra": "extra",
    "strip_state": "strip whitespace (AgentState)",
    "strip_item": "strip whitespace (LineItem)",
    "items_max": "items max_length",
    "amount_ge": "amount ge",
    "amount_le": "amount le",
}


def schema_options_form() -> SchemaOptions:
    """Render the schema options and return the effective options.

    A share link stores its options under `st.session_state[keys.SCHEMA_OPTIONS]`; they are
    copied into the widgets' session state once, before the widgets render. The widgets are
    in a popover and sent only while it is open (`keys.SCHEMA_OPTIONS_MENU`).
    """
    restored = st.session_state.pop(keys.SCHEMA_OPTIONS, None)
    defaults = SchemaOptions()
    for name, given in {**defaults.to_dict(), **(restored or {})}.items():
        if restored is not None or keys.option(name) not in st.session_state:
            st.session_state[keys.option(name)] = given
    value = _stored()  # the widgets' values before they render (set by a click, a link)
    changed = {name: now for name, now in value.items() if now != getattr(defaults, name)}
    # A popover whose widgets are sent only while it is open (opening it reruns): closed, its
    # seven widgets cost every rerun's commits in the browser about 40 React components each.
    # The values live in session state either way (persist_state keeps them while unsent).
    # Its label never changes: Streamlit would take a new label for a new popover and close it.
    menu = st.popover(
        "Schema options", icon=":material/tune:", key=keys.SCHEMA_OPTIONS_MENU, on_change="rerun"
    )
    if menu.open:
        with menu:
            _widgets()
    if changed:
        st.caption(
            "Changed from the defaults: "
            + plain(", ".join(f"{LABELS[name]} {_said(now)}" for name, now in changed.items()))
        )
    try:
        return SchemaOptions(
            strict=bool(value["strict"]),
            extra=value["extra"],
            strip_state=bool(value["strip_state"]),
            strip_item=bool(value["strip_item"]),
            items_max=int(value["items_max"]),
            amount_ge=float(value["amount_ge"]),
            amount_le=float(value["amount_le"]),
        )
    except ValueError as exc:
        st.warning("These schema options do not fit together; the seed model is used.")
        st.code(str(exc), language=None, wrap_lines=True)
        return defaults


def _said(value: object) -> str:
    """An option's value as the line under the popover says it: on/off, or as set."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _widgets() -> None:
    """The seven options, two or three a row, each bound to its session state key."""
    # Two a row: four to a row cut both "strip whitespace (…)" labels to the same text.
    first = st.columns(2)
    first[0].toggle(
        LABELS["strict"],
        key=keys.option("strict"),
        persist_state="session",
        help='`ConfigDict(strict=True)`: no coercion, so "2" is not accepted as 2.',
    )
    first[1].selectbox(
        LABELS["extra"], get_args(Extra), key=keys.option("extra"), persist_state="session"
    )
    second = st.columns(2)
    second[0].toggle(LABELS["strip_state"], key=keys.option("strip_state"), persist_state="session")
    second[1].toggle(LABELS["strip_item"], key=keys.option("strip_item"), persist_state="session")
    third = st.columns(3)
    third[0].number_input(
        LABELS["items_max"],
        0,
        100_000,
        step=1,
        key=keys.option("items_max"),
        persist_state="session",
        help="`Field(max_length=…)` on items: the most line items an order may have.",
    )
    # "%g" shows the bound the model uses, every digit ("%0.2f" showed 0.009 as 0.01).
    for column, bound, what in ((third[1], "ge", "smallest"), (third[2], "le", "largest")):
        column.number_input(
            LABELS[f"amount_{bound}"],
            format="%g",
            key=keys.option(f"amount_{bound}"),
            persist_state="session",
            help=f"`Field({bound}=…)` on amount: the {what} amount accepted.",
        )


def _stored(pending: dict[str, Any] | None = None) -> dict[str, Any]:
    """Each option's value: `pending`'s (a share link's, not yet in the widgets), else the
    widget's in session state, else the default."""
    return {
        name: (pending or {}).get(name, st.session_state.get(keys.option(name), default))
        for name, default in SchemaOptions().to_dict().items()
    }


def current_options() -> SchemaOptions:
    """The schema options this session set on the Validate page (the defaults if none).

    A share link's options not yet copied into the Validate page's widgets come first.
    Options that do not fit together give the defaults, as on the Validate page.
    """
    try:
        return SchemaOptions.from_dict(_stored(st.session_state.get(keys.SCHEMA_OPTIONS) or {}))
    except ValueError:
        return SchemaOptions()
