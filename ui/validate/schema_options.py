"""Schema options: the knobs of the order model, as widgets in a popover."""

from __future__ import annotations

from typing import Literal, get_args

import streamlit as st

from core.order.schema_options import SchemaOptions
from ui import keys

__all__ = ["current_options", "schema_options_form"]

Extra = Literal["forbid", "ignore", "allow"]  # SchemaOptions.extra


def schema_options_form() -> SchemaOptions:
    """Render the schema options and return the effective options.

    A share link stores its options under `st.session_state[keys.SCHEMA_OPTIONS]`; they are
    copied into the widgets once, before the widgets render.
    """
    restored = st.session_state.pop(keys.SCHEMA_OPTIONS, None)
    defaults = SchemaOptions()
    for name, value in {**defaults.to_dict(), **(restored or {})}.items():
        if restored is not None or keys.option(name) not in st.session_state:
            st.session_state[keys.option(name)] = value
    changed = any(
        st.session_state[keys.option(name)] != value for name, value in defaults.to_dict().items()
    )
    # A popover, not an expander: a closed expander still draws its seven widgets in the
    # browser on every rerun of the page (they are in the DOM), a closed popover draws none.
    label = "Schema options" + (" (changed)" if changed else "")
    with st.popover(label, icon=":material/tune:"):
        # Two a row: four to a row cut both "strip whitespace (…)" labels to the same text.
        first = st.columns(2)
        strict = first[0].toggle(
            "strict mode",
            key=keys.option("strict"),
            persist_state="session",
            help='`ConfigDict(strict=True)`: no coercion, so "2" is not accepted as 2.',
        )
        extra: Extra = first[1].selectbox(
            "extra", get_args(Extra), key=keys.option("extra"), persist_state="session"
        )
        second = st.columns(2)
        strip_state = second[0].toggle(
            "strip whitespace (AgentState)", key=keys.option("strip_state"), persist_state="session"
        )
        strip_item = second[1].toggle(
            "strip whitespace (LineItem)", key=keys.option("strip_item"), persist_state="session"
        )
        third = st.columns(3)
        items_max = third[0].number_input(
            "items max_length",
            0,
            100_000,
            step=1,
            key=keys.option("items_max"),
            persist_state="session",
            help="`Field(max_length=…)` on items: the most line items an order may have.",
        )
        # "%g" shows the bound the model uses, every digit ("%0.2f" showed 0.009 as 0.01).
        amount_ge, amount_le = (
            column.number_input(
                f"amount {bound}",
                format="%g",
                key=keys.option(f"amount_{bound}"),
                persist_state="session",
                help=f"`Field({bound}=…)` on amount: the {what} amount accepted.",
            )
            for column, bound, what in (
                (third[1], "ge", "smallest"),
                (third[2], "le", "largest"),
            )
        )
    try:
        return SchemaOptions(
            strict=strict,
            extra=extra,
            strip_state=strip_state,
            strip_item=strip_item,
            items_max=int(items_max),
            amount_ge=float(amount_ge),
            amount_le=float(amount_le),
        )
    except ValueError as exc:
        st.warning("These schema options do not fit together; the seed model is used.")
        st.code(str(exc), language=None, wrap_lines=True)
        return defaults


def current_options() -> SchemaOptions:
    """The schema options this session set on the Validate page (the defaults if none).

    A share link's options not yet copied into the Validate page's widgets come first.
    Options that do not fit together give the defaults, as on the Validate page.
    """
    pending = st.session_state.get(keys.SCHEMA_OPTIONS) or {}
    values = {
        name: pending.get(name, st.session_state.get(keys.option(name), value))
        for name, value in SchemaOptions().to_dict().items()
    }
    try:
        return SchemaOptions.from_dict(values)
    except ValueError:
        return SchemaOptions()
