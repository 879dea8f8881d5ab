"""Where the server's store comes from: --store, playground.toml's `store`, PLAYGROUND_STORE
(and, for a LangGraph server, which graph's threads: --assistant, `assistant`, its variable)."""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from core.project import CONFIG_FILE
from core.project.checks import ProjectError
from core.project.load import playground_table
from core.stores.backends.open import STORE_ENV
from core.stores.errors import StoreCode, StoreError

__all__ = ["ASSISTANT_ENV", "ServerStore", "server_store"]

ASSISTANT_ENV = "PLAYGROUND_ASSISTANT"


class ServerStore(NamedTuple):
    """The configured store's spec (never shown: it may hold a password) and its source."""

    spec: str
    source: str  # "flag", "playground.toml" or "environment"
    assistant: str | None = None  # a LangGraph server's assistant or graph: its threads only


def _from_file(path: Path, key: str = "store") -> str | None:
    try:
        table = playground_table(path)  # names the file, never quotes it: it may hold a DSN
    except ProjectError as error:
        raise StoreError(StoreCode.BAD_SPEC, error.message) from None
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise StoreError(
            StoreCode.BAD_SPEC,
            f'{path}: write {key} = "runs/checkpoints.sqlite" (a file, a "postgresql://..." '
            'DSN or a LangGraph server\'s "http://..." URL)'
            if key == "store"
            else f'{path}: write {key} = "the assistant or graph id" as text.',
        )
    return value or None


def server_store(
    argv: Sequence[str], env: Mapping[str, str], cwd: Path | str
) -> ServerStore | None:
    """The store the server was configured with, the first set of: the `--store` flag, a
    `store` entry in playground.toml's [playground] table, the PLAYGROUND_STORE variable.

    Example:
        >>> server_store(["--store", "runs.sqlite"], {"PLAYGROUND_STORE": "x.sqlite"}, ".")
        ServerStore(spec='runs.sqlite', source='flag', assistant=None)
        >>> server_store([], {}, "/nonexistent") is None
        True
    """
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--store")
    parser.add_argument("--assistant")
    flags, _ = parser.parse_known_args(list(argv))
    config = Path(cwd) / CONFIG_FILE
    sources = [
        (flags.store, "flag"),
        (_from_file(config), CONFIG_FILE),
        (env.get(STORE_ENV, "").strip() or None, "environment"),
    ]
    assistant = (
        flags.assistant
        or _from_file(config, "assistant")
        or env.get(ASSISTANT_ENV, "").strip()
        or None
    )
    return next((ServerStore(spec, source, assistant) for spec, source in sources if spec), None)
