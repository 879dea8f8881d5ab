"""Drive the pages' JSON code editor (ui.editor.json_editor) in AppTest, as a text area was driven.

AppTest cannot run the component's JavaScript. What the frontend does after typing is send
`{"text", "rev", "instance", "seq"}` as the widget's value; `editor(at, "payload").input(t)`
sets exactly that value and `.run()` reruns, so the page takes the text in through the same
path as a browser's keystrokes (`ui.editor.payload.editor_text`). `.value` is the text the page
holds and shows (what the old text area's value was).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from streamlit.testing.v1 import AppTest

from ui import keys

__all__ = ["Editor", "editor", "editor_args"]

_SEND = itertools.count(1)


class Editor:
    """One editor of one AppTest run: `.value`, `.input(text).run()`, `.set_value(...)`."""

    def __init__(self, at: AppTest, key: str) -> None:
        self.at, self.key = at, key

    @property
    def value(self) -> str:
        text: str = self.at.session_state[self.key]
        return text

    def args(self) -> dict[str, Any]:
        """What the page sent the frontend in the last run (text, rev, marks, goto, ...)."""
        return editor_args(self.at, self.key)

    def input(self, text: str) -> Editor:
        """Type `text` (the whole content) as the frontend reports it after the debounce."""
        rev = self.args()["rev"]  # the revision the frontend shows: its typing descends from it
        self.at.session_state[keys.editor(self.key)] = {
            "text": text,
            "rev": rev,
            "instance": "apptest",
            "seq": next(_SEND),
        }
        return self

    set_value = input

    def run(self) -> AppTest:
        return self.at.run()


def editor(at: AppTest, key: str) -> Editor:
    """The code editor whose text the page keeps under `key` ("payload", "tool_payload", ...)."""
    return Editor(at, key)


def editor_args(at: AppTest, key: str) -> dict[str, Any]:
    """The arguments of the editor component drawn for `key` in the last run."""
    (element,) = [
        e
        for e in at.get("component_instance")
        if json.loads(e.proto.json_args).get("key") == keys.editor(key)
    ]
    args: dict[str, Any] = json.loads(element.proto.json_args)
    return args
