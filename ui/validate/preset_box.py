"""The Validate page's preset box: the one preset picker (ui.project.preset_picker) showing
the preset the payload holds, and a load unticks the error table's row (the row belonged to
the text the preset replaced)."""

from __future__ import annotations

from functools import partial

from ui.errors.view import forget_selection
from ui.project import load_preset, loaded_preset, preset_picker

__all__ = ["PLACEHOLDER", "load_fresh", "loaded_preset", "preset_box"]

PLACEHOLDER = "Load a preset payload…"


def load_fresh(label: str, text: str, table: str) -> None:
    """Load a preset's `text` (a widget callback) with no row of the error table `table`
    ticked: "Selected error at 2:14" was said of the payload replaced (issue 41, item 6)."""
    load_preset(label, text)
    forget_selection(table)


def preset_box(presets: dict[str, tuple[str, str]], text: str, *, key: str, table: str) -> None:
    """The preset picker over `presets`, showing the one `text` holds (its placeholder once
    the text is edited, so it never names a preset the text no longer is), with nothing
    under it: a load moves nothing below the box (issue 41, item 9).

    Drawn on every run of the editor's fragment, after the text is read: the box follows
    each edit, where one drawn above the fragment kept its placeholder.
    """
    preset_picker(
        presets,
        key=key,
        placeholder=PLACEHOLDER,
        text=text,
        on_load=partial(forget_selection, table),
    )
