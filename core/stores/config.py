"""Where the server's store comes from: --store, playground.toml's `store`, PLAYGROUND_STORE."""

from __future__ import annotations

import argparse
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from core.project import CONFIG_FILE
from core.stores.errors import StoreCode, StoreError
from core.stores.open import STORE_ENV

__all__ = ["ServerStore", "server_store"]


class ServerStore(NamedTuple):
    """The configured store's spec (never shown: it may hold a password) and its source."""

    spec: str
    source: str  # "flag", "playground.toml" or "environment"


def _from_file(path: Path) -> str | None:
    if not path.is_file():
        return None
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8")).get("playground", {})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        # the file may hold a DSN: name the file, never quote it
        raise StoreError(
            StoreCode.BAD_SPEC, f"{path} cannot be read as TOML; fix the [playground] table."
        ) from None
    store = table.get("store") if isinstance(table, dict) else None
    if store is not None and not isinstance(store, str):
        raise StoreError(
            StoreCode.BAD_SPEC,
            f'{path}: write store = "runs/checkpoints.sqlite" or a "postgresql://..." DSN.',
        )
    return store or None


def server_store(
    argv: Sequence[str], env: Mapping[str, str], cwd: Path | str
) -> ServerStore | None:
    """The store the server was configured with, the first set of: the `--store` flag, a
    `store` entry in playground.toml's [playground] table, the PLAYGROUND_STORE variable.

    Example:
        >>> server_store(["--store", "runs.sqlite"], {"PLAYGROUND_STORE": "x.sqlite"}, ".")
        ServerStore(spec='runs.sqlite', source='flag')
        >>> server_store([], {}, "/nonexistent") is None
        True
    """
    parser = argparse.ArgumentParser(add_help=False, allow_abbrev=False)
    parser.add_argument("--store")
    flags, _ = parser.parse_known_args(list(argv))
    sources = [
        (flags.store, "flag"),
        (_from_file(Path(cwd) / CONFIG_FILE), CONFIG_FILE),
        (env.get(STORE_ENV, "").strip() or None, "environment"),
    ]
    return next((ServerStore(spec, source) for spec, source in sources if spec), None)
