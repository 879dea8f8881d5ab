"""A chain from uploaded plan files, and what the preview, the dry run and Apply key it by.
Read without Streamlit.

The files are written to a temporary folder and read by `core.migrate.chain.load_chain`, as
`python -m core migrate --plan DIR` reads a folder. Before that, each file is bounded (at most
MAX_PLANS files, each within MAX_PLAN_BYTES) and parsed, and a plan's `model` is taken only
from a module the server has already imported (the project's own code): an uploaded file
never makes the server import a module.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from pydantic import BaseModel

from core.errors import CodedError, ErrorCode
from core.migrate.chain import MAX_PLANS, Chain, load_chain
from core.migrate.plan import MAX_PLAN_BYTES, Plan, PlanError, parse_plan, plan_toml

__all__ = ["Migration", "as_chain", "migration_text", "read_chain", "serde_models"]

Migration = Plan | Chain  # what the preview, the dry run and Apply run: the table's, or a chain


def _refused(message: str) -> CodedError:
    return CodedError(ErrorCode.PLAN_CHAIN, f"the uploaded chain: {message}")


def _checked(name: str, data: bytes) -> Plan:
    """The plan in one uploaded file, its `model` (if any) in a module already imported."""
    if len(data) > MAX_PLAN_BYTES:
        raise _refused(f"{name} is over {MAX_PLAN_BYTES:,} bytes; shorten it or split it.")
    try:
        plan = parse_plan(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise CodedError(
            ErrorCode.PLAN_TOML, f"{name} is not UTF-8 text; save it as UTF-8."
        ) from None
    except PlanError as error:
        raise CodedError(ErrorCode(error.code), f"{name}: {error.message}") from None
    module = (plan.model or "").partition(":")[0]
    if plan.model is not None and module not in sys.modules:
        raise _refused(
            f"{name}: model = {plan.model!r}: the page reads a plan's model only from the "
            "project's own modules, already loaded; name one of them, or leave model out "
            "(a thread then starts after its migration record, else at the first plan)."
        )
    return plan


def read_chain(files: list[tuple[str, bytes]]) -> Chain:
    """The chain the uploaded `files` (name, content) make, in order of their id and after.

    Raises `CodedError`: plan_chain (too many files, two of one name, a file too large, a
    model of a module not loaded, and every refusal of `load_chain` — two plans with one id,
    an `after` naming no plan, a cycle, a plan without an id), plan_toml and plan_step at
    the file's line.

    Example:
        >>> chain = read_chain([("b.toml", b'id = "v3"\\nafter = "v2"\\n'),
        ...                     ("a.toml", b'id = "v2"\\n')])
        >>> chain.ids, [link.file for link in chain.links]
        (['v2', 'v3'], ['a.toml', 'b.toml'])
    """
    if not files:
        raise _refused("no file; upload the chain's plans, each with its id.")
    if len(files) > MAX_PLANS:
        raise _refused(f"{len(files)} files, over {MAX_PLANS}; merge the old plans.")
    names = [Path(name).name for name, _ in files]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise _refused(f"two files named {twice[0]}; rename one of them.")
    for name, (_, data) in zip(names, files, strict=True):
        _checked(name, data)
    with tempfile.TemporaryDirectory(prefix="chain-") as folder:
        for name, (_, data) in zip(names, files, strict=True):
            (Path(folder) / name).write_bytes(data)
        try:
            chain = load_chain(folder)
        except PlanError as error:  # it names the folder: the user knows only the files
            said = error.message.replace(f"{folder}: ", "").replace(f"{folder}/", "")
            raise CodedError(ErrorCode(error.code), f"the uploaded chain: {said}") from None
    links = tuple(type(link)(link.id, link.plan, link.model, Path(link.file).name)
                  for link in chain.links)  # fmt: skip
    return Chain(links, chain.stop)


def as_chain(migration: Migration) -> Chain:
    """A plan as a chain of its own; a chain as it is."""
    return migration if isinstance(migration, Chain) else Chain.of(migration)


def migration_text(migration: Migration) -> str:
    """The text a preview or a dry run is of: each plan's TOML with its file, in order, and
    the plan the chain stops after."""
    if isinstance(migration, Plan):
        return plan_toml(migration)
    plans = "\n".join(f"# {link.file}\n{plan_toml(link.plan)}" for link in migration.links)
    return f"# stop after {migration.head}\n{plans}"


def serde_models(
    model: type[BaseModel], candidate: type[BaseModel], migration: Migration
) -> list[type[BaseModel]]:
    """Every model the store may hold: the page's two and each version the chain names."""
    return [model, candidate, *as_chain(migration).models]
