"""The one form engine: any model's payload as widgets from its JSON Schema, in sync with the
JSON text both ways, each field's errors (Pydantic's own, located by loc) shown under it."""

from __future__ import annotations

from typing import Any, Final

import streamlit as st
from pydantic import BaseModel

from core.jsontext.write import to_text
from core.validate.field_errors import FieldError
from core.validate.json_schema import field_kind, json_schema
from core.validate.report import validate_text
from ui import keys
from ui.editor.payload import NOT_A_FLOAT, form_payload, show_refusal
from ui.text import plain
from ui.validate.form_drafts import box_text, show_held
from ui.validate.form_edits import Path, Shape, shown
from ui.validate.form_table import APPLY, table_editor
from ui.validate.form_write import UNSET, Box, apply_field
from ui.validate.names import spoken

__all__ = ["model_form"]

# Static CSS (no user data): a field's errors sit under it, smaller, with a red rule beside
# them; the text keeps the theme's own colour, so it reads on light and dark themes alike.
_ERRORS = keys.field_key((), "errors")  # every field's errors box: form-errors-<path>
_ERROR_STYLE = f"""<style>
[class*="st-key-{_ERRORS}"] {{ border-left: 3px solid #e5484d; padding-left: 0.6rem;
  margin-top: -0.5rem; }}
[class*="st-key-{_ERRORS}"] [data-testid="stText"] {{ font-size: 0.875rem; }}
</style>"""


class _Form:
    """One render of the form: the schema and the payload's errors, each shown once."""

    def __init__(self, root: dict[str, Any], errors: list[FieldError]) -> None:
        self.root = root
        self.errors = errors
        self.claimed: set[int] = set()

    def show_errors(self, path: Path, *, exact: bool = False) -> None:
        """Every unclaimed error at `path` (and, unless `exact`, below it), as plain text."""
        mine = [
            (n, e)
            for n, e in enumerate(self.errors)
            if n not in self.claimed
            and tuple(map(str, e.loc[: len(path)])) == path
            and (not exact or len(e.loc) == len(path))
        ]
        if not mine:
            return
        self.claimed.update(n for n, _ in mine)
        with st.container(key=keys.field_key(path, "errors")):
            st.text("\n".join(_line(e, path) for _, e in mine))

    def leftovers(self) -> None:
        rest = [e for n, e in enumerate(self.errors) if n not in self.claimed]
        if rest:
            with st.container(key=keys.field_key((), "errors")):
                st.caption("Errors about the payload as a whole, not one field:")
                st.text("\n".join(_line(e, ()) for e in rest))

    def fields(self, node: dict[str, Any], value: dict[str, Any], path: Path) -> None:
        required = set(node.get("required", []))
        properties = node.get("properties", {})
        for name, sub in properties.items():
            self.field(sub, value, (*path, name), name in required)
        for name in value:
            if name not in properties:  # unknown keys stay visible, editable, removable
                self.field({}, value, (*path, name), False, unknown=True)

    def field(
        self,
        sub: dict[str, Any],
        parent: dict[str, Any],
        path: Path,
        required: bool,
        *,
        unknown: bool = False,
    ) -> None:
        kind, node = field_kind(sub, self.root)
        name, key = path[-1], keys.field_key(path)
        note = " (not in the model)" if unknown else "" if required else " (optional)"
        label = plain(name) + note
        present = name in parent
        current = parent.get(name)
        if kind == "object" and (isinstance(current, dict) or not present):
            with st.container(border=True, key=keys.field_key(path, "box")):
                st.caption(f"{label}: nested model {plain(str(node.get('title', '')))}")
                self.show_errors(path, exact=True)
                self.fields(node, current or {}, path)
            return
        if kind == "table" and (isinstance(current, list) or not present):
            table_editor(node, self.root, current or [], path, label)
            self.show_errors(path)
            return
        options = None
        if kind == "choice":
            options = node["enum"] if "enum" in node else [node["const"]] if "const" in node else []
            options = options or [True, False]
        many = isinstance(current, list | dict) or node.get("type") in ("array", "object")
        now = (to_text(current) if many and kind == "json" else shown(current)) if present else ""
        if options is not None:
            now = now if present else UNSET
        # Written only when the JSON text says something else: a write would also replace
        # what the browser holds in that widget, typing included. Text the JSON text did not
        # take stays as typed while the field's value is the one it was typed over.
        if st.session_state.get(key) != (want := box_text(path, now)):
            st.session_state[key] = want
        args = (path, kind, required, options, Box(now, Shape(many, "type" not in node)))
        hint = None  # the model's default, where its schema names one
        if "default" in sub or "default" in node:
            default = shown(sub.get("default", node.get("default")))
            hint = f"Left out, the model uses its default: {plain(default)}"
        # The input's own label (its aria-label) in plain words, hidden; the one shown is
        # escaped for Markdown and carries the default's hint (see ui.validate.names).
        name_of = spoken(str(name) + note)
        hidden: Final = "collapsed"
        with st.container(gap="xxsmall"):
            st.caption(label, help=hint)
            if options is not None:
                choices = [shown(o) for o in options] + ([] if required else [UNSET])
                choices = choices if now in choices else [*choices, now]
                st.selectbox(
                    name_of, choices, key=key, on_change=apply_field, args=args,
                    label_visibility=hidden,
                )  # fmt: skip
            elif many and kind == "json":
                st.text_area(
                    name_of, key=key, on_change=apply_field, args=args, label_visibility=hidden
                )
            else:
                st.text_input(
                    name_of, key=key, on_change=apply_field, args=args, label_visibility=hidden
                )
        show_held(path)
        show_refusal(keys.field_key(path, "notice"), NOT_A_FLOAT)
        self.show_errors(path)


def _line(error: FieldError, path: Path) -> str:
    where = error.path if len(error.loc) > len(path) or not path else ""
    return f"✗ {where + ': ' if where else ''}{error.msg} ({error.type})"


def model_form(text: str, model: type[BaseModel], errors: list[FieldError] | None = None) -> None:
    """Widgets for every field of `model`; each edit rewrites the JSON text (key `payload`).

    Widget keys depend on the field path only (`form_<path>`, see `field_key`): a list of
    objects is a data editor under its field's key, in a form of its own whose button writes
    its edits (no script run while a row is typed), kept (data and key) while its edits are
    what the JSON text says. Under each field, the errors
    Pydantic gives for the current text at that field's loc (`errors`: the page's
    `validate_text(text, model).errors`, computed here when not given); unknown keys get a
    field too.
    """
    payload = form_payload(text)
    if payload is None:
        return
    st.caption(
        "Generated from the model's JSON Schema. It edits the JSON text under it: one "
        "payload, two views, each edit in one shows in the other. Text fields stay strings; "
        "other fields are read as JSON (numbers, true/false, lists). Leave an optional field "
        "empty to leave it out. In a table, Tab moves to the next cell, Enter to the one under it, "
        "and "
        f"{APPLY} writes the table's edits to the JSON text."
    )
    st.html(_ERROR_STYLE)
    schema = json_schema(model)
    form = _Form(schema, validate_text(text, model).errors if errors is None else errors)
    top = st.container()
    form.fields(schema, payload, ())
    with top:
        form.leftovers()
